"""The vectors the hygiene judge reads: what each record asserts (`fact_vectors`), and the query-side embeddings of
a close pair whose cosine the restatement model and the pair head read (`query_vectors`, `query_similarity`).
Split out of `hygiene` (round 20): the checker decides, this module embeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hindsight.embeddings.base import VectorLRU
from hindsight.model import MemoryRecord
from hindsight.write.thresholds import HygieneThresholds


class FactVectorCache(VectorLRU):
    """A small LRU of fact vectors by text: consecutive turns of a conversation meet the same candidates."""

    def __init__(self, max_entries: int = 4096) -> None:
        super().__init__(max_entries)


def fact_vectors(embedder: Any, records: Sequence[MemoryRecord], stored: dict[str, np.ndarray],
                 cache: FactVectorCache | None = None) -> np.ndarray:
    """Unit vectors of what each record asserts, one row per record.

    A stored vector serves when it is a vector of the fact; a record indexed with its
    session's preceding turns (or with no stored vector) is embedded again from `fact_text`,
    in one batch (texts already in `cache` are not embedded again).
    """
    fresh: dict[str, np.ndarray] = {}
    redo = []
    for r in records:
        if r.has_session_context or r.id not in stored:
            hit = cache.get(r.fact_text) if cache is not None else None
            if hit is not None:
                fresh[r.id] = hit
            else:
                redo.append(r)
    if redo:
        for r, vector in zip(redo, embedder.embed_documents([r.fact_text for r in redo])):
            fresh[r.id] = vector
            if cache is not None:
                cache.put(r.fact_text, vector)
    matrix = np.vstack([np.asarray(fresh.get(r.id, stored.get(r.id)), dtype=np.float32) for r in records])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def query_vectors(embedder: Any | None, thresholds: HygieneThresholds, old_text: str,
                  new_text: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The two texts' query-side embeddings, only when a restatement model will read their cosine.

    Two extra embeddings per close pair; the embedder's LRU cache absorbs repeats.
    """
    if thresholds.restatement is None or embedder is None:
        return None
    return np.asarray(embedder.embed_query(old_text)), np.asarray(embedder.embed_query(new_text))


def query_similarity(embedder: Any | None, thresholds: HygieneThresholds, old_text: str, new_text: str) -> float | None:
    """Cosine of the two texts' query-side embeddings (`query_vectors`), or None."""
    vectors = query_vectors(embedder, thresholds, old_text, new_text)
    return None if vectors is None else float(vectors[0] @ vectors[1])
