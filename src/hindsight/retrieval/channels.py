"""The search's channels over one scope: dense, keyword, cross-lingual, gloss, translated and graph, each an
(id, score) list best first, and their weighted reciprocal-rank fusion.

Each channel applies the structured filters itself (through `Scope`), so a narrow filter never starves a channel
of candidates. `search.HybridRetriever` runs them once per scope it searches (`window_steps` may ask for a wider
one); this module never imports `search`.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from hindsight.config import RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.retrieval.crosslingual import (
    MIXED_KEYWORD_FACTOR,
    POOL_FACTOR,
    REFERENCE_DEPTH,
    bias_group,
    by_script,
    other_script,
)
from hindsight.retrieval.fusion import reciprocal_rank_fusion
from hindsight.retrieval.glossmatch import (
    TRANSLATED_MIN_POOL,
    ZH_QUERY_FACTOR,
    gloss_ranked,
    reverse_ranked,
    translated_ranked,
)
from hindsight.retrieval.rendered import rendered_ranked
from hindsight.storage.base import MemoryStore, Scope
from hindsight.text.tokenize import query_terms

Scored = dict[str, list[tuple[str, float]]]

#: a keyword hit scoring at most this matched only terms more than half the scope's memories hold (BM25's idf is
#: floored at keyword_stats.IDF_FLOOR, 1e-6, for them), yet rank fusion gives it a full vote by rank: on a small
#: mixed store "the user" echoes outvoted the dense channel's first choice (round 33). Read where the pool mixes
#: scripts only (the single-language path is unchanged).
KEYWORD_FLOOR = 1e-4


def weights(r: RetrievalSettings, mixed: bool = False, query_group: str = "en") -> dict[str, float]:
    """Channel weights; `mixed`: the dense pool spans both scripts (see crosslingual.MIXED_KEYWORD_FACTOR);
    `query_group`: the query's script group (a Chinese query's gloss votes weigh less, see glossmatch)."""
    keyword = r.keyword_weight * (MIXED_KEYWORD_FACTOR if mixed else 1.0)
    gloss = r.gloss_weight * (ZH_QUERY_FACTOR if query_group == "zh" else 1.0)
    return {"dense": r.dense_weight, "keyword": keyword, "graph": r.graph_weight,
            "crosslingual": r.crosslingual_weight, "gloss": gloss,
            "translated": r.translated_weight if query_group == "zh" else r.reverse_translated_weight,
            "rendered": r.rendered_weight if query_group == "zh" else r.reverse_rendered_weight}


def fuse(scored: Scored, text: str, r: RetrievalSettings) -> dict[str, float]:
    """The channels' weighted reciprocal-rank fusion, id -> score."""
    ranked = {name: [mid for mid, _ in hits] for name, hits in scored.items()}
    return reciprocal_rank_fusion(ranked, weights(r, mixed="crosslingual" in scored, query_group=bias_group(text)),
                                  k=r.rrf_k)


def run(store: MemoryStore, embedder: Embedder, r: RetrievalSettings, text: str, scope: Scope,
        enabled: Collection[str]) -> tuple[Scored, np.ndarray | None]:
    """Each enabled channel's (id, score) list, best first, and the query vector (None without dense)."""
    scored: Scored = {}
    vector = None
    if "dense" in enabled and r.dense_weight > 0:
        vector = embedder.embed_query(text)
        # the model ranks the query's own script first (a Chinese query buries English memories under every
        # Chinese one; an English query, less strongly, Chinese ones): ask for a deeper pool so the other
        # script's best are in it (for an English query only its cross-lingual lanes read past
        # dense_candidates, see _language_aware); the dense channel is cut back to dense_candidates
        depth = r.dense_candidates * (POOL_FACTOR if bias_group(text) == "zh" else r.crosslingual_pool_en)
        scored["dense"] = store.dense_search(scope, vector, depth)
    if "keyword" in enabled and r.keyword_weight > 0:
        scored["keyword"] = store.keyword_search(scope, query_terms(text), r.keyword_candidates, r.neighbour_weight)
    if "dense" in scored:
        pool = len(scored["dense"])
        mixed = _language_aware(store, r, text, scored, "crosslingual" in enabled and r.crosslingual_weight > 0,
                                "gloss" in enabled and r.gloss_weight > 0)
        scored["dense"] = scored["dense"][: r.dense_candidates]
        if mixed and "keyword" in scored:  # a hit matched only by terms most of the scope holds is no keyword vote
            scored["keyword"] = [(mid, score) for mid, score in scored["keyword"] if score > KEYWORD_FLOOR]
        zh = bias_group(text) == "zh"
        if (mixed and pool >= TRANSLATED_MIN_POOL and "translated" in enabled
                and (r.translated_weight if zh else r.reverse_translated_weight) > 0):
            scored["translated"] = (translated_ranked if zh else reverse_ranked)(
                text, lambda terms: store.keyword_search(scope, terms, r.keyword_candidates, r.neighbour_weight),
                lambda ids: {mid: rec.content for mid, rec in store.get_many(ids).items()})
        if mixed and pool >= TRANSLATED_MIN_POOL and "rendered" in enabled and weights(r, True, bias_group(text))[
                "rendered"] > 0:
            scored["rendered"] = rendered_ranked(
                text, embedder.embed_query, lambda v: store.dense_search(scope, v, r.dense_candidates),
                lambda ids: {mid: rec.content for mid, rec in store.get_many(ids).items()})
    if "graph" in enabled and r.graph_weight > 0:
        scored["graph"] = _graph_neighbours(store, scored, scope)
    return scored, vector


def _language_aware(store: MemoryStore, r: RetrievalSettings, text: str, scored: Scored, with_channel: bool,
                    with_gloss: bool = False) -> bool:
    """Rank the dense pool within each script and add the cross-lingual channel (see `crosslingual`) and
    the gloss channel over its hits (see `glossmatch`); whether the pool mixes scripts."""
    dense = scored.get("dense") or []
    if not dense:
        return False
    records = store.get_many([mid for mid, _ in dense])
    scripts = {mid: bias_group(rec.content) for mid, rec in records.items()}
    if len(set(scripts.values())) < 2:
        return False  # one language among the candidates: nothing to correct
    ranked = by_script(dense, scripts.get, favoured=bias_group(text))
    # an English query's deeper pool feeds the cross-lingual and gloss lanes only: its dense channel ranks the
    # usual dense_candidates (by script where they mix), so more Chinese memories never crowd that channel
    own = ranked if bias_group(text) == "zh" else dense[: r.dense_candidates]
    if own is not ranked and len({scripts.get(mid) for mid, _ in own}) > 1:
        own = by_script(own, scripts.get, favoured=bias_group(text))
    scored["dense"] = own
    other = other_script(text, ranked, scripts.get)
    if with_channel:
        scored["crosslingual"] = _thin_gate(text, ranked, other, scripts)[: r.dense_candidates]
    if with_gloss:
        scored["gloss"] = gloss_ranked(text, other, {mid: rec.content for mid, rec in records.items()})
    return True


def _thin_gate(text: str, ranked: list[tuple[str, float]], other: list[tuple[str, float]],
               scripts: dict[str, str]) -> list[tuple[str, float]]:
    """The cross-lingual lane's hits; where the pool holds fewer than REFERENCE_DEPTH of the query's own script (a
    small store: its level padded, see `by_script`), only those calibrated above the query script's best.

    The lane is the dense cosine again, read for the other script: it votes for every other-script memory by rank,
    where the keyword channel votes for an own-script memory only when words match. In a large pool that vote is
    what lets a cross-script answer through; in a small one it lifted every other-script memory over a lone
    own-script answer nothing else voted for (round 33: "which package manager should I use?" ranked the pnpm
    memory last of 4 under three unrelated Chinese memories, each counted by both lanes)."""
    group = bias_group(text)
    own = [score for mid, score in ranked if scripts.get(mid) == group]
    if not own or len(own) >= REFERENCE_DEPTH:
        return other
    return [(mid, score) for mid, score in other if score > max(own)]


def _graph_neighbours(store: MemoryStore, scored: Scored, scope: Scope) -> list[tuple[str, float]]:
    """Neighbours of the strongest hits, scored by how many strong hits point at them."""
    seeds = list(dict.fromkeys(mid for hits in scored.values() for mid, _ in hits[:5]))
    votes: dict[str, int] = {}
    for edge in store.edges(seeds):
        for node in (edge.src, edge.dst):
            if node not in seeds:
                votes[node] = votes.get(node, 0) + 1
    if not votes:
        return []
    visible = store.get_many(list(votes))
    allowed = {mid for mid, rec in visible.items() if rec.namespace == scope.namespace and rec.status in scope.statuses}
    return sorted(((mid, float(votes[mid])) for mid in votes if mid in allowed), key=lambda item: -item[1])
