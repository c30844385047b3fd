"""A namespace's decision lock that every process on one SQLite file sees (attack round 25).

A write decides (dedup, supersede, link: hygiene reads the namespace's neighbours) and then stores, and the two must
not interleave with another writer's to the same namespace, or both create the same fact and both supersede one
memory (two heads of one slot). PostgreSQL takes an advisory lock all servers see; the SQLite store took an
in-process lock only, so a second server on the file, a `hindsight add` or a cron `hindsight consolidate` beside the
server decided without it: live, two servers sent the same fact at once created it twice, 6 of 6 times, and two new
values of one port both stayed active.

The lock is `flock` on one of `BUCKETS` files in `<db>.locks/` (0700; the namespace's SHA-256 picks the file), taken
by the outermost holder in a thread after the in-process lock and released when it leaves, so a file lock is held
for one decision and never across the file's write transaction boundary the other way round (namespace lock first,
transaction inside, as `MemoryStore.namespace_lock` says). `flock` belongs to the open file, so two stores in one
process exclude each other too; a process that dies releases it. Two namespaces of one bucket take turns (1 in
`BUCKETS`), which costs parallelism, never correctness. A lock another process holds past `busy_timeout`
is `StorageBusyError` (retryable), as a held write lock is. Where `fcntl` does not exist (Windows) the lock stays
in-process.

Within one store the threads of a bucket first take the bucket's in-process lock (attack round 26): a thread waiting
for another thread of its own process is a plain wait, as it is for the namespace lock, never the busy timeout meant
for another process (before, a consolidation pass of one namespace longer than `busy_timeout` made a writer of
another namespace of its bucket fail with a retryable `storage_busy`). No holder takes two buckets (a decision
holds one namespace), so the plain wait cannot deadlock.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hindsight.errors import StorageBusyError
from hindsight.private_files import DIR_MODE, FILE_MODE

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the in-process lock alone
    fcntl = None  # type: ignore[assignment]

BUCKETS = 64
#: the suffix of the lock directory beside the SQLite file
SUFFIX = ".locks"


class NamespaceFileLocks:
    """`hold(namespace)`: a context manager holding the namespace's bucket file lock for this thread (reentrant)."""

    def __init__(self, db_path: str, busy_timeout: float) -> None:
        self.busy_timeout = busy_timeout
        self.directory = None if db_path == ":memory:" or fcntl is None else Path(f"{db_path}{SUFFIX}")
        self._held = threading.local()  # bucket -> (fd, depth) for this thread
        self._buckets = [threading.Lock() for _ in range(BUCKETS)]  # this store's threads of a bucket: in turn

    def _bucket(self, namespace: str) -> int:
        return int.from_bytes(hashlib.sha256(namespace.encode("utf-8")).digest()[:4], "big") % BUCKETS

    def _open(self, bucket: int) -> int:
        assert self.directory is not None
        self.directory.mkdir(mode=DIR_MODE, exist_ok=True)
        return os.open(self.directory / f"ns-{bucket:02d}.lock", os.O_RDWR | os.O_CREAT, FILE_MODE)

    def _acquire(self, fd: int, namespace: str) -> None:
        deadline = time.monotonic() + self.busy_timeout
        pause = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StorageBusyError(f"namespace '{namespace}' is being written by another process for "
                                           f"more than {self.busy_timeout:g} s; retry") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)

    @contextmanager
    def hold(self, namespace: str) -> Iterator[None]:
        if self.directory is None:
            yield
            return
        held: dict[int, list[int]] = self._held.__dict__.setdefault("buckets", {})
        bucket = self._bucket(namespace)
        if bucket in held:  # this thread holds it already (a nested decision, or another namespace of the bucket)
            held[bucket][1] += 1
            try:
                yield
            finally:
                held[bucket][1] -= 1
            return
        with self._buckets[bucket]:  # another thread of this store: wait for it plainly
            fd = self._open(bucket)
            try:
                self._acquire(fd, namespace)
                held[bucket] = [fd, 1]
                try:
                    yield
                finally:
                    del held[bucket]
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
