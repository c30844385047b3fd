"""The SQLite store's read side: records by id, by scope, in pages; their history and edges; counts, store
statistics and the recorded embedding model; an idempotency key's result (a mixin of `SQLiteStore`).

Split out of `sqlite_store.py` (round 33). Every read goes through `_read()` (storage/sqlite_conn.py): this thread's
read-only WAL connection, or the writer inside a write transaction. `_scope_sql` is the generic scope condition,
also read by the search side (storage/sqlite_search.py); storage/sqlite_scope.py drives a scope from its indexes.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry
from hindsight.storage.base import Edge, Scope, StoreStats
from hindsight.storage.records import COLUMNS as _COLUMNS
from hindsight.storage.records import at_ts, row_to_record
from hindsight.storage.records import from_ts as _dt
from hindsight.storage.records import to_ts as _ts


class SQLiteReads:
    """Needs `path` and `_read` (set by SQLiteStore and its connections mixin)."""

    path: str

    if TYPE_CHECKING:  # provided by SQLiteConnections
        def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...

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

    def get_idempotent(self, namespace: str, key: str) -> tuple[str, str] | None:
        with self._read() as db:
            row = db.execute("SELECT result, request_hash FROM idempotency WHERE namespace = ? AND key = ?",
                             (namespace, key)).fetchone()
        return None if row is None else (str(row[0]), str(row[1] or ""))
