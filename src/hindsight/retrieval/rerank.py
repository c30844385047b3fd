"""Pluggable rerank stage applied to the fused top candidates only.

The seed reranks 15 candidates for top_k 5: a cross-encoder costs ~100 ms per
50 pairs on CPU, so reranking everything would dominate latency.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from hindsight.errors import ProviderUnavailableError


class Reranker(ABC):
    """Scores (query, passage) pairs; higher is more relevant."""

    name: str = "reranker"

    @abstractmethod
    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage."""


class CrossEncoderReranker(Reranker):
    """sentence-transformers CrossEncoder (bge-reranker-base, ms-marco-MiniLM, or any local path)."""

    def __init__(self, model_name_or_path: str | None = None, model: object | None = None) -> None:
        if model is None:
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise ProviderUnavailableError(
                    "reranker 'cross-encoder:...' needs sentence-transformers: pip install 'hindsight-memory[st]'"
                ) from exc
            try:
                model = CrossEncoder(model_name_or_path)
            except Exception as exc:
                raise ProviderUnavailableError(
                    f"could not load cross-encoder '{model_name_or_path}': {exc}. Give a local directory or a cached model name."
                ) from exc
        self._model = model
        self.name = f"cross-encoder:{model_name_or_path or 'custom'}"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        scores = self._model.predict([(query, p) for p in passages])  # type: ignore[attr-defined]
        return [float(s) for s in scores]


def create_reranker(spec: str | None) -> Reranker | None:
    """`none` (default) or `cross-encoder:<name-or-path>`."""
    if not spec or spec == "none":
        return None
    if spec.startswith("cross-encoder:"):
        return CrossEncoderReranker(spec.split(":", 1)[1])
    raise ProviderUnavailableError(f"unknown reranker '{spec}': use none or cross-encoder:<model-or-path>")
