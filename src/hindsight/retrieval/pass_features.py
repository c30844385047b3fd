"""What the second retrieval step reads of the first pass (`FirstPass`) and the candidate features it derives from
text, time and sessions (see `second_pass.FEATURES`): a chat turn's speaker, its particular words and those it
shares with the best hits, its distance from the query's time window, and its session's share of the first pass.
Split from `second_pass.py`; it imports nothing of it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from hindsight.model import MemoryRecord
from hindsight.retrieval.query_parser import ParsedQuery
from hindsight.storage.base import Scope


@dataclass
class FirstPass:
    """What the first pass produced, as the second step needs it."""

    fused: dict[str, float]  # id -> fused score in [0, 1]
    records: dict[str, MemoryRecord]
    scored: dict[str, list[tuple[str, float]]]  # channel -> (id, score) best first
    vector: np.ndarray | None  # the query vector (None when the dense channel did not run)
    parsed: ParsedQuery | None
    scope: Scope
    #: a widened time filter's own memories, ranked first (retrieval/time_window.py); None when not widened so
    held: frozenset[str] | None = None

    @property
    def order(self) -> list[str]:
        return sorted((mid for mid in self.fused if mid in self.records), key=lambda mid: -self.fused[mid])



_SPEAKER = re.compile(r"^\s*([^\W\d_][\w .'-]{0,40}?)\s*[:：]")
_WORD = re.compile(r"[^\W\d_]{4,}")
#: a word found in more than this share of the pool says nothing about one candidate
COMMON_SHARE = 0.25
WORDS_READ = 2000


def turn_speaker(content: str) -> str | None:
    """The name before a leading 'Name:' (a chat turn's speaker), lower-cased; None when there is none."""
    match = _SPEAKER.match(content)
    return match.group(1).strip().lower() if match else None


def content_words(content: str) -> set[str]:
    """Lower-cased words of 4+ letters after any speaker prefix (the first WORDS_READ characters: a long memory's
    particulars are in its opening, and the cost stays bounded)."""
    match = _SPEAKER.match(content)
    return set(_WORD.findall((content[match.end():] if match else content)[:WORDS_READ].lower()))


def hit_terms(first: FirstPass, ids: list[str], words: dict[str, set[str]], hits: list[str]) -> dict[str, float]:
    """Share of the words of the best hits (other than the candidate) that the candidate also uses.

    Words of the query and words common in the pool are left out, so what is left are the particulars the
    best hits talk about (a place, an object, an activity): a turn elsewhere that names them is likely about
    the same event (multi-hop evidence sits in several sessions).
    """
    counts: dict[str, int] = {}
    for mid in ids:
        for w in words[mid]:
            counts[w] = counts.get(w, 0) + 1
    limit = max(2.0, COMMON_SHARE * len(ids))
    query = content_words(first.parsed.residual) if first.parsed else set()
    particular = {mid: {w for w in words.get(mid) or content_words(first.records[mid].content)
                        if counts.get(w, 0) <= limit and w not in query} for mid in hits}
    out = {}
    for mid in ids:
        terms = set().union(*(t for h, t in particular.items() if h != mid))
        out[mid] = len(terms & words[mid]) / len(terms) if terms else 0.0
    return out


def time_gap(when: datetime, start: datetime | None, end: datetime | None) -> float:
    """log(1 + days) between a memory's time and the query's window (0 inside it)."""
    days = 0.0
    if start is not None and when < start:
        days = (start - when).total_seconds() / 86400
    elif end is not None and when >= end:
        days = (when - end).total_seconds() / 86400
    return math.log1p(days)


@dataclass
class Sessions:
    """Session-level aggregates of the first pass: a session whose several turns score well lifts its others."""

    mass: dict[str, float]
    total: float
    rank: dict[str, int]
    best_cosine: dict[str, list[float]]

    def row(self, sid: str | None, fused: float, cosine: float) -> list[float]:
        """`fused`: the candidate's own share of its session's mass (0 when it came from outside the pool)."""
        if not sid:
            return [0.0, 0.0, 0.0]
        others = list(self.best_cosine.get(sid, []))
        if cosine in others:
            others.remove(cosine)
        mass = self.mass.get(sid, 0.0) - fused
        return [max(0.0, mass) / (self.total or 1.0), 1.0 / self.rank[sid] if sid in self.rank else 0.0,
                max(others, default=0.0)]


def session_stats(first: FirstPass, base: list[str], records: dict[str, MemoryRecord],
              cosine: dict[str, float]) -> Sessions:
    mass: dict[str, float] = {}
    for mid in base:
        sid = first.records[mid].session_id
        if sid:
            mass[sid] = mass.get(sid, 0.0) + first.fused[mid]
    best = sorted(mass, key=lambda sid: -mass[sid])
    by_session: dict[str, list[float]] = {}
    for mid, record in records.items():
        if record.session_id:
            by_session.setdefault(record.session_id, []).append(cosine.get(mid, 0.0))
    return Sessions(mass, sum(first.fused[mid] for mid in base), {sid: i for i, sid in enumerate(best, start=1)},
                     by_session)
