"""The write-path cost of `conversions.written_alike` (hygiene round 12): per judged pair, caches cold.

    PYTHONPATH=src python bench/hygiene_conversions_cost.py [--rounds r10,r11] [--repeat 5]

Every (existing, new) pair and every (other, new) pair of the rounds' hygiene sets is read once per repeat with the
module's caches cleared first (a write judges at most 5 near neighbours: the per-write bound is 5 x the median).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from hindsight.write import conversions
from hindsight.write.analysis import units

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", default="r10,r10T1,r11,r11T1")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pairs: list[tuple[str, str]] = []
    for rnd in args.rounds.split(","):
        base = ROOT / "bench/data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
        for line in (base / "hygiene/set.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                pairs += [(old, row["new"]) for old in [row["existing"], *(row.get("others") or [])]]
    for old, new in pairs[:50]:  # warm jieba and the regular expressions once
        conversions.written_alike(old, new)
    times: list[float] = []
    for _ in range(args.repeat):
        for old, new in pairs:
            conversions.written_alike.cache_clear()
            conversions.amounts.cache_clear()
            units.cache_clear()
            start = time.perf_counter()
            conversions.written_alike(old, new)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    median = statistics.median(times)
    print(json.dumps({"pairs": len(pairs), "timings": len(times), "median_ms": round(median, 4),
                      "p99_ms": round(times[int(0.99 * (len(times) - 1))], 4), "max_ms": round(times[-1], 3),
                      "per_write_at_median_ms (5 judged pairs)": round(5 * median, 4)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
