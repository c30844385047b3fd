"""Read-modify-write of one memory without lost updates (attack round 8).

`update`, `forget` and `release` read a memory, compute its next version (the guard and the embedder run in
between, for seconds), then store it. Another request (a second server on the same PostgreSQL store or SQLite
file, or another thread of this one) may change the memory in that window; storing the computed version over it
undid that change: a `memory_forget` racing a content `memory_update` left the memory `active`.

The write path passes the version it computed from (`base`); inside the write transaction, under the namespace's
lock, `check_current` compares it with what is stored now and raises `StaleChange` when another writer got there
first; `retry_stale` recomputes from the fresh version (the other change is kept), a few times, then gives up
with `storage_busy` (retryable, nothing changed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hindsight.errors import MemoryNotFoundError, StorageBusyError
from hindsight.model import MemoryRecord

T = TypeVar("T")

#: fields a read changes (the access factor): not a change another writer's version must keep
_ACCESS_FIELDS = frozenset({"last_accessed_at", "access_count"})
ATTEMPTS = 5


class StaleChange(Exception):
    """The memory changed after the change was computed from it; nothing was written."""


def _version(record: MemoryRecord) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude=set(_ACCESS_FIELDS))


def check_current(stored: MemoryRecord | None, base: MemoryRecord) -> None:
    """Raise unless `stored` (read inside the write transaction) is still the version `base` was read as."""
    if stored is None or stored.namespace != base.namespace:
        raise MemoryNotFoundError(base.id, base.namespace)
    if _version(stored) != _version(base):
        raise StaleChange(base.id)


def with_reads_of(stored: MemoryRecord | None, record: MemoryRecord) -> MemoryRecord:
    """`record` with the access counters of `stored` (read inside the write transaction) where those are further on:
    the change was computed from an older read, and writing its counters back undid every read counted since."""
    if stored is None:
        return record
    seen = [t for t in (stored.last_accessed_at, record.last_accessed_at) if t is not None]
    return record.model_copy(update={"access_count": max(stored.access_count, record.access_count),
                                     "last_accessed_at": max(seen) if seen else None})


def retry_stale(change: Callable[[], T], memory_id: str) -> T:
    """Run a read-compute-write of one memory again from its fresh version while another writer keeps winning."""
    for _ in range(ATTEMPTS):
        try:
            return change()
        except StaleChange:
            continue
    raise StorageBusyError(f"memory_id: '{memory_id}' kept changing while this change was computed "
                           f"({ATTEMPTS} tries); nothing was changed, retry")
