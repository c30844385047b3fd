"""Deterministic bag vectors for tests of search logic (not of the model): characters or words hashed into buckets."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from hindsight.embeddings.base import Embedder


class BagEmbedder(Embedder):
    """Each lower-cased character (`words=False`) or word (`words=True`) adds 1 to its bucket; rows unit length."""

    def __init__(self, words: bool = False, dim: int = 64) -> None:
        super().__init__()
        self.words = words
        self.dim = dim
        self.name = "words-test" if words else "bag-test"

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        out = np.full((len(texts), self.dim), 1e-3, dtype=np.float32)
        for row, text in enumerate(texts):
            units = re.findall(r"[a-z]+", text.lower()) if self.words else list(text.lower())
            for unit in units:
                out[row, (sum(map(ord, unit)) if self.words else ord(unit)) % self.dim] += 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)
