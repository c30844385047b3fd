"""The SQLite store's connections: one writer with its transactions, a read-only connection per thread,
per-namespace decision locks and buffered access counts (a mixin of `SQLiteStore`, one job: who talks to the
file when).

Writes: `transaction()` is BEGIN IMMEDIATE ... COMMIT on the writer under the store lock, waiting up to
`busy_timeout` for another process's write lock (then StorageBusyError, retryable); the vector index catches
up from `vector_log` after the commit. Reads: `_read()` gives this thread's read-only WAL connection (never waits
for the writer), or the writer itself inside a write transaction.
"""

from __future__ import annotations

import builtins
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from hindsight.errors import StorageBusyError
from hindsight.storage import ann_sync
from hindsight.storage.file_lock import NamespaceFileLocks
from hindsight.storage.records import to_ts as _ts
from hindsight.storage.vector_index import VectorIndex


class SQLiteConnections:
    """Needs `path`, `busy_timeout`, `_db`, `_lock`, `_index`, `_index_lock`, `_namespace_locks`,
    `_namespace_guard`, `_file_locks`, `_readers`, `_reader_conns`, `_access_lock`, `_pending_access` (set by SQLiteStore)."""

    path: str
    busy_timeout: float
    _db: sqlite3.Connection
    _lock: threading.RLock
    _index: VectorIndex
    _index_lock: threading.RLock
    _namespace_locks: dict[str, threading.RLock]
    _namespace_guard: threading.Lock
    _readers: threading.local
    _reader_conns: builtins.list[sqlite3.Connection]
    _access_lock: threading.Lock
    _pending_access: dict[str, tuple[int, float | None]]
    _file_locks: NamespaceFileLocks

    # ------------------------------------------------------------ transactions
    @contextmanager
    def transaction(self, namespace: str | None = None) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT under the store lock (the write lock also holds other processes off,
        so every namespace is serialised). Another process's write lock is waited for up to `busy_timeout`
        (then StorageBusyError, nothing written); the vector index catches up from `vector_log` after the
        commit, never for a rollback."""
        with self._lock:
            outer = not self._db.in_transaction
            if outer:
                self._begin()
            try:
                if outer:
                    self._flush_access()  # buffered access counts ride on the next write
                yield
            except BaseException:
                if outer:
                    self._db.execute("ROLLBACK")
                raise
            if outer:
                self._db.execute("COMMIT")
                with self._index_lock:
                    ann_sync.catch_up(self._db, self._index)

    def compact_erased(self) -> None:
        """After a hard delete (write/erase.py): merge the keyword index, so the erased terms leave its segments,
        and checkpoint the write-ahead log into the (secure_delete) file and truncate it. Best effort: a reader
        holding an old snapshot can keep the log from being truncated until it finishes."""
        with self._lock:
            self._db.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError:
                pass  # busy: the next checkpoint moves it

    @contextmanager
    def namespace_lock(self, namespace: str) -> Iterator[None]:
        """This process's lock, then the file lock every process on the file sees (`file_lock`, attack round 25:
        before it, a second server or the CLI decided beside a decision in progress and stored the same fact twice)."""
        with self._namespace_guard:
            lock = self._namespace_locks.setdefault(namespace, threading.RLock())
        with lock, self._file_locks.hold(namespace):
            yield

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A connection to read with: this thread's own read-only connection (WAL readers never wait for the
        writer), or the writer itself inside a write transaction (to see its own changes) and for :memory:."""
        if self.path == ":memory:" or self._lock._is_owned():  # type: ignore[attr-defined]
            with self._lock:
                yield self._db
            return
        conn: sqlite3.Connection | None = getattr(self._readers, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=self.busy_timeout)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA query_only=1")
            self._readers.conn = conn
            with self._access_lock:
                self._reader_conns.append(conn)
        yield conn

    def _begin(self) -> None:
        """BEGIN IMMEDIATE; SQLite's busy handler waits (connection timeout), the loop retries what it gives up
        on early, until `busy_timeout` has passed in all."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                if time.monotonic() >= deadline:
                    raise busy_error(self.busy_timeout) from exc
                time.sleep(0.05)

    def record_access(self, memory_ids: Sequence[str], at: datetime) -> None:
        """Applied now when the writer is free; while a write runs, buffered and applied by the next write
        transaction (or close), so a search never waits for a write to bump counters."""
        if not memory_ids:
            return
        with self._access_lock:
            for memory_id in memory_ids:
                count, _ = self._pending_access.get(memory_id, (0, None))
                self._pending_access[memory_id] = (count + 1, _ts(at))
        if self._lock.acquire(blocking=False):
            try:
                with self.transaction():
                    pass  # the transaction applies the buffer
            except (sqlite3.OperationalError, StorageBusyError):
                pass  # another process holds the file's write lock: the next write applies the buffer
            finally:
                self._lock.release()

    def _flush_access(self) -> None:
        """Called at the start of every outer write transaction, under the write lock."""
        with self._access_lock:
            pending, self._pending_access = self._pending_access, {}
        if pending:
            self._db.executemany(
                "UPDATE memories SET access_count = access_count + ?, "
                "last_accessed_at = MAX(COALESCE(last_accessed_at, 0), ?) WHERE id = ?",
                [(count, at, memory_id) for memory_id, (count, at) in pending.items()],
            )

    def _close_readers(self) -> None:
        with self._access_lock:
            readers, self._reader_conns = self._reader_conns, []
        for reader in readers:
            reader.close()


def is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def busy_error(waited: float) -> StorageBusyError:
    return StorageBusyError(
        f"the database is busy: another process held its write lock for more than {waited:g} s "
        "(HINDSIGHT_BUSY_TIMEOUT); nothing was written, retry later")
