"""The PostgreSQL store's read side (a mixin of `PostgresStore`): a scope as SQL inside every channel, a page and a
count of a scope, dense search (pgvector's HNSW index first, the exact scan of the scope when the filter leaves the
index short of `limit` hits), keyword search (`ts_rank` over the weighted tsvector: A the memory's own text and
tags, B its session neighbours), session neighbours (`pg_neighbours`) and stored vectors by id."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.model import MemoryRecord
from hindsight.storage import pg_neighbours
from hindsight.storage.base import Scope
from hindsight.storage.records import COLUMNS, to_ts

_SELECT = f"SELECT {COLUMNS}, tags FROM memories"


def _array(value: Any) -> np.ndarray:
    """pgvector returns numpy arrays or its `Vector` type, depending on the version."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


class PostgresSearch:
    """Needs `_conn`, `_rows`, `_records`, `_vector` and `_psycopg` (set by PostgresStore)."""

    _psycopg: Any

    if TYPE_CHECKING:
        def _conn(self) -> AbstractContextManager[Any]: ...
        def _rows(self, sql: str, params: Sequence[Any] = ()) -> builtins.list[dict[str, Any]]: ...
        def _records(self, rows: builtins.list[dict[str, Any]]) -> builtins.list[MemoryRecord]: ...
        @staticmethod
        def _vector(embedding: np.ndarray | None) -> np.ndarray | None: ...

    @staticmethod
    def _scope_sql(scope: Scope) -> tuple[str, builtins.list[Any]]:
        clauses = ["m.namespace = %s", "m.status = ANY(%s)"]
        params: builtins.list[Any] = [scope.namespace, [s.value for s in scope.statuses]]
        for column, values in (("type", scope.types), ("source", scope.sources)):
            if values:
                clauses.append(f"m.{column} = ANY(%s)")
                params.append([v.value for v in values])
        if scope.tags:
            clauses.append("m.tags && %s::text[]")
            params.append(list(scope.tags))
        if scope.time_from is not None:
            clauses.append("COALESCE(m.event_time, m.created_at) >= %s")
            params.append(to_ts(scope.time_from))
        if scope.time_to is not None:
            clauses.append("COALESCE(m.event_time, m.created_at) <= %s")
            params.append(to_ts(scope.time_to))
        if scope.min_importance is not None:
            clauses.append("m.importance >= %s")
            params.append(scope.min_importance)
        for column, value in (("source_task_id", scope.source_task_id), ("session_id", scope.session_id)):
            if value is not None:
                clauses.append(f"m.{column} = %s")
                params.append(value)
        return " AND ".join(clauses), params

    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> builtins.list[MemoryRecord]:
        where, params = self._scope_sql(scope)
        order = "DESC" if newest_first else "ASC"
        return self._records(self._rows(f"{_SELECT} m WHERE {where} ORDER BY m.created_at {order}, m.seq {order} "
                                        "LIMIT %s OFFSET %s", (*params, limit, offset)))

    def count(self, scope: Scope) -> int:
        where, params = self._scope_sql(scope)
        return int(self._rows(f"SELECT COUNT(*) AS n FROM memories m WHERE {where}", params)[0]["n"])

    def dense_search(self, scope: Scope, vector: np.ndarray, limit: int) -> builtins.list[tuple[str, float]]:
        """HNSW first; when the filter leaves the index short of `limit` hits, the exact scan of the scope."""
        if limit <= 0:
            return []
        query = self._vector(vector)
        where, params = self._scope_sql(scope)
        sql = (f"SELECT m.id, 1 - (m.embedding <=> %s) AS score FROM memories m WHERE {where} "
               "AND m.embedding IS NOT NULL ORDER BY {order} LIMIT %s")
        with self._conn() as conn:
            rows = conn.execute(sql.format(order="m.embedding <=> %s"), (query, *params, query, limit)).fetchall()
            if len(rows) < limit:
                rows = conn.execute(sql.format(order="(m.embedding <=> %s) + 0"), (query, *params, query, limit)).fetchall()
        return [(row["id"], float(row["score"])) for row in rows]

    def keyword_search(self, scope: Scope, terms: Sequence[str], limit: int,
                       neighbour_weight: float = 0.5) -> builtins.list[tuple[str, float]]:
        words = [t for t in terms if t.strip()]
        if not words:
            return []
        where, params = self._scope_sql(scope)
        tsquery = " || ".join(["plainto_tsquery('english', %s)"] * len(words))
        sql = (f"SELECT m.id, ts_rank(%s::float4[], m.fts, q.q, 1) AS rank FROM memories m, (SELECT {tsquery} AS q) q "
               f"WHERE m.fts @@ q.q AND {where} ORDER BY rank DESC, m.seq LIMIT %s")
        weights = [0.0, 0.0, float(neighbour_weight), 1.0]  # D, C, B (neighbours), A (the memory itself)
        try:
            rows = self._rows(sql, (weights, *words, *params, limit))
        except self._psycopg.Error as exc:  # a pathological query must not crash search
            raise StorageError(f"keyword search failed: {exc}") from exc
        return [(row["id"], float(row["rank"])) for row in rows]

    def session_neighbours(self, scope: Scope, memory_ids: Sequence[str], window: int
                           ) -> dict[str, builtins.list[tuple[str, int]]]:
        where, params = self._scope_sql(scope)
        return pg_neighbours.session_neighbours(self._rows, where, params, scope.namespace, memory_ids, window)

    def get_embeddings(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        ids = list(dict.fromkeys(memory_ids))
        rows = self._rows("SELECT id, embedding FROM memories WHERE id = ANY(%s) AND embedding IS NOT NULL", (ids,))
        return {row["id"]: _array(row["embedding"]) for row in rows}
