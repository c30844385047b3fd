"""The value tier's own time per write (`slot_change._valued`: `value_align.value_change`), issue 10 round 12.

    python bench/currency12_cost.py DUMP.jsonl [--out cost.json]

Replays every call of the same-slot check in the dump (`bench/currency12_dump.py`, the texts the write path
passed) in dump order, in one process, with the clause, alignment and word caches cleared before each call (a write
meets its texts for the first time), and times the tier as the write path runs it (its cosine bar first, then
the clause alignment). Reports the median, p90 and max over the calls the tier reads and over all writes
(a write whose nearest neighbour was not kept by the judge never calls it: 0 ms).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from hindsight.retrieval.crosslingual import bias_group
from hindsight.write import analysis, clause_split, slot_align
from hindsight.write.slot_change import VALUE_COS, _valued

ap = argparse.ArgumentParser()
ap.add_argument("dump", type=Path, nargs="+")
ap.add_argument("--out", type=Path)
args = ap.parse_args()
rows = [json.loads(x) for d in args.dump for x in d.read_text(encoding="utf-8").splitlines() if x.strip()]
calls = [r for r in rows if r["row"] == "call"]
writes = sum(1 for r in rows if r["row"] == "pair") + sum(len(r["status"]) for r in rows if r["row"] == "round")
for warm in (("The warm-up fee is $10 on March 3 at 9am.", "Warm-up fee: $12 on March 4 at 10am now."),
             ("预热费用是每月10元，3月3日上午9点。", "预热费用：每月12元，3月4日上午10点。")):
    _valued(*warm, 0.99, frozenset({"en" if warm[0].isascii() else "zh"}))
times: list[float] = []
for c in calls:
    for cache in (clause_split.clauses, slot_align.align, slot_align._atoms, analysis.units):
        cache.cache_clear()
    group = frozenset({bias_group(c["old"]), bias_group(c["new"])})
    t0 = time.perf_counter()
    _valued(c["old"], c["new"], c["cos"], group)
    ms = (time.perf_counter() - t0) * 1000
    times.append(ms)
    c["ms"] = ms
    c["read"] = c["cos"] >= VALUE_COS.get(group, 9.0)
q = statistics.quantiles(times, n=10)
per_write = sorted(times + [0.0] * max(0, writes - len(times)))
out = {"calls": len(times), "writes": writes, "median_ms_per_call": round(statistics.median(times), 3),
       "p90_ms_per_call": round(q[-1], 3), "max_ms_per_call": round(max(times), 3),
       "median_ms_per_write": round(statistics.median(per_write), 3),
       "mean_ms_per_write": round(sum(times) / writes, 3)}
aligned = [c["ms"] for c in calls if c["read"]]
if len(aligned) > 1:
    out.update(aligned_calls=len(aligned), median_ms_aligned=round(statistics.median(aligned), 3),
               p90_ms_aligned=round(statistics.quantiles(aligned, n=10)[-1], 3))
out["slowest"] = [(round(c["ms"], 1), c["old"][:60], c["new"][:60]) for c in sorted(calls, key=lambda c: -c["ms"])[:3]]
print(json.dumps(out, indent=1, ensure_ascii=False))
if args.out:
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
