"""What the pair head could add over the rules on a held-out round, at fixed thresholds (not chosen on it).

    PYTHONPATH=src .venv/bin/python bench/hygiene_head_tradeoff.py --cache /tmp/hygiene_vectors.npz \
        --loro-dir DIR [--rounds r9,r9T1]     # DIR from scripts/train_hygiene_head.py --loro-dir

For each round whose held-out head (head_without_<round>.npz) exists: among the labelled pairs main keeps (rules +
scalar pair model; before round 11: the rules)
(judged, from the 0.80 floor), how many restatements the head would merge and how many distinct pairs it would
merge at P(merge) >= t, and likewise changes retired vs restatements/distinct retired at P(change) >= t.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import train_hygiene_head as th  # noqa: E402

from hindsight.write.pair_head import CHANGE, KEEP, MERGE, PairHead, head_row  # noqa: E402
from hindsight.write.pair_model import shipped_model  # noqa: E402

#: rounds the shipped scalar pair model (write.pair_model) was not fitted on: its column is held out there too
SCALAR_UNSEEN = ("r9", "r9T1", "r10", "r10T1")

parser = argparse.ArgumentParser()
parser.add_argument("--cache", type=Path, required=True)
parser.add_argument("--loro-dir", type=Path, required=True)
parser.add_argument("--rounds", default=",".join(th.ROUNDS))
args = parser.parse_args()
d = th.load_data(args.cache)
out = {}
for rnd in args.rounds.split(","):
    head = PairHead.load(args.loro_dir / f"head_without_{rnd}.npz")
    if head is None:
        continue
    idx = np.where((d.rnd == rnd) & d.judged & (d.main == KEEP) & np.isin(d.kind, ("restatement", "change", "distinct")))[0]
    pu, pv = (d.U[idx] - head.centre) @ head.basis.T, (d.V[idx] - head.centre) @ head.basis.T
    F = np.vstack([head_row(d.X[i], int(d.rules[i]), d.model_p[i], KEEP, b) for i, b in zip(idx, np.hstack([pu * pv, np.abs(pu - pv)]))])
    kind = d.kind[idx]
    row: dict = {"main_keep": {k: int((kind == k).sum()) for k in ("restatement", "change", "distinct")}}
    scalar = shipped_model()
    models = {"head": head.probabilities(F)}
    if rnd in SCALAR_UNSEEN and scalar is not None and not scalar.aligned:
        models["scalar"] = scalar.probabilities(d.X[idx])
    for name, P in models.items():
        for t in (0.5, 0.7, 0.8, 0.9, 0.95, 0.99):
            m, c = P[:, MERGE] >= t, (P[:, CHANGE] >= t) & (P[:, MERGE] < t)
            row[f"{name} t={t}"] = {
                "merge: restatement/change/distinct": [int((m & (kind == k)).sum()) for k in ("restatement", "change", "distinct")],
                "change: change/restatement/distinct": [int((c & (kind == k)).sum()) for k in ("change", "restatement", "distinct")]}
    out[rnd] = row
    print(rnd, json.dumps(row), flush=True)
