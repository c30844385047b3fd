"""Query understanding: time windows, memory-type cues, exact phrases and names.

``parse_query("what went wrong with the migration last week?", now)`` turns a
free-text question (English, Chinese or mixed) into structured hints the
retrieval engine can use as filters or boosts:

* a time window ``[time_from, time_to)`` with ``time_is_hard`` telling whether
  the query clearly restricts time ("last week", "上周") or only leans that way
  ("recently", "最近"), which should be a soft boost;
* memory types cued by words such as "pitfalls" / "踩过的坑" (warning) or
  "preferences" / "偏好" (semantic), with ``type_is_hard`` only for the few
  unambiguous cues, because a wrong type filter silently kills recall;
* exact phrases (quoted text, error codes, identifiers, paths) for exact-match
  boosts, and capitalised English names (jieba ``nr`` tags for Chinese);
* the residual text with the time expression cut out, for embedding and BM25
  (the words "last week" say nothing about the content being looked for).

Design notes (why it looks like this):

* Everything is regex-first. Each rule only fires on a span that is clearly a
  time expression (a month name needs a day, a year or a preposition, so
  "I may go" and "March on" stay ordinary text). ``dateparser`` is far too
  eager on ordinary words and costs milliseconds, so it is only consulted for
  purely numeric dates such as ``05/08/2023`` that a pattern already found,
  with its results cached.
* Calendar arithmetic is done in the time zone of ``now`` (so "today" means
  the caller's day when it passes a local ``now``) and the results are
  returned in UTC. Windows are half-open: ``time_from <= t < time_to``.
* Rolling windows ("the past 3 days", "最近一周", "recently") end at ``now``.
  Calendar windows ("last week", "上个月") end at the end of the period.
* Overlapping matches are resolved longest-first, so "the day before
  yesterday" beats "yesterday" and "上周一" beats "上周". Future expressions
  ("next week", "明天", "下周一") are recognised only to stop their pieces from
  matching; they yield no filter, since memories are about the past.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise

from hindsight.field_rules import MAX_TIME, MIN_TIME
from hindsight.model import MemoryType
from hindsight.retrieval.understanding import time_en, time_en_dates, time_zh  # noqa: F401  (importing registers their rules, in this order)
from hindsight.retrieval.understanding.cues import _types
from hindsight.retrieval.understanding.dates import _REJECT, _Ctx, _Range
from hindsight.retrieval.understanding.modifiers import _apply_modifier, _modifier
from hindsight.retrieval.understanding.names import _CJK_RUN_RE, _en_names, _zh_names
from hindsight.retrieval.understanding.phrases import _phrases, _resolve
from hindsight.retrieval.understanding.registry import _RULES
from hindsight.text.script import HAN_EXTENDED

__all__ = ["ParsedQuery", "parse_query", "warm_up"]


@dataclass
class ParsedQuery:
    """What :func:`parse_query` understood about a query.

    Attributes:
        text: the query after Unicode (NFKC) and whitespace normalisation.
        residual: ``text`` without the time expression(s) and their
            prepositions, for embedding / BM25. Never empty for a non-empty
            query: falls back to ``text`` when nothing meaningful is left.
        time_from: inclusive start of the time window (UTC), or ``None`` for
            unbounded (e.g. "before 2023").
        time_to: exclusive end of the window (UTC), or ``None``.
        time_expression: the matched text, e.g. ``"last week"``; several
            expressions are reported as the text spanning them ("May and
            July 2023") or joined with ", ".
        time_is_hard: ``True`` when the query clearly restricts time and the
            window may be used as a filter; ``False`` for vague expressions
            ("recently", "a few days ago") that should only boost.
        types: memory types cued by the wording, in order of appearance.
        type_is_hard: ``True`` only for unambiguous cues ("pitfalls",
            "preferences", "踩过的坑", "偏好"); otherwise use ``types`` as a boost.
        phrases: quoted phrases and exact identifiers (error codes, CamelCase
            or snake_case identifiers, paths, URLs, versions), in text order.
        names: capitalised English names and Chinese person names (heuristic).
    """

    text: str
    residual: str
    time_from: datetime | None = None
    time_to: datetime | None = None
    time_expression: str | None = None
    time_is_hard: bool = False
    types: list[MemoryType] = field(default_factory=list)
    type_is_hard: bool = False
    phrases: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @property
    def has_time(self) -> bool:
        """Whether a time window was found (either bound may still be ``None``)."""
        return self.time_expression is not None

    @property
    def is_empty(self) -> bool:
        """Nothing structured was found: no time, types, phrases or names."""
        return not (self.has_time or self.types or self.phrases or self.names)



_CONNECTOR_RE = re.compile(r"^\s*(?:and|to|until|till|through|thru|or|-|–|—|~|至|到|和|或)\s*$", re.IGNORECASE)
_MARK = "\x00"
_RESIDUAL_CLEAN_RES = [
    (re.compile(_MARK + r"\s*(?:and|to|until|till|through|or|-|–|—|~|至|到|和|或)\s*" + _MARK, re.IGNORECASE), _MARK),
    (
        re.compile(
            r"\b(?:between|from|since|after|before|until|till|prior\s+to|up\s+to|as\s+of|in|on|during|at|of|"
            r"back\s+in|around|throughout|within|over|for)\s+(?:the\s+)?" + _MARK,
            re.IGNORECASE,
        ),
        _MARK,
    ),
    (re.compile(r"(?:自从|自|从|在|于)\s*" + _MARK), _MARK),
    (re.compile(rf"(?<=[{HAN_EXTENDED}])\s*" + _MARK + rf"\s*(?=[{HAN_EXTENDED}])"), ""),
    (re.compile(_MARK), " "),
    (re.compile(r"\s+([?？!！,，.。;；:：])"), r"\1"),
    (re.compile(r"([,，;；:：])(?=\s*[?？!！.。]|\s*$)"), ""),
    (re.compile(r"^\s*[,，;；:：的]+\s*"), ""),
    (re.compile(r"\s{2,}"), " "),
]
_HAS_WORD_RE = re.compile(r"[^\W_]")


def _residual(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for s, e in spans:
        parts.append(text[last:s])
        parts.append(_MARK)
        last = e
    parts.append(text[last:])
    out = "".join(parts)
    for pattern, repl in _RESIDUAL_CLEAN_RES:
        out = pattern.sub(repl, out)
    out = out.strip()
    return out if _HAS_WORD_RE.search(out) else text


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _context(now: datetime) -> _Ctx:
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    tz = now.tzinfo
    assert tz is not None
    return _Ctx(now=now, tz=tz, today=now.date())


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _find_time(text: str, ctx: _Ctx) -> list[tuple[int, int, _Range | None]]:
    cands: list[tuple[int, int, object]] = []
    for pattern, handler in _RULES:
        for m in pattern.finditer(text):
            try:
                result = handler(m, ctx)
            except (OverflowError, ValueError):  # a date no datetime holds ("12/31/9999" + a day): not a window
                continue
            if result is _REJECT:
                continue
            cands.append((m.start(), m.end(), result))
    return [(s, e, v) for s, e, v in _resolve(cands)]  # type: ignore[misc]


MAX_ANALYSED_CHARS = 1000
"""Longest prefix of a query that :func:`parse_query` analyses."""


def parse_query(text: str, now: datetime) -> ParsedQuery:
    """Parse ``text`` relative to ``now`` into a :class:`ParsedQuery`.

    ``now`` should be timezone-aware (naive is taken as UTC); calendar
    boundaries ("today", "last week") are computed in ``now``'s time zone and
    returned in UTC. Weeks start on Monday. Never raises on odd input; an
    unparseable query simply yields an empty result with ``residual == text``.

    Only the first :data:`MAX_ANALYSED_CHARS` characters are analysed (a query
    is short; a pasted document should not cost seconds); the rest is kept
    verbatim in ``residual``.
    """
    full = _normalise(text)
    norm, tail = full[:MAX_ANALYSED_CHARS], full[MAX_ANALYSED_CHARS:]
    ctx = _context(now)
    found = _find_time(norm, ctx)
    windows = [(s, e, r) for s, e, r in found if r is not None]

    result = ParsedQuery(text=full, residual=full)
    ranges: list[_Range] = []
    spans: list[tuple[int, int, object]] = []
    for s, e, r in windows:
        kind, s2, e2 = _modifier(norm, s, e, len(windows) > 1)
        try:
            modified = _apply_modifier(kind, r, ctx)
            bounds = (_utc(modified[0]), _utc(modified[1]))
        except (OverflowError, ValueError):  # "since 1/1/0001" in a time zone east of UTC: no window
            continue
        if not all(b is None or MIN_TIME <= b <= MAX_TIME for b in bounds):
            continue  # a window outside the times a memory may carry filters nothing (model.check_time)
        if modified[0] is not None and modified[1] is not None and modified[0] > modified[1]:
            continue  # "after this week" lies entirely in the future: no window
        ranges.append(modified)
        spans.append((s2, e2, r))
    if ranges:
        hard_ranges = [r for r in ranges if r[2]]
        use = hard_ranges or ranges
        starts = [r[0] for r in use]
        ends = [r[1] for r in use]
        result.time_from = None if any(v is None for v in starts) else _utc(min(v for v in starts if v))
        result.time_to = None if any(v is None for v in ends) else _utc(max(v for v in ends if v))
        result.time_is_hard = bool(hard_ranges)
        result.time_expression = _expression_text(norm, spans)
        result.residual = _residual(norm, [(s, e) for s, e, _ in spans]) + tail
    blocked = [(s, e) for s, e, _ in found]
    result.types, result.type_is_hard = _types(norm)
    result.phrases = _phrases(norm, blocked)
    names = _en_names(norm, blocked)
    if _CJK_RUN_RE.search(norm):
        names.extend(_zh_names(norm))
    result.names = list(dict.fromkeys(names))
    return result


def _expression_text(text: str, windows: list[tuple[int, int, object]]) -> str:
    """The matched text; adjacent expressions joined by a connector are reported as one span."""
    if len(windows) == 1:
        s, e, _ = windows[0]
        return text[s:e]
    gaps_ok = all(_CONNECTOR_RE.match(text[a[1] : b[0]]) for a, b in pairwise(windows))
    if gaps_ok:
        return text[windows[0][0] : windows[-1][1]]
    return ", ".join(text[s:e] for s, e, _ in windows)


def warm_up() -> None:
    """Pay the one-off costs now (server start) rather than on the first query.

    jieba's dictionary and POS model (~0.8 s), cn2an (~0.1 s) and dateparser
    (~0.2 s) are loaded lazily; this touches each of them once.
    """
    now = datetime.now(UTC)
    for sample in ("张伟上周说了什么", "三个月前", "12/25/2025", "What did Caroline do last week?"):
        parse_query(sample, now)
