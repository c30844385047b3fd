"""Retrieval questions lost on the write side: every relevant memory of the question is not active in its store
(quarantined by the guard, or deprecated by hygiene / supersession), so no search order can return it as current
(issue 10, round 24).

    python bench/xling24_lost.py STORES r1 r2 ... r22

STORES/ROUND is a store written by `blind_store.build` (the harness's protocol); prints, per round and pooled over
the rounds named, the questions lost per category and status.
"""

import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    stores = Path(sys.argv[1])
    pooled: Counter = Counter()
    for rnd in sys.argv[2:]:
        base = Path("bench/data/train" if "T" in rnd else "bench/data/blind") / rnd
        ids = json.loads((stores / rnd / "ids.json").read_text())
        with sqlite3.connect(stores / rnd / "m.db") as db:
            status = dict(db.execute("select id, status from memories").fetchall())
        lost: Counter = Counter()
        for line in open(base / "retrieval/queries.jsonl", encoding="utf-8"):
            if not line.strip():
                continue
            q = json.loads(line)
            found = sorted({str(status.get(ids.get(i))) for i in q["relevant"]})
            if "active" not in found:
                lost[(q["category"], "+".join(found))] += 1
        pooled.update(lost)
        print(rnd, dict(sorted(lost.items())))
    print("pooled", dict(sorted(pooled.items())))


if __name__ == "__main__":
    main()
