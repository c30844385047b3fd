"""Memories about a named time but written outside it.

A query's hard time window becomes a filter on when memories were written, padded a few days either side
(`time_filter_pad_*_days`). People tell of events long after them ("last month I went to a convention", written
18 April, is about March) and ahead of them (a plan for next month). For such a query the channels also run
without the time filter; a hit written outside the padded filter is admitted when its own text names a time
that, read from the moment it was written, overlaps the window the query names. Only texts with a time word
are parsed (`turn_features.names_time`), and only the best `depth` hits of each channel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from hindsight.model import MemoryRecord
from hindsight.retrieval.query_parser import ParsedQuery, parse_query
from hindsight.retrieval.turn_features import names_time, own_text
from hindsight.storage.base import Scope

CHANNELS = ("dense", "keyword")


def applies(parsed: ParsedQuery | None, scope: Scope, narrowed: Scope) -> bool:
    """The query's hard window became the time filter (nothing the caller set)."""
    return (parsed is not None and parsed.time_is_hard
            and (narrowed.time_from, narrowed.time_to) != (scope.time_from, scope.time_to))


def _inside(when: datetime, narrowed: Scope) -> bool:
    return ((narrowed.time_from is None or when >= narrowed.time_from)
            and (narrowed.time_to is None or when <= narrowed.time_to))


def told_time(record: MemoryRecord) -> tuple[datetime | None, datetime | None]:
    """The window the memory's own text names, read from when it was written; (None, None) when it names none."""
    text = own_text(record.content)
    if not names_time(text):
        return None, None
    parsed = parse_query(text, record.reference_time)
    return parsed.time_from, parsed.time_to


def overlaps(window: tuple[datetime | None, datetime | None], parsed: ParsedQuery) -> bool:
    start, end = window
    if start is None and end is None:
        return False
    start = start or end
    end = end or start
    assert start is not None and end is not None
    return ((parsed.time_to is None or start <= parsed.time_to)
            and (parsed.time_from is None or end >= parsed.time_from))


def admit(parsed: ParsedQuery, narrowed: Scope, wide: dict[str, list[tuple[str, float]]],
          read: Callable[[Iterable[str]], dict[str, MemoryRecord]], depth: int) -> set[str]:
    """Ids among the best `depth` of each channel in `wide` (run without the time filter) written outside the
    padded filter whose text names a time overlapping the query's window."""
    ids = list(dict.fromkeys(mid for name in CHANNELS for mid, _ in (wide.get(name) or [])[:depth]))
    records = read(ids) if ids else {}
    return {mid for mid, record in records.items()
            if not _inside(record.reference_time, narrowed) and overlaps(told_time(record), parsed)}


def merge(scored: dict[str, list[tuple[str, float]]], wide: dict[str, list[tuple[str, float]]],
          admitted: set[str]) -> dict[str, list[tuple[str, float]]]:
    """Each channel's hits with the admitted ones of the same channel merged in by score (scores of one channel
    are comparable with or without the filter: a cosine, a BM25 sum)."""
    if not admitted:
        return scored
    out = dict(scored)
    for name in CHANNELS:
        extra = [(mid, score) for mid, score in wide.get(name) or [] if mid in admitted]
        if extra:
            have = {mid for mid, _ in scored.get(name) or []}
            merged = list(scored.get(name) or []) + [hit for hit in extra if hit[0] not in have]
            out[name] = sorted(merged, key=lambda hit: -hit[1])
    return out
