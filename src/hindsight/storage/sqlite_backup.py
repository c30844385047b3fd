"""Backup and restore for the SQLite store: every history entry and edge, a verbatim load into an empty file,
and SQLite's online backup API both ways (a mixin of `SQLiteStore`, kept apart from the per-memory code)."""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.field_rules import utcnow
from hindsight.model import MemoryRecord
from hindsight.private_files import create_private_file
from hindsight.read_model import HistoryEntry
from hindsight.storage import ann_sync, keyword_stats
from hindsight.storage.base import Edge
from hindsight.storage.migrations import migrate
from hindsight.storage.records import at_ts
from hindsight.storage.records import from_ts as _dt
from hindsight.storage.records import to_ts as _ts
from hindsight.storage.sqlite_bulk import HISTORY_SQL, history_row
from hindsight.storage.vector_index import VectorIndex


class SQLiteBackupMixin:
    """Needs the store's `_db`, `_lock`, `_index_lock`, `_index`, `path`, `transaction`, `_write_new`."""

    _db: sqlite3.Connection
    _lock: threading.RLock
    _index: VectorIndex
    _index_lock: threading.RLock
    path: str

    if TYPE_CHECKING:  # provided by SQLiteStore
        def transaction(self, namespace: str | None = None) -> Any: ...
        def _write_new(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]]) -> None: ...

    def all_history(self) -> Iterator[HistoryEntry]:
        last = 0
        while True:
            with self._lock:
                rows = self._db.execute("SELECT seq, memory_id, action, actor, at, before, after, note FROM history "
                                        "WHERE seq > ? ORDER BY seq LIMIT 1000", (last,)).fetchall()
            if not rows:
                return
            last = rows[-1]["seq"]
            for row in rows:
                yield HistoryEntry(memory_id=row["memory_id"], action=row["action"], actor=row["actor"],
                                   at=at_ts(row["at"]) or utcnow(), note=row["note"] or "",
                                   before=None if row["before"] is None else json.loads(row["before"]),
                                   after=None if row["after"] is None else json.loads(row["after"]))

    def all_edges(self) -> builtins.list[Edge]:
        with self._lock:
            rows = self._db.execute("SELECT src, dst, kind, weight, created_at FROM edges ORDER BY rowid").fetchall()
        return [Edge(r[0], r[1], r[2], r[3], _dt(r[4])) for r in rows]

    def restore_raw(self, records: Sequence[tuple[MemoryRecord, np.ndarray | None]],
                    history: Sequence[HistoryEntry], edges: Sequence[Edge]) -> None:
        with self.transaction():  # the vector index catches up from vector_log after the commit
            if self._db.execute("SELECT COUNT(*) FROM memories").fetchone()[0] or \
                    self._db.execute("SELECT COUNT(*) FROM history").fetchone()[0]:
                raise StorageError(f"restore needs an empty database; '{self.path}' already holds memories")
            self._write_new(records)
            self._db.executemany(HISTORY_SQL, [history_row(h) for h in history])
            self._db.executemany(
                "INSERT OR REPLACE INTO edges(src, dst, kind, weight, created_at) VALUES (?, ?, ?, ?, ?)",
                [(e.src, e.dst, e.kind, e.weight, _ts(e.created_at or utcnow())) for e in edges])

    def restore_from(self, source: str | Path) -> None:
        """Replace this (empty) database with a copy of a SQLite backup file, page for page (online backup API):
        memories, history, edges, tokens, audit and review proposals come back exactly."""
        origin = sqlite3.connect(f"file:{Path(source).expanduser()}?mode=ro", uri=True)
        try:
            with self._lock:
                if self._db.execute("SELECT COUNT(*) FROM memories").fetchone()[0] or \
                        self._db.execute("SELECT COUNT(*) FROM history").fetchone()[0]:
                    raise StorageError(f"restore needs an empty database; '{self.path}' already holds memories")
                origin.backup(self._db)
                migrate(self._db)  # a backup from an older hindsight is upgraded in place
                keyword_stats.ensure(self._db)
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"'{source}' is not a usable hindsight backup ({exc})") from exc
        finally:
            origin.close()
        with self._lock, self._index_lock:
            ann_sync.rebuild(self._db, self._index)

    def backup_to(self, target: str | Path) -> None:
        """Byte-faithful copy of the whole file with SQLite's online backup API (safe while serving)."""
        create_private_file(Path(target))  # 0600: a backup holds every memory
        dest = sqlite3.connect(str(target))
        try:
            with self._lock:
                self._db.backup(dest)
        finally:
            dest.close()

