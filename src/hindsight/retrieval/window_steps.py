"""The time-window steps of a search's first pass: a parsed filter narrows the scope, widens when it holds too
little, and each hit says so.

`narrow` turns a hard time/type expression into a filter (the time window padded a few days either side);
`widen` runs the channels over the whole scope when the window holds none of the strong text matches
(`time_window.strong_outside`), admits memories by the time they tell (`event_time`), and widens a filter that
matched fewer distinct memories than `result_depth` (or keeps a window that matched fewer than `top_k` first,
`time_window.fill`); `filter_notes` writes `why.time_filter*` / `in_time_filter` / `type_filter_widened` on each hit.
The search itself (`search.HybridRetriever`) passes its channels and fusion in, so this module never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from hindsight.config import RetrievalSettings
from hindsight.model import MemoryRecord
from hindsight.read_model import SearchHit
from hindsight.retrieval import event_time, time_window
from hindsight.retrieval.query_parser import ParsedQuery
from hindsight.storage.base import Scope

Scored = dict[str, list[tuple[str, float]]]


@dataclass
class Widened:
    """What the window steps leave for fusion: each channel's list, their fusion, the scope searched, the window's
    ids when it keeps its memories first (`time_window.fill`), and whether a parsed filter was widened."""

    scored: Scored
    fused: dict[str, float]
    searched: Scope
    held: frozenset[str] | None
    widened: bool


def narrow(scope: Scope, parsed: ParsedQuery | None, r: RetrievalSettings) -> Scope:
    """Turn hard time/type expressions into filters unless the caller already set them."""
    if parsed is None:
        return scope
    narrowed = scope
    if parsed.time_is_hard and scope.time_from is None and scope.time_to is None:
        # a memory is written when it is told, which is often after the event ("last Friday I ...") and
        # sometimes before it (a plan): the filter reaches a few days past either end of the named window
        narrowed = replace(narrowed, time_from=_shift(parsed.time_from, -r.time_filter_pad_before_days),
                           time_to=_shift(parsed.time_to, r.time_filter_pad_after_days))
    if parsed.type_is_hard and parsed.types and scope.types is None:
        narrowed = replace(narrowed, types=tuple(parsed.types))
    return narrowed


def widen(parsed: ParsedQuery | None, scope: Scope, narrowed: Scope, scored: Scored, top_k: int,
          r: RetrievalSettings, channels: Callable[[Scope], Scored], fuse: Callable[[Scored], dict[str, float]],
          get_many: Callable[[list[str]], dict[str, MemoryRecord]]) -> Widened:
    """Widen a window that holds none of the strong text matches or too few memories (see the module docstring);
    `scored`: the channels run in `narrowed`; `channels(scope)`: the channels run in another scope (the query
    vector is cached: nothing is encoded again); `fuse`: their RRF."""
    searched, held = narrowed, None
    wide: Scored | None = None
    admitted: set[str] = set()
    strong: frozenset[str] = frozenset()
    if event_time.applies(parsed, scope, narrowed) and (r.time_filter_strong > 0 or r.time_filter_told_depth > 0):
        assert parsed is not None
        wide = channels(scope)
        if r.time_filter_told_depth > 0:
            admitted = event_time.admit(parsed, narrowed, wide, lambda ids: get_many(list(ids)),
                                        r.time_filter_told_depth)
        strong = time_window.strong_outside(fuse(wide), lambda ids: _times(get_many, ids), narrowed, admitted,
                                            r.time_filter_strong)
        if strong:  # the window holds none of the strong text matches: they join it, and the result says so
            scored = time_window.admit(scored, wide, strong)
    if admitted and wide is not None:
        scored = event_time.merge(scored, wide, admitted)
    widened = bool(strong)
    fused = fuse(scored)
    # "too little" counts distinct memories, not channel entries: three memories found by two channels each
    # are still three (a count of entries widened at top_k 10 but not at 5, issue 10 r17/81). The bar is the
    # internal depth, not top_k, so whether a window widens does not depend on how many results are asked for.
    if narrowed != scope and len(fused) < r.result_depth:
        # The parsed filter matched too little in this store: search the full scope (boosts still apply) and
        # say so on every hit (`why.time_filter_widened`, `in_time_filter`), never silently.
        widened = True
        scored = wide if wide is not None else channels(scope)
        fused, searched = fuse(scored), scope
    elif narrowed != scope and len(fused) < top_k:
        # enough for the depth, fewer than asked for: the rest of the scope follows the window's memories, which
        # keep the order the window alone gives them, so the result starts with the shorter one
        widened = True
        wide = wide if wide is not None else channels(scope)
        scored, held = time_window.fill(scored, wide)
        fused = time_window.below(fused, fuse(wide))
        searched = scope
    return Widened(scored, fused, searched, held, widened)


def filter_notes(hits: list[SearchHit], scope: Scope, narrowed: Scope, parsed: ParsedQuery | None,
                 widened: bool, searched: Scope) -> None:
    """Say on each hit which parsed filter applied, whether it was widened and whether the hit lies in the window."""
    if parsed is None or narrowed == scope:
        return
    time_narrowed = (narrowed.time_from, narrowed.time_to) != (scope.time_from, scope.time_to)
    for hit in hits:
        if time_narrowed:
            hit.why.time_filter = parsed.time_expression or "time"
            hit.why.time_filter_widened = widened
            when = hit.memory.reference_time  # inside the window the expression names (not its padding)
            hit.why.in_time_filter = ((parsed.time_from is None or when >= parsed.time_from)
                                      and (parsed.time_to is None or when <= parsed.time_to))
        if narrowed.types != scope.types:
            hit.why.type_filter_widened = widened and searched.types != narrowed.types


def _times(get_many: Callable[[list[str]], dict[str, MemoryRecord]], ids: Iterable[str]
           ) -> dict[str, datetime]:
    return {mid: rec.reference_time for mid, rec in get_many(list(ids)).items()}


def _shift(when: datetime | None, days: float) -> datetime | None:
    """`when` moved by `days` (None stays None: an open end of a window stays open)."""
    return when + timedelta(days=days) if when is not None else None
