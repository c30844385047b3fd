"""`MemoryStore` on PostgreSQL + pgvector: one database shared by any number of hindsight servers.

Channels: dense search orders by pgvector's cosine distance (an HNSW index once the first vector fixes
the dimension; an exact scan when the scope's filter leaves the index short of `limit` hits); keyword
search is a weighted tsvector over the same jieba-aware tokens as the SQLite store (weight A: the
memory's own text and tags, B: its session neighbours; the 'english' configuration stems, as FTS5's
porter tokenizer does). Every filter is SQL inside each channel.

Concurrency: each store call borrows a pooled connection; `transaction(namespace)` pins one connection
to the calling thread and takes `pg_advisory_xact_lock` on the namespace, so two servers cannot both
decide that a fact is new (or both supersede one). The store caches nothing between calls: every read
sees what any server committed. The read channels and the scope filter are `pg_search.py`'s (a mixin).
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np

from hindsight.errors import ProviderUnavailableError, StorageError, StorageUnavailableError
from hindsight.field_rules import utcnow
from hindsight.install_hint import extra_hint
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry
from hindsight.storage.base import Edge, MemoryStore, StoreStats
from hindsight.storage.pg_erase import vacuum_erased
from hindsight.storage.pg_migrations import SCHEMA_LOCK, migrate
from hindsight.storage.pg_search import _SELECT, PostgresSearch
from hindsight.storage.records import (
    COLUMNS,
    at_ts,
    from_ts,
    index_text,
    record_values,
    row_to_record,
    to_ts,
)

#: hnsw.ef_search on every connection: the most candidates one HNSW scan returns. bench/scale.py --backend
#: postgres at 100k: 100 -> recall@10 0.934, 200 -> 0.974, 400 -> 0.990 (docs/benchmarks.md).
EF_SEARCH = 200
_FTS = "setweight(to_tsvector('english', %s), 'A') || setweight(to_tsvector('english', %s), 'B')"


#: libpq parameters a URL's query may carry that are secrets (`?password=...` is as valid as `user:pw@`)
_SECRET_PARAMS = frozenset({"password", "sslpassword"})


def redacted(url: str) -> str:
    """The URL with its password masked, in the user part and in the query (attack round 33: a password given as
    `?password=` reached the startup line, `stats` and every "cannot open database" error in clear)."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.netloc.rsplit("@", 1)[-1]
        parts = parts._replace(netloc=f"{parts.username}:***@{host}")
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if any(name.strip().lower() in _SECRET_PARAMS for name, _ in pairs):
        masked = [(name, "***" if name.strip().lower() in _SECRET_PARAMS else value) for name, value in pairs]
        parts = parts._replace(query=urlencode(masked, safe="*/:"))
    return urlunsplit(parts)


class PostgresStore(PostgresSearch, MemoryStore):
    """`MemoryStore` on PostgreSQL (psycopg 3 pool, pgvector); safe to share across threads and servers."""

    def __init__(self, url: str, pool_size: int = 8) -> None:
        try:
            import psycopg
            from pgvector.psycopg import register_vector
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError as exc:
            raise ProviderUnavailableError(
                "the PostgreSQL backend needs psycopg, psycopg_pool and pgvector: " + extra_hint("postgres")
            ) from exc
        self.url = url
        self._psycopg = psycopg
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                migrate(conn)
        except psycopg.Error as exc:
            raise StorageError(f"cannot open database '{redacted(url)}': {exc}") from exc

        def configure(conn: Any) -> None:
            register_vector(conn)
            # candidates the HNSW scan keeps; a query for more (or a filter that leaves fewer) goes exact
            conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")

        # `check`: a pooled connection is tried before it is lent (attack round 43: after PostgreSQL restarted - a
        # killed backend makes it end them all - each pooled connection failed one call with storage_unavailable)
        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=True, configure=configure,
                                    check=ConnectionPool.check_connection,
                                    kwargs={"autocommit": True, "row_factory": dict_row})
        self._local = threading.local()
        self._dim: int | None = None

    # ------------------------------------------------------------ connections
    @contextmanager
    def _conn(self) -> Iterator[Any]:
        """The thread's transaction connection, or a pooled one in autocommit mode."""
        current = getattr(self._local, "conn", None)
        if current is not None:
            yield current
            return
        try:
            with self._pool.connection() as conn:
                yield conn
        except self._psycopg.OperationalError as exc:
            raise StorageUnavailableError(f"the database is unavailable ({exc}); nothing was written, retry") from exc

    @contextmanager
    def transaction(self, namespace: str | None = None) -> Iterator[None]:
        current = getattr(self._local, "conn", None)
        if current is not None:  # nested: a savepoint, so a failed statement undoes only its own part
            with current.transaction():
                if namespace is not None:
                    self._lock_namespace(current, namespace)
                yield
            return
        try:
            with self._pool.connection() as conn, conn.transaction():
                self._local.conn = conn
                try:
                    if namespace is not None:
                        self._lock_namespace(conn, namespace)
                    yield
                finally:
                    self._local.conn = None
        except self._psycopg.OperationalError as exc:
            raise StorageUnavailableError(f"the database is unavailable ({exc}); nothing was written, retry") from exc

    @staticmethod
    def _lock_namespace(conn: Any, namespace: str) -> None:
        """Held until the transaction ends; other servers writing to the namespace wait here."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"hindsight:ns:{namespace}",))

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> builtins.list[dict[str, Any]]:
        with self._conn() as conn:
            return list(conn.execute(sql, params).fetchall())

    # ------------------------------------------------------------- aux tables
    def _json_namespace(self, col: str) -> str:
        return f"(({col})::jsonb ->> 'namespace')"

    def _meta_table(self) -> str:
        return "hindsight_meta"

    def _aux_rows(self, sql: str, params: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        return [tuple(row.values()) for row in self._rows(sql.replace("?", "%s"), params)]

    def _aux_exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        with self.transaction(), self._conn() as conn:
            return int(conn.execute(sql.replace("?", "%s"), params).rowcount)

    # ---------------------------------------------------------------- vectors
    def _ensure_dimension(self, conn: Any, dim: int) -> None:
        """Give the embedding column its dimension and HNSW index with the first vector (once per database)."""
        if self._dim == dim:
            return
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        row = conn.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = 'memories'::regclass "
                           "AND attname = 'embedding'").fetchone()
        current = int(row["atttypmod"])
        if current == dim:
            self._dim = dim
            return
        if current > 0 and conn.execute("SELECT 1 FROM memories WHERE embedding IS NOT NULL LIMIT 1").fetchone():
            raise StorageError(f"vector has dimension {dim}, the database holds {current}-dimensional vectors")
        conn.execute("DROP INDEX IF EXISTS idx_memories_embedding")
        conn.execute(f"ALTER TABLE memories ALTER COLUMN embedding TYPE vector({int(dim)})")
        conn.execute("CREATE INDEX idx_memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)")
        self._dim = dim

    @staticmethod
    def _vector(embedding: np.ndarray | None) -> np.ndarray | None:
        return None if embedding is None else np.asarray(embedding, dtype=np.float32).reshape(-1)

    def _records(self, rows: builtins.list[dict[str, Any]]) -> builtins.list[MemoryRecord]:
        return [row_to_record(row, list(row["tags"])) for row in rows]

    def _history(self, conn: Any, memory_id: str, action: str, actor: str, before: MemoryRecord | None,
                 after: MemoryRecord | None, note: str) -> None:
        conn.execute("INSERT INTO history(memory_id, action, actor, at, before, after, note) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                     (memory_id, action, actor, to_ts(utcnow()), None if before is None else before.model_dump_json(),
                      None if after is None else after.model_dump_json(), note))

    # -------------------------------------------------------------- interface
    def insert(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, note: str = "") -> None:
        self.insert_many([(record, embedding)], actor=actor, note=note)

    def insert_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]], *, actor: str,
                    note: str = "") -> None:
        """One transaction; rows and history entries each go in one pipelined `executemany`."""
        rows = [(*record_values(r), list(r.tags), *index_text(r), self._vector(v)) for r, v in items]
        ids = [r.id for r, _ in items]
        try:
            with self.transaction(), self._conn() as conn:
                taken = [i for i in dict.fromkeys(ids) if ids.count(i) > 1] if len(set(ids)) != len(ids) else \
                    [row["id"] for row in conn.execute("SELECT id FROM memories WHERE id = ANY(%s)", (ids,))]
                if taken:
                    raise StorageError(f"memory id '{taken[0]}' already exists")
                for dim in dict.fromkeys(row[-1].shape[0] for row in rows if row[-1] is not None):
                    self._ensure_dimension(conn, dim)
                at = to_ts(utcnow())
                with conn.cursor() as cursor:
                    cursor.executemany(f"INSERT INTO memories({COLUMNS}, tags, fts, embedding) VALUES "
                                       f"({', '.join(['%s'] * 21)}, {_FTS}, %s)", rows)
                    cursor.executemany("INSERT INTO history(memory_id, action, actor, at, before, after, note) "
                                       "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                                       [(r.id, "create", actor, at, None, r.model_dump_json(), note) for r, _ in items])
        except self._psycopg.errors.UniqueViolation as exc:  # written meanwhile by another server
            raise StorageError(f"memory id '{ids[0]}' already exists" if len(ids) == 1 else
                               f"a memory id of the batch already exists: {exc.diag.message_detail}") from exc
        except self._psycopg.DataError as exc:
            which = f"memory '{ids[0]}'" if len(ids) == 1 else "a memory of the batch"
            raise StorageError(f"{which} could not be stored: {exc}") from exc

    def replace(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, action: str,
                note: str = "") -> MemoryRecord:
        vector = self._vector(embedding)
        with self.transaction(), self._conn() as conn:
            rows = conn.execute(f"{_SELECT} m WHERE id = %s FOR UPDATE", (record.id,)).fetchall()
            if not rows:
                raise StorageError(f"memory '{record.id}' does not exist")
            before = self._records(rows)[0]
            assignments = ", ".join(f"{col.strip()} = %s" for col in COLUMNS.split(","))
            extra = ""
            params: builtins.list[Any] = [*record_values(record), list(record.tags), *index_text(record)]
            if vector is not None:
                self._ensure_dimension(conn, vector.shape[0])
                extra, params = ", embedding = %s", [*params, vector]
            conn.execute(f"UPDATE memories SET {assignments}, tags = %s, fts = {_FTS}{extra} WHERE id = %s",
                         (*params, record.id))
            self._history(conn, record.id, action, actor, before, record, note)
        return before

    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        with self.transaction(), self._conn() as conn:
            rows = conn.execute(f"DELETE FROM memories WHERE id = %s RETURNING {COLUMNS}, tags", (memory_id,)).fetchall()
            if not rows:
                return None
            before = self._records(rows)[0]
            conn.execute("DELETE FROM edges WHERE src = %s OR dst = %s", (memory_id, memory_id))
            self._history(conn, memory_id, "delete", actor, before, None, note)
        return before

    def compact_erased(self) -> None:
        """After a hard delete (write/erase.py): vacuum the dead row versions holding its text (storage/pg_erase.py)."""
        vacuum_erased(lambda: self._psycopg.connect(self.url, autocommit=True))

    def get(self, memory_id: str) -> MemoryRecord | None:
        records = self._records(self._rows(f"{_SELECT} WHERE id = %s", (memory_id,)))
        return records[0] if records else None

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        return {r.id: r for r in self._records(self._rows(f"{_SELECT} WHERE id = ANY(%s)", (ids,)))}

    def record_access(self, memory_ids: Sequence[str], at: datetime) -> None:
        """Rows another server is writing right now are skipped: an access count is not worth a wait."""
        if not memory_ids:
            return
        with self._conn() as conn:
            conn.execute("UPDATE memories SET access_count = access_count + 1, last_accessed_at = %s WHERE id IN "
                         "(SELECT id FROM memories WHERE id = ANY(%s) ORDER BY id FOR UPDATE SKIP LOCKED)",
                         (to_ts(at), list(memory_ids)))

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        import json

        rows = self._rows("SELECT memory_id, action, actor, at, before, after, note FROM history "
                          "WHERE memory_id = %s ORDER BY seq", (memory_id,))
        return [HistoryEntry(memory_id=r["memory_id"], action=r["action"], actor=r["actor"], at=at_ts(r["at"]),
                             before=None if r["before"] is None else json.loads(r["before"]),
                             after=None if r["after"] is None else json.loads(r["after"]), note=r["note"] or "")
                for r in rows]

    def add_edge(self, edge: Edge) -> None:
        with self.transaction(), self._conn() as conn:
            conn.execute("INSERT INTO edges(src, dst, kind, weight, created_at) VALUES (%s, %s, %s, %s, %s) "
                         "ON CONFLICT (src, dst, kind) DO UPDATE SET weight = EXCLUDED.weight, created_at = EXCLUDED.created_at",
                         (edge.src, edge.dst, edge.kind, edge.weight, to_ts(edge.created_at or utcnow())))

    def edges(self, memory_ids: Sequence[str], kinds: Sequence[str] | None = None) -> builtins.list[Edge]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        sql, params = "SELECT src, dst, kind, weight, created_at FROM edges WHERE (src = ANY(%s) OR dst = ANY(%s))", [ids, ids]
        if kinds:
            sql, params = sql + " AND kind = ANY(%s)", [*params, list(kinds)]
        return [Edge(r["src"], r["dst"], r["kind"], r["weight"], from_ts(r["created_at"])) for r in self._rows(sql, params)]

    def iter_all(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        last = 0
        while True:
            sql = f"SELECT {COLUMNS}, tags, seq FROM memories WHERE seq > %s"
            params: builtins.list[Any] = [last]
            if namespace is not None:
                sql, params = sql + " AND namespace = %s", [*params, namespace]
            rows = self._rows(sql + " ORDER BY seq LIMIT 500", params)
            if not rows:
                return
            last = rows[-1]["seq"]
            yield from self._records(rows)

    def ids_with_prefix(self, prefix: str, namespace: str, limit: int = 2) -> builtins.list[str]:
        """In the database (attack round 20: the generic walk shipped every memory of the namespace to Python on each
        id that matched nothing, ~1 s per `memory_get` of a read token at 20,000 memories); `starts_with` compares
        the text as given, so `_`, `%` and `\\` in a prefix are no wildcards."""
        rows = self._rows("SELECT id FROM memories WHERE namespace = %s AND starts_with(id, %s) ORDER BY id LIMIT %s",
                          (namespace, prefix, limit))
        return [str(r["id"]) for r in rows]

    def stats(self, namespace: str | None = None) -> StoreStats:
        where, params = ("WHERE namespace = %s", [namespace]) if namespace else ("", [])
        counts = {col: {r["k"]: int(r["n"]) for r in self._rows(
            f"SELECT {col} AS k, COUNT(*) AS n FROM memories {where} GROUP BY {col}", params)}
            for col in ("status", "type", "namespace")}
        return StoreStats(total=sum(counts["status"].values()), by_status=counts["status"], by_type=counts["type"],
                          namespaces=counts["namespace"], embedding_model=self.embedding_model, path=redacted(self.url))

    @property
    def embedding_model(self) -> str | None:
        rows = self._rows("SELECT value FROM hindsight_meta WHERE key = 'embedding_model'")
        return None if not rows else str(rows[0]["value"])

    def set_embedding_model(self, model_name: str) -> None:
        with self.transaction(), self._conn() as conn:
            conn.execute("INSERT INTO hindsight_meta(key, value) VALUES ('embedding_model', %s) "
                         "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", (model_name,))

    def reset_embeddings(self, model_name: str, vectors: dict[str, np.ndarray]) -> None:
        with self.transaction(), self._conn() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            conn.execute("UPDATE memories SET embedding = NULL WHERE embedding IS NOT NULL")
            if vectors:
                self._dim = None
                self._ensure_dimension(conn, int(np.asarray(next(iter(vectors.values()))).reshape(-1).shape[0]))
                with conn.cursor() as cursor:
                    cursor.executemany("UPDATE memories SET embedding = %s WHERE id = %s",
                                       [(self._vector(v), mid) for mid, v in vectors.items()])
            self.set_embedding_model(model_name)

    def close(self) -> None:
        self._pool.close()
