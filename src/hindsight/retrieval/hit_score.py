"""One search hit's score and its explanation (split out of `search.py` in round 43, tidy43).

`score_hit` reads a memory's place in each channel, its fused and rerank scores, the priors (importance, decay,
access, credibility, status) and the soft boosts of query understanding (`boost`) into an `Explanation`, and the
`SearchHit` whose score is `why.final`.
"""

from __future__ import annotations

import math
from datetime import datetime

from hindsight.config import HindsightSettings
from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.query_parser import ParsedQuery
from hindsight.retrieval.scoring import (
    SUNK,
    access_factor,
    decay_score,
    is_sunk,
    status_factor,
    time_decay,
)

# Boosts for query understanding: modest, so they reorder near-ties rather than override relevance.
SOFT_TIME_BOOST = 1.15
PHRASE_BOOST = 1.10


def score_hit(
    record: MemoryRecord,
    scored: dict[str, list[tuple[str, float]]],
    fused: float,
    rerank_score: float | None,
    parsed: ParsedQuery | None,
    now: datetime,
    settings: HindsightSettings,
    *,
    reranked: bool,
    use_priors: bool,
) -> SearchHit:
    """The hit of ``record``: ``reranked`` when the search has a reranker (a candidate outside its pool is kept
    below the reranked ones), ``use_priors`` to blend the priors in (`SearchOptions.use_priors`)."""
    why = Explanation(fused=round(fused, 6))
    for channel, hits in scored.items():
        for rank, (mid, channel_score) in enumerate(hits, start=1):
            if mid == record.id:
                setattr(why, f"{channel}_rank", rank)
                if channel in ("dense", "keyword"):
                    setattr(why, f"{channel}_score", round(channel_score, 6))
                break
    relevance = fused
    if rerank_score is not None:
        why.rerank_score = rerank_score
        relevance = 1.0 / (1.0 + math.exp(-rerank_score))
    elif reranked:
        relevance *= 0.5  # outside the reranked pool: keep below reranked candidates
    why.relevance = relevance

    r = settings.retrieval
    why.decay_score = round(decay_score(record, now, settings.decay), 6)
    why.sunk = is_sunk(record, now, settings.decay, r.sink_below)
    why.status_factor = status_factor(record.status, r.sink_factor, why.sunk, r.sunk_factor)
    why.importance = record.importance
    why.credibility = record.credibility
    why.decay = time_decay(record, now, settings.decay)
    why.access_factor = access_factor(record.access_count)
    prior = why.importance * why.decay * why.access_factor * why.credibility
    blend = (1.0 - r.prior_weight) + r.prior_weight * prior if use_priors else 1.0
    why.time_boost = boost(record, parsed)
    why.final = relevance * blend * why.status_factor * why.time_boost
    return SearchHit(memory=record, score=why.final, why=why, flags=[SUNK] if why.sunk else [])


def boost(record: MemoryRecord, parsed: ParsedQuery | None) -> float:
    """Soft boosts from query understanding: in the named time window, or containing a quoted phrase."""
    if parsed is None:
        return 1.0
    factor = 1.0
    if parsed.time_from is not None or parsed.time_to is not None:
        when = record.reference_time
        if (parsed.time_from is None or when >= parsed.time_from) and (parsed.time_to is None or when <= parsed.time_to):
            factor *= SOFT_TIME_BOOST
    lowered = record.content.lower()
    for phrase in [*parsed.phrases, *parsed.names]:
        if phrase and phrase.lower() in lowered:
            factor *= PHRASE_BOOST
    return factor
