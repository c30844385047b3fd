"""The embedded default store: one SQLite file (WAL) holds everything.

Tables: memories, tags, an FTS5 index over jieba-segmented text (plain FTS5
cannot split Chinese words), vectors (float32 blobs keyed by a never-reused
`vkey`), vector_log (the change counter every vector index catches up from,
see storage.ann_sync), an append-only history, relations (edges) and a meta
table. Writers wait for another process's write lock up to `busy_timeout`
seconds, then raise StorageBusyError (retryable).
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.errors import StorageBusyError, StorageError
from hindsight.model import HistoryEntry, MemoryRecord, utcnow
from hindsight.storage import ann_filter, ann_partition, ann_sync
from hindsight.storage.base import Edge, MemoryStore, Scope, StoreStats
from hindsight.storage.migrations import migrate
from hindsight.storage.records import COLUMNS as _COLUMNS
from hindsight.storage.records import at_ts, record_values, row_to_record
from hindsight.storage.records import from_ts as _dt
from hindsight.storage.records import index_text as _index_text
from hindsight.storage.records import to_ts as _ts
from hindsight.storage.sqlite_backup import SQLiteBackupMixin
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex

#: Seconds a write waits for another process's write lock (HINDSIGHT_BUSY_TIMEOUT overrides it in the engine).
DEFAULT_BUSY_TIMEOUT = 30.0


class SQLiteStore(SQLiteBackupMixin, MemoryStore):
    """`MemoryStore` on a single SQLite file; safe to share across threads."""

    def __init__(self, path: str | Path, vector_index: VectorIndex | None = None,
                 busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        """`vector_index`: where dense vectors are searched (default: exact, in process; HNSW; or Qdrant).
        `busy_timeout`: seconds a write waits for another process's write lock before StorageBusyError.

        Private memories arrive sealed (see storage/encrypted.py); this store never sees a key.
        """
        self.busy_timeout = float(busy_timeout)
        self.path = str(path) if str(path) == ":memory:" else str(Path(path).expanduser())
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                       timeout=self.busy_timeout)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open database '{self.path}': {exc}") from exc
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._namespace_locks: dict[str, threading.RLock] = {}
        self._namespace_guard = threading.Lock()
        self._readers = threading.local()
        self._reader_conns: builtins.list[sqlite3.Connection] = []
        self._access_lock = threading.Lock()
        self._pending_access: dict[str, tuple[int, float | None]] = {}
        self._index_lock = threading.RLock()  # the vector index's watermark moves under it (catch-up, rebuild)
        try:
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("PRAGMA foreign_keys=ON")
                migrate(self._db)
        except sqlite3.OperationalError as exc:
            self._db.close()
            if _is_busy(exc):
                raise _busy_error(self.busy_timeout) from exc
            raise StorageError(f"cannot open database '{self.path}': not a usable hindsight database ({exc})") from exc
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StorageError(f"cannot open database '{self.path}': not a usable hindsight database ({exc})") from exc
        except StorageError:
            self._db.close()
            raise
        self._index: VectorIndex = vector_index if vector_index is not None else ExactVectorIndex()
        with self._lock, self._index_lock:
            ann_sync.open_index(self._db, self._index)

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

    @contextmanager
    def namespace_lock(self, namespace: str) -> Iterator[None]:
        """In process only: a SQLite file is served by one server (other processes, like the CLI, still take
        the file's write lock for each transaction, but do not wait for a decision in progress)."""
        with self._namespace_guard:
            lock = self._namespace_locks.setdefault(namespace, threading.RLock())
        with lock:
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
                if not _is_busy(exc):
                    raise
                if time.monotonic() >= deadline:
                    raise _busy_error(self.busy_timeout) from exc
                time.sleep(0.05)

    # ------------------------------------------------------------------ aux tables
    def _json_namespace(self, col: str) -> str:
        return f"json_extract({col}, '$.namespace')"

    def _aux_rows(self, sql: str, params: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        with self._lock:
            return [tuple(row) for row in self._db.execute(sql, params).fetchall()]

    def _aux_exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        with self.transaction():
            return int(self._db.execute(sql, params).rowcount)

    @property
    def index_size(self) -> int:
        """Vectors held by the dense index (for /metrics)."""
        return len(self._index)

    # ----------------------------------------------------------------- helpers

    def _sync_index(self) -> None:
        """Bring the vector index up to the file's change counter (own and other processes' commits)."""
        with self._lock:
            if not self._db.in_transaction:  # inside an outer transaction: the commit's caller syncs
                with self._index_lock:
                    ann_sync.catch_up(self._db, self._index)

    def _rowid(self, memory_id: str) -> int | None:
        row = self._db.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return None if row is None else int(row[0])

    def _records(self, rows: builtins.list[sqlite3.Row], db: sqlite3.Connection) -> builtins.list[MemoryRecord]:
        if not rows:
            return []
        rowids = [row["rowid"] for row in rows]
        tags: dict[int, builtins.list[str]] = {rid: [] for rid in rowids}
        for chunk_start in range(0, len(rowids), 900):
            chunk = rowids[chunk_start : chunk_start + 900]
            marks = ",".join("?" * len(chunk))
            for tag_row in db.execute(
                f"SELECT memory_rowid, tag FROM tags WHERE memory_rowid IN ({marks}) ORDER BY position", chunk
            ):
                tags[tag_row[0]].append(tag_row[1])
        return [row_to_record(row, tags[row["rowid"]]) for row in rows]

    def _write_side_tables(self, rowid: int, record: MemoryRecord, embedding: np.ndarray | None) -> None:
        self._db.execute("DELETE FROM tags WHERE memory_rowid = ?", (rowid,))
        self._db.executemany(
            "INSERT INTO tags(memory_rowid, tag, position) VALUES (?, ?, ?)",
            [(rowid, tag, i) for i, tag in enumerate(record.tags)],
        )
        self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
        self._db.execute("INSERT INTO memories_fts(rowid, body, neighbours) VALUES (?, ?, ?)",
                         (rowid, *_index_text(record)))
        if embedding is not None:  # a new vector gets a new vkey: index keys are never reused or rewritten
            vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
            self._db.execute("DELETE FROM vectors WHERE memory_rowid = ?", (rowid,))
            self._db.execute("INSERT INTO vectors(memory_rowid, vector) VALUES (?, ?)", (rowid, vector.tobytes()))

    def _history(self, memory_id: str, action: str, actor: str, before: MemoryRecord | None,
                 after: MemoryRecord | None, note: str) -> None:
        self._db.execute(
            "INSERT INTO history(memory_id, action, actor, at, before, after, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                memory_id,
                action,
                actor,
                _ts(utcnow()),
                None if before is None else before.model_dump_json(),
                None if after is None else after.model_dump_json(),
                note,
            ),
        )

    def _scope_sql(self, scope: Scope, alias: str = "m") -> tuple[str, builtins.list[Any]]:
        clauses = [f"{alias}.namespace = ?"]
        params: builtins.list[Any] = [scope.namespace]
        clauses.append(f"{alias}.status IN ({','.join('?' * len(scope.statuses))})")
        params.extend(s.value for s in scope.statuses)
        if scope.types:
            clauses.append(f"{alias}.type IN ({','.join('?' * len(scope.types))})")
            params.extend(t.value for t in scope.types)
        if scope.sources:
            clauses.append(f"{alias}.source IN ({','.join('?' * len(scope.sources))})")
            params.extend(s.value for s in scope.sources)
        if scope.tags:
            clauses.append(
                f"{alias}.rowid IN (SELECT memory_rowid FROM tags WHERE tag IN ({','.join('?' * len(scope.tags))}))"
            )
            params.extend(scope.tags)
        if scope.time_from is not None:
            clauses.append(f"COALESCE({alias}.event_time, {alias}.created_at) >= ?")
            params.append(_ts(scope.time_from))
        if scope.time_to is not None:
            clauses.append(f"COALESCE({alias}.event_time, {alias}.created_at) <= ?")
            params.append(_ts(scope.time_to))
        if scope.min_importance is not None:
            clauses.append(f"{alias}.importance >= ?")
            params.append(scope.min_importance)
        if scope.source_task_id is not None:
            clauses.append(f"{alias}.source_task_id = ?")
            params.append(scope.source_task_id)
        if scope.session_id is not None:
            clauses.append(f"{alias}.session_id = ?")
            params.append(scope.session_id)
        return " AND ".join(clauses), params

    # -------------------------------------------------------------- interface
    def insert(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, note: str = "") -> None:
        with self.transaction():
            try:
                cursor = self._db.execute(
                    f"INSERT INTO memories({_COLUMNS}) VALUES ({','.join('?' * 20)})", record_values(record)
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"memory id '{record.id}' already exists") from exc
            rowid = int(cursor.lastrowid or 0)
            self._write_side_tables(rowid, record, embedding)
            self._history(record.id, "create", actor, None, record, note)
        self._sync_index()

    def replace(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, action: str,
                note: str = "") -> MemoryRecord:
        with self.transaction():
            before = self.get(record.id)
            rowid = self._rowid(record.id)
            if before is None or rowid is None:
                raise StorageError(f"memory '{record.id}' does not exist")
            assignments = ", ".join(f"{col.strip()} = ?" for col in _COLUMNS.split(","))
            self._db.execute(f"UPDATE memories SET {assignments} WHERE rowid = ?", (*record_values(record), rowid))
            self._write_side_tables(rowid, record, embedding)
            self._history(record.id, action, actor, before, record, note)
        self._sync_index()
        return before

    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        with self.transaction():
            before = self.get(memory_id)
            rowid = self._rowid(memory_id)
            if before is None or rowid is None:
                return None
            self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM vectors WHERE memory_rowid = ?", (rowid,))
            self._db.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM edges WHERE src = ? OR dst = ?", (memory_id, memory_id))
            self._history(memory_id, "delete", actor, before, None, note)
        self._sync_index()
        return before

    def get(self, memory_id: str) -> MemoryRecord | None:
        with self._read() as db:
            rows = db.execute(f"SELECT rowid, {_COLUMNS} FROM memories WHERE id = ?", (memory_id,)).fetchall()
            records = self._records(rows, db)
        return records[0] if records else None

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        out: dict[str, MemoryRecord] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._read() as db:
            for start in range(0, len(ids), 900):
                chunk = ids[start : start + 900]
                rows = db.execute(
                    f"SELECT rowid, {_COLUMNS} FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk
                ).fetchall()
                out.update((r.id, r) for r in self._records(rows, db))
        return out

    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> builtins.list[MemoryRecord]:
        where, params = self._scope_sql(scope)
        order = "DESC" if newest_first else "ASC"
        with self._read() as db:
            rows = db.execute(
                f"SELECT m.rowid, {_COLUMNS} FROM memories m WHERE {where} "
                f"ORDER BY m.created_at {order}, m.rowid {order} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
            return self._records(rows, db)

    def count(self, scope: Scope) -> int:
        where, params = self._scope_sql(scope)
        with self._read() as db:
            return int(db.execute(f"SELECT COUNT(*) FROM memories m WHERE {where}", params).fetchone()[0])

    def dense_search(self, scope: Scope, vector: np.ndarray, limit: int) -> builtins.list[tuple[str, float]]:
        """Catch the index up with the file (other processes write too), then search it within scope."""
        with self._read() as db:
            if db is not self._db or not self._db.in_transaction:
                with self._index_lock:
                    ann_sync.catch_up(db, self._index)

            def search(part: Scope) -> builtins.list[tuple[str, float]]:
                where, params = self._scope_sql(part)
                return ann_filter.dense_search(db, self._index, part, where, params, vector, limit)

            return ann_partition.partitioned(search, scope, self.archive_boundary, limit)

    @property
    def archive_boundary(self) -> datetime | None:
        """Memories before this time form the archive partition (searched when recent is not enough)."""
        with self._read() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'archive_before'").fetchone()
        return None if row is None else _dt(float(row[0]))

    def set_archive_boundary(self, before: datetime | None) -> None:
        """Move the recent/archive boundary (None: no archive)."""
        with self.transaction():
            if before is None:
                self._db.execute("DELETE FROM meta WHERE key = 'archive_before'")
            else:
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('archive_before', ?)",
                                 (str(_ts(before)),))

    def keyword_search(self, scope: Scope, terms: Sequence[str], limit: int,
                       neighbour_weight: float = 0.5) -> builtins.list[tuple[str, float]]:
        quoted = [f'"{t.replace(chr(34), "")}"' for t in terms if t.replace('"', "").strip()]
        if not quoted:
            return []
        where, params = self._scope_sql(scope)
        sql = (
            f"SELECT m.id, bm25(memories_fts, 1.0, {float(neighbour_weight)}) AS rank FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND {where} ORDER BY rank LIMIT ?"
        )
        with self._read() as db:
            try:
                rows = db.execute(sql, (" OR ".join(quoted), *params, limit)).fetchall()
            except sqlite3.OperationalError as exc:  # a pathological query must not crash search
                raise StorageError(f"keyword search failed: {exc}") from exc
        return [(row[0], -float(row[1])) for row in rows]

    def get_embeddings(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._read() as db:
            for start in range(0, len(ids), 900):
                chunk = ids[start : start + 900]
                for row in db.execute(
                    "SELECT m.id, e.vector FROM vectors e JOIN memories m ON m.rowid = e.memory_rowid "
                    f"WHERE m.id IN ({','.join('?' * len(chunk))})",
                    chunk,
                ):
                    out[row[0]] = np.frombuffer(row[1], dtype=np.float32)
        return out

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

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        with self._read() as db:
            rows = db.execute(
                "SELECT memory_id, action, actor, at, before, after, note FROM history WHERE memory_id = ? ORDER BY seq",
                (memory_id,),
            ).fetchall()
        return [
            HistoryEntry(
                memory_id=row["memory_id"],
                action=row["action"],
                actor=row["actor"],
                at=at_ts(row["at"]),
                before=None if row["before"] is None else json.loads(row["before"]),
                after=None if row["after"] is None else json.loads(row["after"]),
                note=row["note"] or "",
            )
            for row in rows
        ]

    def add_edge(self, edge: Edge) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO edges(src, dst, kind, weight, created_at) VALUES (?, ?, ?, ?, ?)",
                (edge.src, edge.dst, edge.kind, edge.weight, _ts(edge.created_at or utcnow())),
            )

    def edges(self, memory_ids: Sequence[str], kinds: Sequence[str] | None = None) -> builtins.list[Edge]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        sql = f"SELECT src, dst, kind, weight, created_at FROM edges WHERE (src IN ({marks}) OR dst IN ({marks}))"
        params: builtins.list[Any] = [*ids, *ids]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        with self._read() as db:
            rows = db.execute(sql, params).fetchall()
        return [Edge(r[0], r[1], r[2], r[3], _dt(r[4])) for r in rows]

    def ids_with_prefix(self, prefix: str, namespace: str, limit: int = 2) -> builtins.list[str]:
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._read() as db:
            rows = db.execute("SELECT id FROM memories WHERE namespace = ? AND id LIKE ? ESCAPE '\\' "
                                    "ORDER BY id LIMIT ?", (namespace, pattern, limit)).fetchall()
        return [str(r[0]) for r in rows]

    def iter_all(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        last = 0
        while True:
            with self._read() as db:
                sql = f"SELECT rowid, {_COLUMNS} FROM memories WHERE rowid > ?"
                params: builtins.list[Any] = [last]
                if namespace is not None:
                    sql += " AND namespace = ?"
                    params.append(namespace)
                rows = db.execute(sql + " ORDER BY rowid LIMIT 500", params).fetchall()
                records = self._records(rows, db)
            if not rows:
                return
            last = rows[-1]["rowid"]
            yield from records

    def stats(self, namespace: str | None = None) -> StoreStats:
        where, params = ("WHERE namespace = ?", [namespace]) if namespace else ("", [])
        with self._read() as db:
            by_status = dict(db.execute(f"SELECT status, COUNT(*) FROM memories {where} GROUP BY status", params).fetchall())
            by_type = dict(db.execute(f"SELECT type, COUNT(*) FROM memories {where} GROUP BY type", params).fetchall())
            namespaces = dict(
                db.execute(f"SELECT namespace, COUNT(*) FROM memories {where} GROUP BY namespace", params).fetchall()
            )
        return StoreStats(
            total=sum(by_status.values()),
            by_status=by_status,
            by_type=by_type,
            namespaces=namespaces,
            embedding_model=self.embedding_model,
            path=self.path,
        )

    @property
    def embedding_model(self) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
        return None if row is None else str(row[0])

    def set_embedding_model(self, model_name: str) -> None:
        """Record which embedder produced the stored vectors (first open of a new file)."""
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedding_model', ?)", (model_name,))

    def reset_embeddings(self, model_name: str, vectors: dict[str, np.ndarray]) -> None:
        with self.transaction():
            self._db.execute("DELETE FROM vectors")
            rowids = dict(self._db.execute("SELECT id, rowid FROM memories"))
            self._db.executemany(
                "INSERT INTO vectors(memory_rowid, vector) VALUES (?, ?)",
                [(rowids[mid], np.asarray(v, dtype=np.float32).tobytes()) for mid, v in vectors.items() if mid in rowids],
            )
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedding_model', ?)", (model_name,))
        with self._lock, self._index_lock:
            ann_sync.rebuild(self._db, self._index)

    def get_idempotent(self, namespace: str, key: str) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT result FROM idempotency WHERE namespace = ? AND key = ?",
                             (namespace, key)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        with self._lock:
            with self._access_lock:
                readers, self._reader_conns = self._reader_conns, []
            for reader in readers:
                reader.close()
            try:
                with self.transaction():
                    pass  # apply buffered access counts
            except (sqlite3.Error, StorageError):
                pass
            try:
                ann_sync.catch_up(self._db, self._index)
                self._index.save()
            except (sqlite3.Error, OSError):
                pass  # the index is derived: the next open catches up or rebuilds
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._db.close()
        self._index.close()


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _busy_error(waited: float) -> StorageBusyError:
    return StorageBusyError(
        f"the database is busy: another process held its write lock for more than {waited:g} s "
        "(HINDSIGHT_BUSY_TIMEOUT); nothing was written, retry later")
