"""Cost of redaction per text, rules only vs rules + tagger (median, p95, max; ms), on the released PII rounds.

    PYTHONPATH=src .venv/bin/python bench/redaction_cost.py

Each text is redacted 5 times per mode; the minimum of the 5 is its cost (machine noise removed). The write
path's own per-stage cost (the redaction stage among guard, embed, hygiene, persist) is bench/throughput.py.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from hindsight.safety.redact import redact

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    texts = [json.loads(line)["text"] for r in ("r1", "r2", "r3", "r4", "r5", "r6")
             for line in (ROOT / "bench/data/blind" / r / "pii/set.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    redact(texts[0])  # load the weights once
    for name, tagger in (("rules", False), ("rules+tagger", True)):
        costs = []
        for text in texts:
            best = float("inf")
            for _ in range(5):
                t0 = time.perf_counter()
                redact(text, tagger=tagger)
                best = min(best, time.perf_counter() - t0)
            costs.append(best * 1000)
        costs.sort()
        print(f"{name:13s} n={len(costs)} median {statistics.median(costs):.3f} ms  p95 {costs[int(0.95 * len(costs))]:.3f} ms  "
              f"max {costs[-1]:.3f} ms")


if __name__ == "__main__":
    main()
