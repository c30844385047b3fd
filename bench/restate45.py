"""Hygiene round 45d (issue 10): one contact number written two ways (Chinese digit characters, an area code said
apart) read as one keyed digest - the rows and stores `value_digests.PHONE_FORMS` can move, and the engine's outcomes
on them with the switch off and on.

    PYTHONPATH=src:bench python bench/restate45.py reach ROWS.json STORES.json  # rows / retrieval stores it reaches
    PYTHONPATH=src:bench python bench/restate45.py run off|on ROWS.json OUT.json  # hygiene_funnel on those rows
    PYTHONPATH=src:bench python bench/restate45.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/restate45.py stores off|on STORES.json OUT.json  # the reached stores written

A text is reached when the phone values redaction finds in it (`redact.find_sensitive`, as the write path reads
them) give another canonical value with the switch on; a row or store none of whose texts is reached stores the same
digests either way, so every other verdict is the same by construction.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IN_SAMPLE = ("r40",)


def store_memories(rnd: str) -> list[dict[str, Any]]:
    """A released round's retrieval store, its memories in order."""
    path = ROOT / "bench/data/blind" / rnd / "retrieval/memories.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _phones(text: str) -> list[str]:
    import hindsight.write.value_digests as vd
    from hindsight.safety.redact import find_sensitive

    return [vd.canonical("phone", vd._with_area(text, f.start, f.end)) for f in find_sensitive(text) if f.kind == "phone"]


def _reached(text: str) -> bool:
    import hindsight.write.value_digests as vd

    vd.PHONE_FORMS = False
    off = _phones(text)
    vd.PHONE_FORMS = True
    on = _phones(text)
    vd.PHONE_FORMS = False
    return off != on


def reach(rows_out: Path, stores_out: Path) -> None:
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    rows: dict[str, list[int]] = {}
    for rnd in ROUNDS:
        rows[rnd] = [i for i, r in enumerate(_rows(rnd))
                     if any(_reached(t) for t in [r["existing"], r["new"], *(r.get("others") or [])])]
    rows_out.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print({k: v for k, v in rows.items() if v}, flush=True)
    stores: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bench/data/blind").glob("r*/retrieval/memories.jsonl")):
        mems = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        hit = [m["id"] for m in mems if _reached(m["content"])]
        if hit:
            stores[path.parts[-3]] = hit
    stores_out.write_text(json.dumps(stores) + "\n", encoding="utf-8")
    print(stores, flush=True)


def run(mode: str, src: Path, out: Path, switch: Callable[[bool], None] | None = None) -> None:
    """hygiene_funnel on the rows, `value_digests.PHONE_FORMS` by mode (or `switch(mode == "on")`, values45b)."""
    from hygkey43 import run_rows

    import hindsight.write.value_digests as vd

    if switch is None:
        vd.PHONE_FORMS = mode == "on"
    else:
        switch(mode == "on")
    report: dict[str, Any] = {"fixes": [mode]}
    run_rows(json.loads(src.read_text(encoding="utf-8")), report)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def compare(off: Path, on: Path, out: Path) -> None:
    """dist45's comparison (importing it sets only its own switches, which a comparison of two outputs never reads)."""
    import dist45

    dist45.compare(off, on, out, IN_SAMPLE)


def stores(mode: str, src: Path, out: Path, switch: Callable[[bool], None] | None = None) -> None:
    """The reached retrieval stores written as `blind_eval.py retrieval` writes them (no queries): each memory's final
    status, and which the writer marked replaced. `value_digests.PHONE_FORMS` by mode (or `switch(mode == "on")`,
    restate46)."""
    from datetime import UTC, datetime, timedelta

    from blind_store import when
    from hygkey43 import _engine

    import hindsight.write.value_digests as vd

    if switch is None:
        vd.PHONE_FORMS = mode == "on"
    else:
        switch(mode == "on")
    report: dict[str, Any] = {"mode": mode}
    for rnd in json.loads(src.read_text(encoding="utf-8")):
        eng, _emb = _engine()
        path = ROOT / "bench/data/blind" / rnd / "retrieval/memories.jsonl"
        mems = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        ids, t0 = {}, datetime(2026, 6, 1, tzinfo=UTC)
        for j, m in enumerate(mems):
            kind = m.get("type", "semantic")
            kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
            ids[m["id"]] = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind,
                                             "tags": m.get("tags", []),
                                             "event_time": when(m, t0 + timedelta(hours=j))}).memory_id
        replaced = {x for m in mems for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                              else m.get("replaces") or [])}
        status = {mid: eng.get(ids[mid], "r", record_access=False).status.value for mid in ids}
        report[rnd] = {"replaced_retired": sum(status.get(x) == "deprecated" for x in replaced),
                       "replaced": len(replaced),
                       "kept_retired": sorted(k for k, v in status.items() if v == "deprecated" and k not in replaced)}
        print(rnd, report[rnd], flush=True)
        out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "reach":
        reach(Path(args[0]), Path(args[1]))
    elif cmd == "run":
        run(args[0], Path(args[1]), Path(args[2]))
    elif cmd == "compare":
        compare(Path(args[0]), Path(args[1]), Path(args[2]))
    elif cmd == "stores":
        stores(args[0], Path(args[1]), Path(args[2]))
