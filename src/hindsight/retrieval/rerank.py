"""Pluggable rerank stage applied to the fused top candidates only.

The seed reranks 15 candidates for top_k 5: a cross-encoder costs ~100 ms per
50 pairs on CPU, so reranking everything would dominate latency.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence

from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import extra_hint
from hindsight.llm import LLMClient


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
                    "reranker 'cross-encoder:...' needs sentence-transformers: " + extra_hint("st")
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
        scores = self._model.predict([(query, p) for p in passages])  # type: ignore[attr-defined,union-attr]
        return [float(s) for s in scores]


class LLMListwiseReranker(Reranker):
    """Asks an OpenAI-compatible chat model to order the candidates (one call for the whole list).

    Scores are descending ranks mapped to (0, 1]; candidates the model leaves out keep their fused order
    below the ones it ranked. On any failure the scores follow the fused order, so search still answers.
    """

    name = "llm-listwise"
    SYSTEM = ("You rank memories by how well they answer a query. Reply with the numbers of the memories, "
              "most relevant first, comma-separated, and nothing else.")

    def __init__(self, llm: LLMClient) -> None:
        self.llm = llm

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        n = len(passages)
        if n == 0:
            return []
        listing = "\n".join(f"[{i + 1}] {p[:500]}" for i, p in enumerate(passages))
        answer = self.llm.complete(self.SYSTEM, f"Query: {query}\n\nMemories:\n{listing}", max_tokens=200)
        order: list[int] = []
        for token in re.findall(r"\d+", answer or ""):
            index = int(token) - 1
            if 0 <= index < n and index not in order:
                order.append(index)
        order += [i for i in range(n) if i not in order]  # unranked (or all, on failure) keep fused order
        scores = [0.0] * n
        for position, index in enumerate(order):
            scores[index] = 4.0 * (1.0 - position / n)  # logits for the engine's sigmoid: 4 .. >0
        return scores


def create_reranker(spec: str | None, llm: LLMClient | None = None) -> Reranker | None:
    """`none` (default), `cross-encoder:<name-or-path>`, or `llm` (the configured chat endpoint)."""
    if not spec or spec == "none":
        return None
    if spec.startswith("cross-encoder:"):
        return CrossEncoderReranker(spec.split(":", 1)[1])
    if spec == "llm":
        if llm is None:
            raise ProviderUnavailableError("reranker 'llm' needs HINDSIGHT_LLM_URL and HINDSIGHT_LLM_MODEL")
        return LLMListwiseReranker(llm)
    raise ProviderUnavailableError(f"unknown reranker '{spec}': use none, llm or cross-encoder:<model-or-path>")
