"""Reciprocal rank fusion: combines channels by rank, so their score scales never need calibrating."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


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
