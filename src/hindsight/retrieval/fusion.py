"""Reciprocal rank fusion: combines channels by rank, so their score scales never need calibrating."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from hindsight.read_model import SearchHit

Hit = TypeVar("Hit", bound=SearchHit)


def reciprocal_rank_fusion(
    channels: Mapping[str, Sequence[str]], weights: Mapping[str, float], k: int = 60
) -> dict[str, float]:
    """Return id -> sum over channels of weight / (k + rank), rank starting at 1.

    Normalised by the best possible score (rank 1 in every weighted channel), so
    fused scores lie in [0, 1] and mean the same thing whatever channels ran.
    """
    fused: dict[str, float] = {}
    for name, ranked_ids in channels.items():
        weight = weights.get(name, 1.0)
        if weight <= 0:
            continue
        for rank, memory_id in enumerate(ranked_ids, start=1):
            fused[memory_id] = fused.get(memory_id, 0.0) + weight / (k + rank)
    best = sum(weights.get(name, 1.0) / (k + 1) for name, ids in channels.items() if ids and weights.get(name, 1.0) > 0)
    if best > 0:
        fused = {memory_id: score / best for memory_id, score in fused.items()}
    return fused


def keep_dense_best(hits: list[Hit], top_k: int, depth: int) -> list[Hit]:
    """`hits` with the dense channel's best (`why.dense_rank` <= `depth`) moved up to the last places of the first
    `top_k` when fusion left them below it; everything else keeps its order. The fused first hit always stays
    first (a `top_k` of 1 keeps the fused order).

    Rank fusion counts votes: a memory that paraphrases the question shares none of its words, so the keyword
    channel never votes for it, while memories echoing one or two of the question's words collect a keyword vote
    and a middling dense one and outscore the dense channel's first choice (issue 10, round 10: English paraphrase
    misses with the answer at dense rank 1 and four or five keyword-led hits above it)."""
    if depth <= 0 or top_k < 2 or len(hits) <= top_k:
        return hits
    late = [hit for hit in hits[top_k:] if hit.why.dense_rank is not None and hit.why.dense_rank <= depth]
    late = late[: top_k - 1]
    if not late:
        return hits
    moved = {id(hit) for hit in late}
    head = hits[: top_k - len(late)]
    kept = {id(hit) for hit in head}
    return head + late + [hit for hit in hits if id(hit) not in kept and id(hit) not in moved]
