"""The embedded default store: one SQLite file (WAL) holds everything.

Tables: memories, tags, an FTS5 index over jieba-segmented text (plain FTS5
cannot split Chinese words), vectors (float32 blobs keyed by a never-reused
`vkey`), vector_log (the change counter every vector index catches up from,
see storage.ann_sync), an append-only history, relations (edges) and a meta
table. Writers wait for another process's write lock up to `busy_timeout`
seconds, then raise StorageBusyError (retryable).

This module opens and closes the file and changes stored memories; the other
jobs are mixins: reads (sqlite_read.py), inserts (sqlite_bulk.py), search
(sqlite_search.py), connections and locks (sqlite_conn.py), backup
(sqlite_backup.py).
"""

from __future__ import annotations

import builtins
import sqlite3
import threading
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.field_rules import utcnow
from hindsight.model import MemoryRecord
from hindsight.private_files import create_private_file, tighten_store_files
from hindsight.storage import ann_sync, keyword_stats
from hindsight.storage.base import Edge, MemoryStore
from hindsight.storage.file_lock import NamespaceFileLocks
from hindsight.storage.migrations import migrate
from hindsight.storage.records import COLUMNS as _COLUMNS
from hindsight.storage.records import index_text as _index_text
from hindsight.storage.records import record_values
from hindsight.storage.records import to_ts as _ts
from hindsight.storage.sqlite_backup import SQLiteBackupMixin
from hindsight.storage.sqlite_bulk import SQLiteBulkMixin
from hindsight.storage.sqlite_conn import SQLiteConnections, busy_error, is_busy
from hindsight.storage.sqlite_read import SQLiteReads
from hindsight.storage.sqlite_search import SQLiteSearch
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex

#: Seconds a write waits for another process's write lock (HINDSIGHT_BUSY_TIMEOUT overrides it in the engine).
DEFAULT_BUSY_TIMEOUT = 30.0


class SQLiteStore(SQLiteBulkMixin, SQLiteConnections, SQLiteReads, SQLiteSearch, SQLiteBackupMixin, MemoryStore):
    """`MemoryStore` on a single SQLite file; safe to share across threads (reads: storage/sqlite_read.py)."""

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
                create_private_file(Path(self.path))  # directory 0700 and file 0600 when created here
                tighten_store_files(Path(self.path))  # and an older hindsight's 0644 files made owner-only
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                       timeout=self.busy_timeout)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open database '{self.path}': {exc}") from exc
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._namespace_locks: dict[str, threading.RLock] = {}
        self._namespace_guard = threading.Lock()
        self._file_locks = NamespaceFileLocks(self.path, self.busy_timeout)
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
                self._db.execute("PRAGMA secure_delete=ON")  # freed pages are zeroed: erased text leaves the file
                migrate(self._db)
                keyword_stats.ensure(self._db)  # a store written before v10 gets its BM25 statistics
        except sqlite3.OperationalError as exc:
            self._db.close()
            if is_busy(exc):
                raise busy_error(self.busy_timeout) from exc
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

    def _write_side_tables(self, rowid: int, record: MemoryRecord, embedding: np.ndarray | None,
                           before: MemoryRecord) -> None:
        self._db.execute("DELETE FROM tags WHERE memory_rowid = ?", (rowid,))
        self._db.executemany(
            "INSERT INTO tags(memory_rowid, tag, position) VALUES (?, ?, ?)",
            [(rowid, tag, i) for i, tag in enumerate(record.tags)],
        )
        keyword_stats.forget(self._db, rowid, before.namespace)
        self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
        text = _index_text(record)
        self._db.execute("INSERT INTO memories_fts(rowid, body, neighbours) VALUES (?, ?, ?)", (rowid, *text))
        keyword_stats.change(self._db, record.namespace, [text], 1)
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

    # ------------------------------------------------------------------ writes
    def replace(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, action: str,
                note: str = "") -> MemoryRecord:
        with self.transaction():
            before = self.get(record.id)
            rowid = self._rowid(record.id)
            if before is None or rowid is None:
                raise StorageError(f"memory '{record.id}' does not exist")
            assignments = ", ".join(f"{col.strip()} = ?" for col in _COLUMNS.split(","))
            self._db.execute(f"UPDATE memories SET {assignments} WHERE rowid = ?", (*record_values(record), rowid))
            self._write_side_tables(rowid, record, embedding, before)
            self._history(record.id, action, actor, before, record, note)
        self._sync_index()
        return before

    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        with self.transaction():
            before = self.get(memory_id)
            rowid = self._rowid(memory_id)
            if before is None or rowid is None:
                return None
            keyword_stats.forget(self._db, rowid, before.namespace)
            self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM vectors WHERE memory_rowid = ?", (rowid,))
            self._db.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM edges WHERE src = ? OR dst = ?", (memory_id, memory_id))
            self._history(memory_id, "delete", actor, before, None, note)
        self._sync_index()
        return before

    def add_edge(self, edge: Edge) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO edges(src, dst, kind, weight, created_at) VALUES (?, ?, ?, ?, ?)",
                (edge.src, edge.dst, edge.kind, edge.weight, _ts(edge.created_at or utcnow())),
            )

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

    def close(self) -> None:
        with self._lock:
            self._close_readers()
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


