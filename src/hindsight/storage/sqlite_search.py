"""The SQLite store's search side: dense search within a scope (through the vector index, recent/archive
partitions), BM25 keyword search over FTS5 with per-namespace statistics (storage.keyword_stats), stored vectors by id (a mixin of `SQLiteStore`)."""

from __future__ import annotations

import builtins
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.storage import ann_filter, ann_partition, ann_sync, keyword_stats
from hindsight.storage.base import Scope
from hindsight.storage.records import from_ts as _dt
from hindsight.storage.records import to_ts as _ts
from hindsight.storage.vector_index import VectorIndex


class SQLiteSearch:
    """Needs `_db`, `_index`, `_index_lock`, `_read`, `transaction` and `_scope_sql` (set by SQLiteStore)."""

    _db: sqlite3.Connection
    _index: VectorIndex
    _index_lock: threading.RLock

    if TYPE_CHECKING:
        def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def transaction(self, namespace: str | None = None) -> AbstractContextManager[None]: ...
        def _scope_sql(self, scope: Scope, alias: str = "m") -> tuple[str, builtins.list[Any]]: ...

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

    #: A term more than this many memories hold is left out of keyword search (issue 14, "Search cost at scale" in
    #: docs/benchmarks.md): FTS5 scores every memory an OR-term matches, so one common word made the search linear in
    #: the store (85 ms CPU at 100k). A store whose rowids stay at or below it is searched exactly as before.
    keyword_term_cap = 4096

    def keyword_search(self, scope: Scope, terms: Sequence[str], limit: int,
                       neighbour_weight: float = 0.5) -> builtins.list[tuple[str, float]]:
        """BM25 over `terms`, OR-ed, from the statistics of `scope.namespace` alone (storage.keyword_stats: what
        other namespaces hold never moves a score). Terms more than `keyword_term_cap` memories hold are left out;
        when every term is one of those, only the newest `keyword_term_cap` matches in scope are ranked (each term
        then weighs 1: counting its memories would cost what the cap avoids). Either way at most ~cap rows per
        term are matched and scored, whatever the store's size."""
        kept = [t for t in terms if t.replace('"', "").strip()]
        if not kept:
            return []
        where, params = self._scope_sql(scope)
        where = ann_filter.tags_checked_per_row(where)  # matches drive (CROSS JOIN); each is checked by key
        sql = ("SELECT m.rowid, m.id, {text} FROM memories_fts "
               f"CROSS JOIN memories m ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ? AND {where}")
        cap = int(self.keyword_term_cap)
        bound: tuple[int, ...] = ()
        if self._may_exceed(cap):
            counts = self._term_counts(kept, cap)
            rare = [t for t in kept if 0 < counts.get(t, 1) <= cap]  # (a term no memory holds adds nothing)
            if rare:
                kept = rare
            elif any(n > cap for n in counts.values()):  # every term found is common: rank the newest cap matches
                sql += " ORDER BY memories_fts.rowid DESC LIMIT ?"
                bound = (cap,)
        texts = list(dict.fromkeys(t.replace('"', "") for t in kept))
        phrases = [f'"{t}"' for t in texts]
        with self._read() as db:
            try:
                text = "memories_fts.body, memories_fts.neighbours" if bound else "'', ''"  # (read from the index)
                rows = db.execute(sql.replace("{text}", text), (" OR ".join(phrases), *params, *bound)).fetchall()
                docs, tokens = keyword_stats.totals(db, scope.namespace)
                hits = None if bound else [keyword_stats.namespace_hits(db, p, scope.namespace) for p in phrases]
                return keyword_stats.rank(db, [tuple(row) for row in rows], texts, hits, (docs, tokens),
                                          float(neighbour_weight), limit)
            except sqlite3.OperationalError as exc:  # a pathological query must not crash search
                raise StorageError(f"keyword search failed: {exc}") from exc

    def _may_exceed(self, cap: int) -> bool:
        """Whether any term can be held by more than `cap` memories (FTS5 rowids are memory rowids, so a store
        whose largest rowid is at most cap holds at most cap of them)."""
        with self._read() as db:
            row = db.execute("SELECT max(rowid) FROM memories").fetchone()
        return row is not None and row[0] is not None and int(row[0]) > cap

    def frequent_terms(self, terms: Sequence[str], cap: int) -> set[str]:
        """The terms that more than `cap` memories (any namespace or status) contain. Each is counted up to cap + 1
        only, so asking costs at most ~cap rows of a term's FTS5 doclist, whatever the store's size."""
        return {term for term, n in self._term_counts(terms, cap).items() if n > cap}

    def _term_counts(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        """How many memories hold each term, counted up to cap + 1 (a term FTS5 cannot parse is left out)."""
        out: dict[str, int] = {}
        with self._read() as db:
            for term in dict.fromkeys(t for t in terms if t.replace('"', "").strip()):
                phrase = f'"{term.replace(chr(34), "")}"'
                try:
                    out[term] = db.execute("SELECT COUNT(*) FROM (SELECT rowid FROM memories_fts WHERE memories_fts "
                                           "MATCH ? LIMIT ?)", (phrase, int(cap) + 1)).fetchone()[0]
                except sqlite3.OperationalError:
                    continue  # left to keyword_search (which reports it)
        return out

    def session_neighbours(self, scope: Scope, memory_ids: Sequence[str], window: int
                           ) -> dict[str, builtins.list[tuple[str, int]]]:
        """Two index range reads per anchor on idx_memories_session (namespace, session_id, created_at)."""
        ids = list(dict.fromkeys(memory_ids))[:900]
        if window <= 0 or not ids:
            return {}
        where, params = self._scope_sql(scope)
        side = (f"SELECT m.id FROM memories m INDEXED BY idx_memories_session WHERE m.namespace = ? "
                f"AND m.session_id = ? AND m.created_at {{cmp}}= ? AND (m.created_at {{cmp}} ? OR m.rowid {{cmp}} ?) "
                f"AND {where} ORDER BY m.created_at {{order}}, m.rowid {{order}} LIMIT ?")
        before, after = side.format(cmp="<", order="DESC"), side.format(cmp=">", order="ASC")
        out: dict[str, builtins.list[tuple[str, int]]] = {}
        with self._read() as db:
            anchors = db.execute(
                f"SELECT id, session_id, created_at, rowid FROM memories WHERE id IN ({','.join('?' * len(ids))}) "
                "AND namespace = ? AND session_id IS NOT NULL", (*ids, scope.namespace)).fetchall()
            for mid, session, created, rowid in anchors:
                key = (scope.namespace, session, created, created, rowid, *params, window)
                earlier = [row[0] for row in db.execute(before, key)]
                later = [row[0] for row in db.execute(after, key)]
                out[mid] = [(n, -i) for i, n in reversed(list(enumerate(earlier, start=1)))] + \
                    [(n, i) for i, n in enumerate(later, start=1)]
        return out

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
