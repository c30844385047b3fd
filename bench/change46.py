"""Hygiene round 46b (issue 10): a redacted secret of the same slot written again is a change - the rows and stores
`secret_slot.ON` can move, and the engine's outcomes on them with the switch off and on (restate45's harness).

    PYTHONPATH=src:bench python bench/change46.py reach ROWS.json STORES.json    # rows / retrieval stores it reaches
    PYTHONPATH=src:bench python bench/change46.py run off|on|onB ROWS.json OUT.json  # hygiene_funnel on those rows
    PYTHONPATH=src:bench python bench/change46.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/change46.py stores off|on|onB STORES.json OUT.json  # the reached stores written

A row is reached when its `new` text and its `existing` text or one of its `others` carry a secret kind
(`secret_slot.SECRET_KINDS`) by `redact.find_sensitive`, as the write path reads them; a store when two or more of
its memories do. The reading needs a secret placeholder on both texts of a judged pair, so any other row or store
gets the same verdicts by construction. `onB` is the rule's arm B (`secret_slot.SIGNAL_ONLY`).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import restate45

STORE_ROUNDS = tuple(f"r{i}" for i in range(27, 41))  # the rule's clause 6 reads r27 - r39; r40 reported apart


def _secret(text: str) -> bool:
    from hindsight.safety.redact import find_sensitive
    from hindsight.write.secret_slot import SECRET_KINDS

    return any(f.kind in SECRET_KINDS for f in find_sensitive(text))


def reach(rows_out: Path, stores_out: Path) -> None:
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    rows: dict[str, list[int]] = {}
    for rnd in ROUNDS:
        rows[rnd] = [i for i, r in enumerate(_rows(rnd))
                     if _secret(r["new"]) and any(_secret(t) for t in [r["existing"], *(r.get("others") or [])])]
    rows_out.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print({k: v for k, v in rows.items() if v}, flush=True)
    stores: dict[str, list[str]] = {}
    for rnd in STORE_ROUNDS:
        mems = restate45.store_memories(rnd)
        hit = [m["id"] for m in mems if _secret(m["content"])]
        if len(hit) >= 2:
            stores[rnd] = hit
    stores_out.write_text(json.dumps(stores) + "\n", encoding="utf-8")
    print(stores, flush=True)


def _switch(mode: str) -> None:
    import hindsight.write.secret_slot as ss

    ss.ON = mode in ("on", "onB")
    ss.SIGNAL_ONLY = mode == "onB"


def run(mode: str, src: Path, out: Path) -> None:
    restate45.run(mode, src, out, switch=lambda _on: _switch(mode))


def stores(mode: str, src: Path, out: Path) -> None:
    """restate45's store writer with this switch set; it sets `value_digests.PHONE_FORMS` by its own mode, so it is
    called with "on" (main's setting) whatever this arm is."""
    _switch(mode)
    restate45.stores("on", src, out)


COMMANDS = {
    "reach": lambda a: reach(Path(a[0]), Path(a[1])),
    "run": lambda a: run(a[0], Path(a[1]), Path(a[2])),
    "compare": lambda a: restate45.compare(Path(a[0]), Path(a[1]), Path(a[2])),
    "stores": lambda a: stores(a[0], Path(a[1]), Path(a[2])),
}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](sys.argv[2:])
