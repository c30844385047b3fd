"""Leave-one-round-out: does token alignment (`write.token_align`) improve the hygiene pair model?

    PYTHONPATH=src .venv/bin/python scripts/hygiene_token_loro.py [--cache /tmp/hindsight_hygiene_vectors.npz]
        [--rounds r1,r2,r4,r5,r6] [--report bench/results/hygiene_token_loro.json]

The same data, protocol and decision as scripts/train_hygiene_pairs.py (each held-out blind round's model, L2 and
thresholds chosen on the other rounds + own pairs, per-round safety floors), run twice: with the shipped features
(`pair_features.FEATURES`, "before") and with the token alignment features appended ("after"); the hand-written
judge's verdicts ("rules") beside them. Pair level: each labelled pair and each `others` keep pair, as the write
path would judge it (under the 0.80 floor: kept). Prints and writes each held-out round's confusion matrix.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_hygiene_pairs as thp  # noqa: E402

from hindsight.write.token_align import ALIGN_FEATURES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/hindsight_hygiene_vectors.npz"))
    parser.add_argument("--rounds", default=",".join(thp.ROUNDS))
    parser.add_argument("--report", type=Path, default=thp.ROOT / "bench" / "results" / "hygiene_token_loro.json")
    args = parser.parse_args()
    thp.CACHE[0] = args.cache
    rows = thp.pairs()
    X = thp.featurise(rows, args.cache)
    for r, code in zip(rows, thp.old_judge(rows, args.cache)):
        r["rules"] = int(code)
    A = thp.align_matrix(rows, args.cache)
    y = np.array([r["y"] for r in rows])
    rnd = np.array([r["round"] for r in rows])
    report: dict[str, Any] = {"align_features": list(ALIGN_FEATURES), "held_out": {}}
    for held in args.rounds.split(","):
        train_rows = rnd != held
        tr = [r for r, k in zip(rows, train_rows) if k]
        te = [r for r, k in zip(rows, ~train_rows) if k]
        cos = np.array([r["cosine"] for r in te])
        entry: dict[str, Any] = {"rules": thp.rates(np.where(cos >= thp.FLOOR, [r["rules"] for r in te], thp.KEEP), te)}
        for name, M in (("before", X), ("after", np.hstack([X, A]))):
            model, chosen = thp.train(M[train_rows], y[train_rows], tr)
            pred = thp.judged(model.probabilities(M[~train_rows]), te, model.t_merge, model.t_change)
            entry[name] = {"chosen_on_other_rounds": chosen, **thp.rates(pred, te)}
        report["held_out"][held] = entry
        print(held, json.dumps(entry), file=sys.stderr, flush=True)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
