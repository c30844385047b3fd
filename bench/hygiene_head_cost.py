"""What the pair head adds to a write (issue 10, round 11): the head's own stage, timed per judged pair.

    PYTHONPATH=src python bench/hygiene_head_cost.py HEAD.npz [--cache /tmp/vec.npz] [--rounds r10,r10T1]

For each labelled pair of the rounds' hygiene sets (existing, new), the inputs the write path already has are
prepared once (the query-side vectors, `pair_features`, the scalar model's verdict); then `PairHead.decide` - the
only work the head adds - is timed where main keeps (the only place it is asked). A write judges at most
`HygieneChecker.candidates` (5) near neighbours, so 5 x the per-pair time bounds the head's cost per write.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import train_hygiene_pairs as base  # noqa: E402

from hindsight.write.judge import CUE_FLOOR, RULE_CLASS, classify_rules  # noqa: E402
from hindsight.write.pair_features import pair_features  # noqa: E402
from hindsight.write.pair_head import PairHead  # noqa: E402
from hindsight.write.pair_model import KEEP, shipped_model  # noqa: E402
from hindsight.write.thresholds import HygieneThresholds  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("head", type=Path)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/hindsight_hygiene_vectors.npz"))
    parser.add_argument("--rounds", default="r10,r10T1")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    head, model = PairHead.load(args.head), shipped_model()
    if head is None or model is None:
        sys.exit("no head / scalar model")
    rows = [r for rnd in args.rounds.split(",")
            for r in base.load(base.round_dir(rnd) / "hygiene" / "set.jsonl")]
    vec = base.vectors([t for r in rows for t in (r["existing"], r["new"])], args.cache)
    thresholds = HygieneThresholds.default()
    times: list[float] = []
    asked = 0
    for r in rows:
        (do, qo), (dn, qn) = vec[r["existing"]], vec[r["new"]]
        cos, qcos = float(do @ dn), float(qo @ qn)
        if cos < CUE_FLOOR:
            continue
        features = pair_features(r["existing"], r["new"], cos, qcos)
        rules = RULE_CLASS[classify_rules(r["existing"], r["new"], cos, thresholds, query_similarity=qcos).label]
        label, p = model.decide(features, rules)
        if label != KEEP:
            continue
        asked += 1
        for _ in range(args.repeat):
            t0 = time.perf_counter_ns()
            head.decide(features, rules, p, label, qo, qn)
            times.append((time.perf_counter_ns() - t0) / 1e3)
    us = np.array(times)
    print(json.dumps({"pairs": len(rows), "asked": asked, "calls": len(us), "median_us": round(float(np.median(us)), 1),
                      "p99_us": round(float(np.percentile(us, 99)), 1), "max_us": round(float(us.max()), 1),
                      "per_write_bound_ms_median": round(5 * float(np.median(us)) / 1e3, 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
