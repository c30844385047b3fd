"""Cost of reading numbers written out (`write.numbers.read_numbers` + `read_zh_clock_parts`) per text.

    PYTHONPATH=src python bench/number_reading_cost.py [bench/data/blind/r8]

Times both passes over every text of a round's hygiene set (existing, new, others), each text once (the callers
cache by text), and prints the median and 99th percentile in microseconds.
"""
import json
import sys
import time
from pathlib import Path

import numpy as np

from hindsight.write.numbers import read_numbers, read_zh_clock_parts

root = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/data/blind/r8")
rows = [json.loads(x) for x in (root / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
texts = sorted({t for r in rows for t in (r["existing"], r["new"], *(r.get("others") or []))})
cost = []
for t in texts:
    start = time.perf_counter()
    read_zh_clock_parts(read_numbers(t))
    cost.append((time.perf_counter() - start) * 1e6)
print(json.dumps({"texts": len(texts), "median_us": round(float(np.median(cost)), 1),
                  "p99_us": round(float(np.percentile(cost, 99)), 1)}))
