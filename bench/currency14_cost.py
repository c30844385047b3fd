"""The number tier's own time (`slot_change._numbered`, round 14), per call, every cache cleared before each call.

    python bench/currency14_cost.py ROOT [--rounds r1,r2,...]     # ROOT/rN/pairs.jsonl: the funnel's dumps

Replays every write's judged nearest neighbour that the judge kept (the calls `slot_change.overrides` gets) with the
texts read whole from the sets, and prints the median / p90 / max per call (and over the calls past the cosine bar, whose texts are read) and the number of writes in the dumps
(a write with no such neighbour never calls the tier: 0 ms).
"""
import argparse
import json
import statistics
import time
from pathlib import Path

from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.write import clause_split, number_labels, renumber, slot_change

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("--rounds", default="r1,r2,r4,r5,r6,r7,r8,r9,r10,r11,r13,r15,r8T1")
args = ap.parse_args()
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]  # noqa: E731
caches = [renumber._values, clause_split.clauses, number_labels.clause_labels, currency.anchors, currency._terms]
per_call: list[float] = []
read: list[float] = []  # the calls over the tier's cosine bar: the texts are read
writes = 0
renumber.number_replaced("周会每周一上午9:30开。", "周会调到10:30了。")  # load the segmenter's dictionary first
for r in args.rounds.split(","):
    mem = {m["id"]: m for m in rows(Path("bench/data/train" if "T" in r else "bench/data/blind") / r
                                     / "retrieval/memories.jsonl")}
    dump = rows(Path(args.root) / r / "pairs.jsonl")
    writes += len({x["new"] for x in dump})
    for x in dump:
        if x["rank"] != 0 or x["verdict"] not in ("supplement", "unrelated") or x["old"] is None:
            continue
        old, new = mem[x["old"]]["content"], mem[x["new"]]["content"]
        group = frozenset({bias_group(old), bias_group(new)})
        for c in caches:
            c.cache_clear()  # type: ignore[attr-defined]
        t = time.perf_counter()
        slot_change._numbered(old, new, x["cos"], group)
        per_call.append((time.perf_counter() - t) * 1000)
        if x["cos"] >= slot_change.NUMBER_COS.get(group, 2.0):
            read.append(per_call[-1])
per_call.sort()
read.sort()
print(json.dumps({"calls": len(per_call), "writes_with_a_judged_neighbour": writes,
                  "median_ms": round(statistics.median(per_call), 3),
                  "p90_ms": round(per_call[int(0.9 * len(per_call))], 3), "max_ms": round(per_call[-1], 3),
                  "read": len(read), "read_median_ms": round(statistics.median(read), 3),
                  "read_p90_ms": round(read[int(0.9 * len(read))], 3)}))
