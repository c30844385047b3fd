"""Hygiene round 47 (issue 10): a redacted contact value of one slot written again with another value - the rows and
stores `contact_slot.ON` can move, and the engine's outcomes on them off and on (change46's harness).

    PYTHONPATH=src:bench python bench/hyg47.py reach ROWS.json STORES.json
    PYTHONPATH=src:bench python bench/hyg47.py run off|on ROWS.json OUT.json
    PYTHONPATH=src:bench python bench/hyg47.py compare OFF.json ON.json OUT.json   # r41 in sample
    PYTHONPATH=src:bench python bench/hyg47.py stores off|on STORES.json OUT.json

A row is reached when its `new` text and its `existing` text or one of its `others` carry a `value_digests.KINDS`
finding (`redact.find_sensitive`); a store when two or more of its memories do. The reading needs a "changed"
digest relation on a judged pair, so any other row or store gets the same verdicts by construction.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import restate45

STORE_ROUNDS = tuple(f"r{i}" for i in range(27, 42))  # clause 6 reads r27 - r40; r41 reported apart


def _digested(text: str) -> bool:
    from hindsight.safety.redact import find_sensitive
    from hindsight.write.value_digests import KINDS

    return any(f.kind in KINDS for f in find_sensitive(text))


def reach(rows_out: Path, stores_out: Path) -> None:
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    rows = {rnd: [i for i, r in enumerate(_rows(rnd)) if _digested(r["new"])
                  and any(_digested(t) for t in [r["existing"], *(r.get("others") or [])])] for rnd in ROUNDS}
    rows_out.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print(sum(map(len, rows.values())), "rows", flush=True)
    stores: dict[str, list[str]] = {}
    for rnd in STORE_ROUNDS:
        hit = [m["id"] for m in restate45.store_memories(rnd) if _digested(m["content"])]
        if len(hit) >= 2:
            stores[rnd] = hit
    stores_out.write_text(json.dumps(stores) + "\n", encoding="utf-8")
    print(stores, flush=True)


def _switch(on: bool) -> None:
    import hindsight.write.contact_slot as cs

    cs.ON = on


def compare(off: Path, on: Path, out: Path) -> None:
    import dist45

    dist45.compare(off, on, out, ("r41",))


COMMANDS = {
    "reach": lambda a: reach(Path(a[0]), Path(a[1])),
    "run": lambda a: restate45.run(a[0], Path(a[1]), Path(a[2]), switch=_switch),
    "compare": lambda a: compare(Path(a[0]), Path(a[1]), Path(a[2])),
    "stores": lambda a: restate45.stores(a[0], Path(a[1]), Path(a[2]), switch=_switch),
}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](sys.argv[2:])
