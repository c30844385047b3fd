"""Currency round 15: one leave-one-round-out pass of the pair model's recipe (train_hygiene_pairs.out_of_fold: each released round and
each own-pair hash fold predicted by a model fitted without it, L2 0.01), thresholds fixed at 0.99 / 0.99 (what every
earlier fold and shipped fit chose), the write path's decision (`judged`: the rules' verdicts, the KEEP_VETO, keep
under the floor); per-round rates. ENDING_COL=1 appends the ending column (`endings.ends_anew`).

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python bench/currency15_pair_loro.py VEC.npz OUT.json   # without
    ENDING_COL=1 ... bench/currency15_pair_loro.py VEC.npz OUT.json                                         # with
"""
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import train_hygiene_pairs as T  # noqa: E402

from hindsight.write.endings import ends_anew  # noqa: E402

T.CACHE[0] = cache = Path(sys.argv[1])
rows = T.pairs()
X = T.featurise(rows, cache)
if os.environ.get("ENDING_COL") == "1":
    X = np.hstack([X, np.array([[float(ends_anew(r["old"], r["new"]) is not None)] for r in rows])])
for r, code in zip(rows, T.old_judge(rows, cache)):
    r["rules"] = int(code)
y = np.array([r["y"] for r in rows])
keep = np.array([r["cosine"] >= T.FLOOR for r in rows])
rj = [r for r, k in zip(rows, keep) if k]
P = T.out_of_fold(X[keep], y[keep], rj, 0.01)
np.save(sys.argv[2] + ".P.npy", P)
pred = T.judged(P, rj, 0.99, 0.99)
rnd = np.array([r["round"] for r in rj])
out = {g: T.rates(pred[rnd == g], [r for r, m in zip(rj, rnd == g) if m]) for g in sorted(set(rnd.tolist()))}
out["all_blind"] = T.rates(pred[rnd != "own"], [r for r, m in zip(rj, rnd != "own") if m])
json.dump(out, open(sys.argv[2], "w"), indent=1)
