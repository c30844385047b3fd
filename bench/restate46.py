"""Hygiene round 46 (issue 10): inside the rules' "shares the subject, adds or changes" keep, a merge where every
content slot of each side is covered by the other token by token (`write.slot_cover`) - the rows and stores the switch
can move, and the engine's outcomes on them off and on; and the name / role family's reach (a note of the row that
binds a name on one side to a role on the other).

    PYTHONPATH=src:bench python bench/restate46.py reach ROWS.json          # hygiene rows the switch can reach
    PYTHONPATH=src:bench python bench/restate46.py run off|on ROWS.json OUT.json
    PYTHONPATH=src:bench python bench/restate46.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/restate46.py stores-reach STORES.json  # retrieval stores it can reach
    PYTHONPATH=src:bench python bench/restate46.py stores off|on STORES.json OUT.json
    PYTHONPATH=src:bench python bench/restate46.py roles OUT.json            # name / role bindings in a row's notes

A row is reached when a pair of its texts (an earlier one, a later one, in the order the funnel writes them: others,
existing, new; redacted and read as the judge reads them) gets the heuristic's shares-the-subject reason and meets
`slot_cover`'s token and number reading; the switch's code runs nowhere else, so every other row is equal by
construction.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IN_SAMPLE = ("r40",)


def _reached_pair(old: str, new: str) -> float | None:
    from hindsight.write import slot_cover
    from hindsight.write.analysis import analyse
    from hindsight.write.conflict import SHARES_SUBJECT, heuristic
    from hindsight.write.conversions import written_alike

    old, new = written_alike(old, new)
    _, reason, _ = heuristic(old, new)
    if not reason.startswith(SHARES_SUBJECT):
        return None
    a = analyse(old, new)
    if a.old_numbers != a.new_numbers:
        return None
    weakest, swaps = slot_cover.coverage(old, new)
    return weakest if weakest >= slot_cover.COVER and not swaps else None


def _texts(r: dict[str, Any]) -> list[str]:
    from hindsight.safety.redact import redact

    return [redact(t).text for t in [*(r.get("others") or []), r["existing"], r["new"]]]


def reach(rows_out: Path, only: list[str] | None = None) -> None:
    """`only`: these sets alone (one process per part of the list; `merge` joins the parts)."""
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    rows: dict[str, list[int]] = {}
    detail: list[dict[str, Any]] = []
    for rnd in [r for r in ROUNDS if only and r in only or not only and "T" not in r]:  # blind sets unless `only`
        rows[rnd] = []
        for i, r in enumerate(_rows(rnd)):
            texts = _texts(r)
            hits = [(a, b, w) for k, b in enumerate(texts) for a in texts[:k]
                    if (w := _reached_pair(a, b)) is not None]
            if hits:
                rows[rnd].append(i)
                detail += [{"row": f"{rnd}:{i}", "label": r["label"], "old": a, "new": b, "weakest": round(w, 3)}
                           for a, b, w in hits]
        print(rnd, rows[rnd], flush=True)
        rows_out.write_text(json.dumps({"rows": rows, "pairs": detail}, ensure_ascii=False) + "\n", encoding="utf-8")


def _switch(on: bool) -> None:
    from hindsight.write import slot_cover

    slot_cover.ON = on
    slot_cover.LIFT_WORDING = on and VARIANT == "v2"


#: "v1" (the declared rule) or "v2" (the addendum: wording blockers lifted); `RESTATE46_VARIANT` in the environment
VARIANT = __import__("os").environ.get("RESTATE46_VARIANT", "v1")


def run(mode: str, src: Path, out: Path) -> None:
    import restate45

    rows = json.loads(src.read_text(encoding="utf-8"))["rows"]
    tmp = out.with_suffix(".rows.json")
    tmp.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    restate45.run(mode, tmp, out, _switch)
    tmp.unlink()


def compare(off: Path, on: Path, out: Path) -> None:
    import dist45

    dist45.compare(off, on, out, IN_SAMPLE)


def _store_texts(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def stores_reach(out: Path) -> None:
    """Stores with a pair of memories (earlier, later) the switch can reach, read on the pairs the write path could
    judge: the later memory's nearest earlier ones by the document cosine (top 8, from 0.80, `judge.CUE_FLOOR`)."""
    import numpy as np
    from hygkey43 import _engine

    from hindsight.safety.redact import redact

    _eng, emb = _engine()
    found: dict[str, list[list[str]]] = {}
    for path in sorted((ROOT / "bench/data/blind").glob("r*/retrieval/memories.jsonl")):
        mems = _store_texts(path)
        texts = [redact(m["content"]).text for m in mems]
        vecs = np.asarray(emb.embed_documents(texts))
        hits = []
        for k in range(1, len(texts)):
            sims = vecs[:k] @ vecs[k]
            for j in np.argsort(-sims)[:8]:
                if sims[j] >= 0.80 and _reached_pair(texts[int(j)], texts[k]) is not None:
                    hits.append([mems[int(j)]["id"], mems[k]["id"]])
        if hits:
            found[path.parts[-3]] = hits
        print(path.parts[-3], hits, flush=True)
        out.write_text(json.dumps(found) + "\n", encoding="utf-8")


def stores(mode: str, src: Path, out: Path) -> None:
    import restate45

    restate45.stores(mode, src, out, _switch)


#: A note binding a name to a role: "Leo is our eldest", "Marta is the club's treasurer", "刘敏是我们的会计".
_EN_BIND = re.compile(r"\b([A-Z][a-z]+)(?: [A-Z][a-z.]+)? (?:is|was) (?:our|my|the|his|her|their)"
                      r"(?: [\w']+'s)? ([a-z][a-z-]+(?: [a-z-]+)?)")
_ZH_BIND = re.compile(r"([\u4e00-\u9fff]{2,3})是(?:我们|我|我家|我们家|家里|公司|我们公司|咱们)?的?([\u4e00-\u9fff]{2,4})")


def roles(out: Path) -> None:
    """Rows one of whose notes binds a name on one side of the pair (existing / new) to a role word on the other."""
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    found = []
    for rnd in ROUNDS:
        for i, r in enumerate(_rows(rnd)):
            for note in r.get("others") or []:
                for m in [*_EN_BIND.finditer(note), *_ZH_BIND.finditer(note)]:
                    name, role = m.group(1), m.group(2).split()[-1]
                    for one, two in ((r["existing"], r["new"]), (r["new"], r["existing"])):
                        if name in one and name not in two and role.lower() in two.lower():
                            found.append({"row": f"{rnd}:{i}", "label": r["label"], "note": note, "name": name,
                                          "role": role, "existing": r["existing"], "new": r["new"]})
    out.write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(len(found), [f["row"] for f in found])


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "reach":
        reach(Path(args[0]), args[1:])
    elif cmd == "merge":  # reach parts -> one reach file
        parts = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args[1:]]
        Path(args[0]).write_text(json.dumps({"rows": {k: v for p in parts for k, v in p["rows"].items()},
                                             "pairs": [x for p in parts for x in p["pairs"]]}, ensure_ascii=False)
                                 + "\n", encoding="utf-8")
    elif cmd == "run":
        run(args[0], Path(args[1]), Path(args[2]))
    elif cmd == "compare":
        compare(Path(args[0]), Path(args[1]), Path(args[2]))
    elif cmd == "stores-reach":
        stores_reach(Path(args[0]))
    elif cmd == "stores":
        stores(args[0], Path(args[1]), Path(args[2]))
    elif cmd == "roles":
        roles(Path(args[0]))
