"""Round 46 diagnostic (dev only): how well each feature alone tells evidence at today's places 11-20 from
non-evidence at places 6-10 of the same question (the pairs a top-10 swap decides), as a pair accuracy.

    PYTHONPATH=src python bench/rank46/boundary.py COL 0 1 2 3   -> bench/rank46/out/boundary_dev.txt
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from features import NAMES, prepare


def main() -> None:
    rows = prepare(Path(sys.argv[1]), [int(x) for x in sys.argv[2:]], (20,))
    pairs = []
    for q, _ in rows:
        x, y = q["feat"][20]
        ins = [i for i in range(10, len(y)) if y[i]]
        outs = [i for i in range(5, min(10, len(y))) if not y[i]]
        pairs += [(x[i], x[o]) for i in ins for o in outs]
    ev_out = sum(1 for q, _ in rows for i in range(5, min(10, len(q["feat"][20][1]))) if q["feat"][20][1][i])
    print(f"pairs (evidence at 11-20, non-evidence at 6-10 of one question): {len(pairs)}; "
          f"evidence at 6-10 that a swap can lose: {ev_out}")
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    for j, name in enumerate(NAMES):
        hi = float(np.mean(a[:, j] > b[:, j]) + 0.5 * np.mean(a[:, j] == b[:, j]))
        print(f"{name:16s} evidence-higher {hi:.3f}")


if __name__ == "__main__":
    main()
