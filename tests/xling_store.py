"""A real engine holding Chinese and English memories exactly as written (hygiene off, reads not recorded)."""
from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine


def open_mixed(db: Path, embedder: Embedder, texts: list[str], start: datetime) -> tuple[MemoryEngine, dict[str, str],
                                                                                         HindsightSettings]:
    """Store `texts` an hour apart from `start`; returns the engine, text -> memory id, and its settings."""
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=embedder)
    engine.writer.hygiene = None  # every memory stays as written
    ids = {}
    for i, text in enumerate(texts):
        ids[text] = engine.store_memory({"content": text, "event_time": start + timedelta(hours=i)}).memory_id
    return engine, ids, settings


class SetCosine(Embedder):
    """Unit vectors at a set cosine to every question: each of `queries` embeds as the first axis, a text of `cos`
    at its cosine to it (any other text at 0.1). The pool logic is what a test of it checks, not the model."""

    name = "cosine-test"
    dim = 4

    def __init__(self, queries: Collection[str], cos: Mapping[str, float]) -> None:
        self.queries, self.cos = queries, cos

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in self.queries:
                out[row, 0] = 1.0
                continue
            c = self.cos.get(text, 0.1)
            out[row, 0], out[row, 1 + len(text) % 3] = c, math.sqrt(1 - c * c)
        return out
