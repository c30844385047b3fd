"""How a time window parsed from a question applies to a search (issue 10 / 14, round 20).

A question's hard time expression ("in July", "上周", "second week of December") becomes a filter on when memories
were written, padded a few days either side (`window_steps.narrow`). Two things went wrong with it on the released blind
rounds:

* **The window drops the answer.** A question names the time of what it asks about, and the memory that answers
  it was written at another time: "visitors in July" is answered by a report written on 20 August, "our booth at
  the show in October" by a note of 15 September, "the design direction for next winter" by a note of November.
  The window then holds only memories that match the question's words weakly (in round 19's "second week of
  December" miss, the five newest memories of the store). `strong_outside`: when none of the best `strong`
  memories of the same channels run over the whole scope lies inside the window (or was admitted by what it
  tells, `event_time`), the filter would remove every strong text match, so those join the window's memories in
  each channel, by score (`admit`); every hit says so (`why.time_filter_widened`; `why.in_time_filter` tells
  which lie outside). `time_filter_strong` 1 (the best memory only): on the released rounds it gained three
  round-19 questions and lost one of round 16, and LoCoMo dev R@10 +0.005; reading such a window as a boost over
  the whole scope instead lost four of round 16 (docs/benchmarks.md, "Retrieval, round 20").
* **The head depended on `top_k`.** A window widened to the whole scope when it held fewer memories than asked
  for, and the whole order changed: the same question ranked its answer 3rd with `top_k=10` and not at all with
  `top_k=5`. Whether a window widens now depends on the internal depth (`result_depth`, 10), not on `top_k`; a
  window that holds enough for the depth but fewer than a larger `top_k` keeps its memories first, in the order the
  window alone gives them, and the rest of the scope follows (`fill`, `below`, `split`), so a longer result starts
  with a shorter one. Keeping a small window's memories first at every depth instead was measured and lost more
  than it gained (docs/benchmarks.md, "Retrieval, round 20").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import TypeVar

from hindsight.storage.base import Scope

Scored = dict[str, list[tuple[str, float]]]
T = TypeVar("T")


def inside(when: datetime, scope: Scope) -> bool:
    """`when` lies in `scope`'s time filter (an open end is open)."""
    return ((scope.time_from is None or when >= scope.time_from)
            and (scope.time_to is None or when <= scope.time_to))


def time_narrowed(scope: Scope, narrowed: Scope) -> bool:
    return (narrowed.time_from, narrowed.time_to) != (scope.time_from, scope.time_to)


def strong_outside(fused_wide: Mapping[str, float], when: Callable[[Iterable[str]], Mapping[str, datetime]],
                   narrowed: Scope, admitted: Iterable[str], strong: int) -> frozenset[str]:
    """The best `strong` memories of the unfiltered search when none of them lies in the window (`narrowed`'s time
    filter) or among the memories admitted by what they tell; empty otherwise, when `strong` is 0 or nothing was
    found."""
    if strong <= 0 or not fused_wide:
        return frozenset()
    best = sorted(fused_wide, key=lambda mid: -fused_wide[mid])[:strong]
    told = set(admitted)
    times = when(best)
    if any(mid in told or (mid in times and inside(times[mid], narrowed)) for mid in best):
        return frozenset()
    return frozenset(best)


def admit(narrow: Scored, wide: Scored, ids: frozenset[str]) -> Scored:
    """Each channel's window hits with the unfiltered hits of `ids` of the same channel merged in by score."""
    out: Scored = {}
    for name in dict.fromkeys([*narrow, *wide]):
        own = list(narrow.get(name) or [])
        have = {mid for mid, _ in own}
        extra = [(mid, score) for mid, score in wide.get(name) or [] if mid in ids and mid not in have]
        out[name] = sorted(own + extra, key=lambda hit: -hit[1]) if extra else own
    return out


def fill(narrow: Scored, wide: Scored) -> tuple[Scored, frozenset[str]]:
    """Each channel's window hits followed by the unfiltered hits the window lacks, and the window's ids.

    A window hit keeps its rank in every channel, so its fused score is the one the window alone gives it."""
    held = frozenset(mid for hits in narrow.values() for mid, _ in hits)
    out: Scored = {}
    for name in dict.fromkeys([*narrow, *wide]):
        own = list(narrow.get(name) or [])
        out[name] = own + [(mid, score) for mid, score in wide.get(name) or [] if mid not in held]
    return out, held


def below(own: Mapping[str, float], wide: Mapping[str, float]) -> dict[str, float]:
    """The window's fused scores as they are, and the other memories' unfiltered ones scaled under the lowest of them
    (order kept within each part)."""
    floor = min(own.values(), default=1.0)
    top = max((score for mid, score in wide.items() if mid not in own), default=0.0)
    scale = 0.5 * floor / top if top > 0 else 0.0
    return {**{mid: score * scale for mid, score in wide.items() if mid not in own}, **own}


def split(hits: list[T], held: frozenset[str] | None, id_of: Callable[[T], str]) -> tuple[list[T], list[T]]:
    """The window's memories and the rest, each in its order (all of `hits` and none when `held` is None)."""
    if held is None:
        return hits, []
    return [h for h in hits if id_of(h) in held], [h for h in hits if id_of(h) not in held]
