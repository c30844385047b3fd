"""The SQLite store's one insert path, for one memory or many (a mixin of `SQLiteStore`).

`insert` is `insert_many` of one. A batch is one transaction: every row of every table is written with one
`executemany` per table (memories, tags, FTS5 and its per-namespace BM25 totals, vectors, history) instead of five statements per memory, and the
vector index catches up once, after the commit, from `vector_log` (the triggers log each vector in the same
transaction, so the crash guarantees of storage.ann_sync are unchanged: the graph is derived and replayed).
An HNSW index then adds the batch's vectors in one multi-threaded call. `hindsight migrate` (`restore_many`)
and backup restore (`restore_raw`) use the same rows.

Rowids are assigned here (MAX(rowid) + 1, ... under the write lock BEGIN IMMEDIATE holds, which is what SQLite
itself would pick), so the side tables can be filled without a lookup per memory.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.field_rules import utcnow
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry
from hindsight.storage import keyword_stats
from hindsight.storage.records import COLUMNS, index_text, record_values, to_ts

_INSERT = f"INSERT INTO memories(rowid, {COLUMNS}) VALUES ({','.join('?' * 21)})"
HISTORY_SQL = "INSERT INTO history(memory_id, action, actor, at, before, after, note) VALUES (?, ?, ?, ?, ?, ?, ?)"
_CHUNK = 900

HistoryRow = tuple[str, str, str, float | None, str | None, str | None, str]


def history_row(entry: HistoryEntry) -> HistoryRow:
    """A history entry as it was recorded elsewhere (migrate, backup restore)."""
    return (entry.memory_id, entry.action, entry.actor, to_ts(entry.at),
            None if entry.before is None else json.dumps(entry.before, ensure_ascii=False),
            None if entry.after is None else json.dumps(entry.after, ensure_ascii=False), entry.note)


class SQLiteBulkMixin:
    """Needs the store's `_db`, `_lock` and `transaction` (set by SQLiteStore)."""

    _db: sqlite3.Connection
    _lock: threading.RLock

    if TYPE_CHECKING:
        def transaction(self, namespace: str | None = None) -> Any: ...
        def _sync_index(self) -> None: ...

    def insert(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, note: str = "") -> None:
        self.insert_many([(record, embedding)], actor=actor, note=note)

    def insert_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]], *, actor: str,
                    note: str = "") -> None:
        """Persist new memories (and their vectors) in one transaction, each with a `create` history entry.
        An id that exists already (or twice in the batch) fails the whole batch: nothing is written."""
        at = to_ts(utcnow())
        self._insert_rows(items, [(r.id, "create", actor, at, None, r.model_dump_json(), note) for r, _ in items])

    def restore_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None, Sequence[HistoryEntry]]]) -> None:
        """Copy memories in as they were elsewhere, with their own histories (`hindsight migrate`). One
        transaction for the batch, so a killed migration leaves whole memories and a rerun skips them."""
        self._insert_rows([(r, v) for r, v, _ in items], [history_row(e) for _, _, h in items for e in h])

    def _insert_rows(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]],
                     history: Sequence[HistoryRow]) -> None:
        if not items:
            return
        with self.transaction():
            self._db.execute("SAVEPOINT insert_rows")  # inside a caller's transaction a failure undoes only this
            try:
                self._write_new(items)
                self._db.executemany(HISTORY_SQL, history)
            except BaseException:
                self._db.execute("ROLLBACK TO insert_rows")
                raise
            finally:
                self._db.execute("RELEASE insert_rows")
        self._sync_index()

    def _write_new(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]]) -> None:
        """Rows of new memories in every table; the caller holds the write transaction."""
        ids = [record.id for record, _ in items]
        taken = [i for i in dict.fromkeys(ids) if ids.count(i) > 1] if len(set(ids)) != len(ids) else []
        for start in range(0, len(ids), _CHUNK):
            if taken:
                break
            chunk = ids[start : start + _CHUNK]
            taken = [str(r[0]) for r in self._db.execute(
                f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk)]
        if taken:
            raise StorageError(f"memory id '{taken[0]}' already exists")
        first = int(self._db.execute("SELECT COALESCE(MAX(rowid), 0) FROM memories").fetchone()[0]) + 1
        rowids = range(first, first + len(items))
        self._db.executemany(_INSERT, [(rowid, *record_values(r)) for rowid, (r, _) in zip(rowids, items)])
        self._db.executemany("INSERT INTO tags(memory_rowid, tag, position) VALUES (?, ?, ?)",
                             [(rowid, tag, i) for rowid, (r, _) in zip(rowids, items)
                              for i, tag in enumerate(r.tags)])
        texts = [index_text(r) for r, _ in items]
        self._db.executemany("INSERT INTO memories_fts(rowid, body, neighbours) VALUES (?, ?, ?)",
                             [(rowid, *text) for rowid, text in zip(rowids, texts)])
        keyword_stats.change_many(self._db, [(r.namespace, *text) for (r, _), text in zip(items, texts)], 1)
        self._db.executemany("INSERT INTO vectors(memory_rowid, vector) VALUES (?, ?)",
                             [(rowid, np.asarray(v, dtype=np.float32).reshape(-1).tobytes())
                              for rowid, (_, v) in zip(rowids, items) if v is not None])
