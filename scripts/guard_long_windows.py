"""Long texts in the guard harness, read as the runtime reads them (issue 10, round 24).

Since round 23 (``hindsight.safety.long_text``) ``WriteGuard.screen`` reads a text of more than ``LONG_WORDS`` words
(its normalised form) as the runtime's sentence-aligned windows (``guard.long_text_windows``) of at most ``WINDOW_WORDS`` words: each
window is embedded alone (``classifier.embed_for_screening``: the C kernel's vector of the window's normalised text)
and featurised alone, and the text's score is its highest window's; the gate and the hard rules still read the whole
text. The harness fitted and scored one whole-text vector per text, so a candidate was fitted and measured on vectors
the runtime never gives it for a long text (guardfit23's 7,219-character benign step list).

Here each text becomes one *row* (a short text: its row as before) or one row per window (a long text), and

- **scoring** a text is the highest score of its rows (``text_scores``), as the runtime's ``_window_score``;
- **training** fits every window of a benign long text (each window is benign: the max must stay low on all of
  them), each at weight 1 / windows (the text weighs what it did); an attack long text fits only the window the
  shipped weights score highest (the window the runtime's max reads; its other windows may be benign prose).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import guard_lowo_fast as lf
import guard_model as gm
import numpy as np

from hindsight.safety import guard as gm_guard
from hindsight.safety.classifier import GuardClassifier
from hindsight.safety.long_text import is_long
from hindsight.safety.normalize import normalize_for_screening


@dataclass
class Rows:
    """The harness's rows: ``owner[r]`` is the text of row ``r``; ``fit[r]`` whether a fit may use the row;
    ``weight[r]`` its weight within its text (1 for a short text)."""

    owner: np.ndarray
    f: gm.Features
    fit: np.ndarray
    weight: np.ndarray

    def long_texts(self) -> tuple[int, int]:
        """(texts read as windows, their windows)."""
        counts = np.bincount(self.owner) if len(self.owner) else np.zeros(0, np.int64)
        return int(np.sum(counts > 1)), int(counts[counts > 1].sum())

    def take_texts(self, texts: np.ndarray, for_fit: bool) -> tuple[np.ndarray, gm.Features]:
        """Row mask of the texts in ``texts`` (a boolean mask over texts) and their features."""
        mask = texts[self.owner] & (self.fit if for_fit else True)
        return mask, self.f.take(mask)


def expand(redacted: list[str], normalised: list[str], f: gm.Features, y: np.ndarray, cache_dir: Path,
           pick: GuardClassifier | None = None) -> Rows:
    """Rows of ``f`` (one per text, as the harness built it) with every long text replaced by its windows."""
    long = [i for i, n in enumerate(normalised) if is_long(n)]
    parts = {i: gm_guard.long_text_windows(redacted[i]) for i in long}
    owner = np.concatenate([np.array([i]) if i not in parts else np.full(len(parts[i]), i)
                            for i in range(len(redacted))]).astype(np.int64) if redacted else np.zeros(0, np.int64)
    rows = gm.Features(f.raw[owner].copy(), f.norm[owner].copy(), f.lex[owner].copy(), f.gate[owner], f.hard[owner],
                       f.blind[owner], f.plain[owner])
    weight = np.ones(len(owner))
    fit = np.ones(len(owner), dtype=bool)
    if long:
        flat = [p for i in long for p in parts[i]]
        norm = [normalize_for_screening(p) for p in flat]
        vec = lf.embed(norm, lf.cache_path(cache_dir, "c"), "c")  # embed_for_screening: the C kernel, normalised
        lex = gm._structured_cached(norm, cache_dir)
        at = np.flatnonzero(np.isin(owner, long))  # owner is sorted: the windows in the order of ``flat``
        rows.raw[at], rows.norm[at], rows.lex[at, :lex.shape[1]] = vec, vec, lex
        shipped = pick or GuardClassifier.load()
        for i in long:
            mine = np.flatnonzero(owner == i)
            weight[mine] = 1.0 / len(mine)
            if y[i] > 0:  # an attack: only the window the runtime's max would read
                best = mine[int(np.argmax(gm.attack_prob(shipped, rows.raw[mine], rows.take(mine))))]
                fit[mine] = mine == best
                weight[best] = 1.0
    return Rows(owner, rows, fit, weight)


def one_row_each(f: gm.Features) -> Rows:
    """Rows of ``f`` with no text read as windows (the harness before round 24)."""
    n = len(f.raw)
    return Rows(np.arange(n), f, np.ones(n, dtype=bool), np.ones(n))


def with_lex(rows: Rows, lex: np.ndarray, base_columns: int) -> Rows:
    """``rows`` with a variant's structured matrix ``lex`` (per text): the base columns stay the rows' own (a
    window's features), any extra columns are the text's."""
    extra = lex[rows.owner, base_columns:]
    f = gm.Features(rows.f.raw, rows.f.norm, np.hstack([rows.f.lex, extra]).astype(np.float32), rows.f.gate,
                    rows.f.hard, rows.f.blind, rows.f.plain)
    return Rows(rows.owner, f, rows.fit, rows.weight)


def text_scores(row_scores: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """The score of each of ``n`` texts: the highest of its rows' (NaN for a text without rows)."""
    out = np.full(n, -np.inf)
    np.maximum.at(out, owner, row_scores)
    out[np.isneginf(out)] = np.nan
    return out
