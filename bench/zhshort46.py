"""Hygiene round 46c (issue 10): a merge of two short statements about another person, or naming two values of one
closed class, is kept - the rows and stores `two_parties.ON` can move, and the engine's outcomes on them off / on.

    PYTHONPATH=src:bench python bench/zhshort46.py reach ROWS.json STORES.json    # rows / retrieval stores it reaches
    PYTHONPATH=src:bench python bench/zhshort46.py run off|on ROWS.json OUT.json  # hygiene_funnel on those rows
    PYTHONPATH=src:bench python bench/zhshort46.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/zhshort46.py stores off|on STORES.json OUT.json  # the reached stores written

A row is reached when `two_parties.reason` fires on one of its judged text pairs (others x existing, others x new,
existing x new); a store when it fires on a pair of its memories. The reading only turns a merge of such a pair into
a kept link, so any other row or store gets the same verdicts by construction.
"""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import restate45

STORE_ROUNDS = tuple(f"r{i}" for i in range(27, 41))  # clause 4 reads r27 - r39; r40 reported apart


def _fires(texts: list[str]) -> bool:
    from hindsight.write.two_parties import reason

    return any(reason(a, b) for a, b in itertools.combinations(texts, 2))


def reach(rows_out: Path, stores_out: Path) -> None:
    from hygiene_funnel import ROUNDS
    from hygkey43 import _rows

    from hindsight.write.two_parties import reason

    rows = {rnd: [i for i, r in enumerate(_rows(rnd)) if _fires([*(r.get("others") or []), r["existing"], r["new"]])]
            for rnd in ROUNDS}
    rows_out.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print(sum(map(len, rows.values())), "rows reached", flush=True)
    stores = {rnd: hit for rnd in STORE_ROUNDS if (hit := sorted(
        {m["id"] for a, b in itertools.combinations(restate45.store_memories(rnd), 2)
         if reason(a["content"], b["content"]) for m in (a, b)}))}
    stores_out.write_text(json.dumps(stores) + "\n", encoding="utf-8")
    print({k: len(v) for k, v in stores.items()}, flush=True)


def _switch(mode: str) -> None:
    import hindsight.write.two_parties as tp

    tp.ON = mode == "on"


COMMANDS = {
    "reach": lambda a: reach(Path(a[0]), Path(a[1])),
    "run": lambda a: restate45.run(a[0], Path(a[1]), Path(a[2]), switch=lambda _on: _switch(a[0])),
    "compare": lambda a: restate45.compare(Path(a[0]), Path(a[1]), Path(a[2])),
    "stores": lambda a: (_switch(a[0]), restate45.stores("on", Path(a[1]), Path(a[2]))),
}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](sys.argv[2:])
