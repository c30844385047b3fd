"""The embedded default store: one SQLite file (WAL) holds everything.

Tables: memories, tags, an FTS5 index over jieba-segmented text (plain FTS5
cannot split Chinese words), embeddings (float32 blobs), an append-only
history, relations (edges) and a meta table with the schema version. The
vector index is rebuilt from the embeddings table on open.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.errors import StorageError
from hindsight.model import SESSION_CONTEXT_KEY, HistoryEntry, MemoryRecord, utcnow
from hindsight.security.crypto import MemoryCipher
from hindsight.storage.base import Edge, MemoryStore, Scope, StoreStats
from hindsight.storage.migrations import migrate
from hindsight.storage.sqlite_backup import _COLUMNS, SQLiteBackupMixin, _dt, _ts
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex
from hindsight.text.tokenize import tokenize


def _index_text(record: MemoryRecord) -> tuple[str, str]:
    """What BM25 sees, segmented so Chinese words are terms: (the memory's own text, its session neighbours).

    Two FTS5 columns so a match in the memory itself outranks a match only in the preceding turn.
    Private (encrypted) memories expose only their tags: the index must not hold their plaintext.
    """
    tags = " ".join(record.tags)
    if record.encrypted:
        return " ".join(tokenize(tags)), ""
    own = " ".join([record.content, record.context, tags])
    neighbours = str(record.metadata.get(SESSION_CONTEXT_KEY, ""))
    return " ".join(tokenize(own)), " ".join(tokenize(neighbours)) if neighbours else ""


class SQLiteStore(SQLiteBackupMixin, MemoryStore):
    """`MemoryStore` on a single SQLite file; safe to share across threads."""

    def __init__(self, path: str | Path, cipher: MemoryCipher | None = None,
                 vector_index: VectorIndex | None = None) -> None:
        """`vector_index`: where dense vectors are searched (default: exact, in process; or Qdrant)."""
        self._cipher = cipher
        self.path = str(path) if str(path) == ":memory:" else str(Path(path).expanduser())
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open database '{self.path}': {exc}") from exc
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        try:
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("PRAGMA foreign_keys=ON")
                migrate(self._db)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StorageError(f"cannot open database '{self.path}': not a usable hindsight database ({exc})") from exc
        except StorageError:
            self._db.close()
            raise
        self._index: VectorIndex = vector_index if vector_index is not None else ExactVectorIndex()
        self._load_vectors()

    @property
    def index_size(self) -> int:
        """Vectors held by the dense index (for /metrics)."""
        return len(self._index)

    @property
    def supports_encryption(self) -> bool:
        """True when a key is configured, so private memories can be written."""
        return self._cipher is not None

    # ----------------------------------------------------------------- helpers
    def _tx(self) -> _Transaction:
        return _Transaction(self._db, self._lock)

    def _load_vectors(self) -> None:
        rows = self._db.execute("SELECT memory_rowid, vector FROM embeddings").fetchall()
        self._index.sync({row["memory_rowid"]: np.frombuffer(row["vector"], dtype=np.float32) for row in rows})

    def _rowid(self, memory_id: str) -> int | None:
        row = self._db.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return None if row is None else int(row[0])

    def _open(self, memory_id: str, text: str, encrypted: bool) -> str:
        if not encrypted or not text:
            return text
        if self._cipher is None:
            return "[encrypted: set HINDSIGHT_ENCRYPTION_KEY to read]"
        return self._cipher.decrypt(text, memory_id)

    def _seal(self, record: MemoryRecord) -> MemoryRecord:
        """The record as stored: private content and context encrypted (history snapshots too)."""
        if not record.encrypted:
            return record
        if self._cipher is None:
            raise StorageError("private memories need an encryption key: set HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE")
        metadata = dict(record.metadata)
        if "preceding_turn" in metadata:
            metadata["preceding_turn"] = self._cipher.encrypt(str(metadata["preceding_turn"]), record.id)
        return record.model_copy(update={
            "content": self._cipher.encrypt(record.content, record.id),
            "context": self._cipher.encrypt(record.context, record.id) if record.context else "",
            "metadata": metadata,
        })

    def _row_to_record(self, row: sqlite3.Row, tags: builtins.list[str]) -> MemoryRecord:
        encrypted = bool(row["encrypted"])
        metadata = json.loads(row["metadata"])
        if encrypted and "preceding_turn" in metadata:
            metadata["preceding_turn"] = self._open(row["id"], metadata["preceding_turn"], True)
        return MemoryRecord(
            id=row["id"],
            namespace=row["namespace"],
            content=self._open(row["id"], row["content"], encrypted),
            type=row["type"],
            tags=tags,
            context=self._open(row["id"], row["context"], encrypted),
            importance=row["importance"],
            source=row["source"],
            credibility=row["credibility"],
            status=row["status"],
            status_reason=row["status_reason"],
            created_at=_dt(row["created_at"]),
            updated_at=_dt(row["updated_at"]),
            event_time=_dt(row["event_time"]),
            last_accessed_at=_dt(row["last_accessed_at"]),
            access_count=row["access_count"],
            source_task_id=row["source_task_id"],
            session_id=row["session_id"],
            created_by=row["created_by"],
            encrypted=encrypted,
            metadata=metadata,
        )

    def _records(self, rows: builtins.list[sqlite3.Row]) -> builtins.list[MemoryRecord]:
        if not rows:
            return []
        rowids = [row["rowid"] for row in rows]
        tags: dict[int, builtins.list[str]] = {rid: [] for rid in rowids}
        for chunk_start in range(0, len(rowids), 900):
            chunk = rowids[chunk_start : chunk_start + 900]
            marks = ",".join("?" * len(chunk))
            for tag_row in self._db.execute(
                f"SELECT memory_rowid, tag FROM tags WHERE memory_rowid IN ({marks}) ORDER BY position", chunk
            ):
                tags[tag_row[0]].append(tag_row[1])
        return [self._row_to_record(row, tags[row["rowid"]]) for row in rows]

    def _values(self, record: MemoryRecord) -> tuple[Any, ...]:
        record = self._seal(record)
        return (
            record.id,
            record.namespace,
            record.content,
            record.type.value,
            record.context,
            record.importance,
            record.source.value,
            record.credibility,
            record.status.value,
            record.status_reason,
            _ts(record.created_at),
            _ts(record.updated_at),
            _ts(record.event_time),
            _ts(record.last_accessed_at),
            record.access_count,
            record.source_task_id,
            record.session_id,
            record.created_by,
            int(record.encrypted),
            json.dumps(record.metadata, ensure_ascii=False, default=str),
        )

    def _write_side_tables(self, rowid: int, record: MemoryRecord, embedding: np.ndarray | None) -> None:
        self._db.execute("DELETE FROM tags WHERE memory_rowid = ?", (rowid,))
        self._db.executemany(
            "INSERT INTO tags(memory_rowid, tag, position) VALUES (?, ?, ?)",
            [(rowid, tag, i) for i, tag in enumerate(record.tags)],
        )
        self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
        self._db.execute("INSERT INTO memories_fts(rowid, body, neighbours) VALUES (?, ?, ?)",
                         (rowid, *_index_text(record)))
        if embedding is not None:
            vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
            self._db.execute(
                "INSERT OR REPLACE INTO embeddings(memory_rowid, vector) VALUES (?, ?)", (rowid, vector.tobytes())
            )

    def _history(self, memory_id: str, action: str, actor: str, before: MemoryRecord | None,
                 after: MemoryRecord | None, note: str) -> None:
        self._db.execute(
            "INSERT INTO history(memory_id, action, actor, at, before, after, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                memory_id,
                action,
                actor,
                _ts(utcnow()),
                None if before is None else self._seal(before).model_dump_json(),
                None if after is None else self._seal(after).model_dump_json(),
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
        with self._tx():
            try:
                cursor = self._db.execute(
                    f"INSERT INTO memories({_COLUMNS}) VALUES ({','.join('?' * 20)})", self._values(record)
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"memory id '{record.id}' already exists") from exc
            rowid = int(cursor.lastrowid or 0)
            self._write_side_tables(rowid, record, embedding)
            self._history(record.id, "create", actor, None, record, note)
        if embedding is not None:
            self._index.upsert(rowid, embedding)

    def replace(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, action: str,
                note: str = "") -> MemoryRecord:
        with self._tx():
            before = self.get(record.id)
            rowid = self._rowid(record.id)
            if before is None or rowid is None:
                raise StorageError(f"memory '{record.id}' does not exist")
            assignments = ", ".join(f"{col.strip()} = ?" for col in _COLUMNS.split(","))
            self._db.execute(f"UPDATE memories SET {assignments} WHERE rowid = ?", (*self._values(record), rowid))
            self._write_side_tables(rowid, record, embedding)
            self._history(record.id, action, actor, before, record, note)
        if embedding is not None:
            self._index.upsert(rowid, embedding)
        return before

    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        with self._tx():
            before = self.get(memory_id)
            rowid = self._rowid(memory_id)
            if before is None or rowid is None:
                return None
            self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
            self._db.execute("DELETE FROM edges WHERE src = ? OR dst = ?", (memory_id, memory_id))
            self._history(memory_id, "delete", actor, before, None, note)
        self._index.remove(rowid)
        return before

    def get(self, memory_id: str) -> MemoryRecord | None:
        with self._lock:
            rows = self._db.execute(f"SELECT rowid, {_COLUMNS} FROM memories WHERE id = ?", (memory_id,)).fetchall()
            records = self._records(rows)
        return records[0] if records else None

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        out: dict[str, MemoryRecord] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._lock:
            for start in range(0, len(ids), 900):
                chunk = ids[start : start + 900]
                rows = self._db.execute(
                    f"SELECT rowid, {_COLUMNS} FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk
                ).fetchall()
                out.update((r.id, r) for r in self._records(rows))
        return out

    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> builtins.list[MemoryRecord]:
        where, params = self._scope_sql(scope)
        order = "DESC" if newest_first else "ASC"
        with self._lock:
            rows = self._db.execute(
                f"SELECT m.rowid, {_COLUMNS} FROM memories m WHERE {where} "
                f"ORDER BY m.created_at {order}, m.rowid {order} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
            return self._records(rows)

    def count(self, scope: Scope) -> int:
        where, params = self._scope_sql(scope)
        with self._lock:
            return int(self._db.execute(f"SELECT COUNT(*) FROM memories m WHERE {where}", params).fetchone()[0])

    def dense_search(self, scope: Scope, vector: np.ndarray, limit: int) -> builtins.list[tuple[str, float]]:
        where, params = self._scope_sql(scope)
        with self._lock:
            allowed = np.fromiter(
                (r[0] for r in self._db.execute(f"SELECT m.rowid FROM memories m WHERE {where}", params)),
                dtype=np.int64,
            )
        if allowed.size == 0:
            return []
        hits = self._index.search(vector, allowed, limit)
        if not hits:
            return []
        with self._lock:
            marks = ",".join("?" * len(hits))
            ids = dict(self._db.execute(f"SELECT rowid, id FROM memories WHERE rowid IN ({marks})", [h[0] for h in hits]))
        return [(ids[rowid], score) for rowid, score in hits if rowid in ids]

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
        with self._lock:
            try:
                rows = self._db.execute(sql, (" OR ".join(quoted), *params, limit)).fetchall()
            except sqlite3.OperationalError as exc:  # a pathological query must not crash search
                raise StorageError(f"keyword search failed: {exc}") from exc
        return [(row[0], -float(row[1])) for row in rows]

    def get_embeddings(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._lock:
            for start in range(0, len(ids), 900):
                chunk = ids[start : start + 900]
                for row in self._db.execute(
                    "SELECT m.id, e.vector FROM embeddings e JOIN memories m ON m.rowid = e.memory_rowid "
                    f"WHERE m.id IN ({','.join('?' * len(chunk))})",
                    chunk,
                ):
                    out[row[0]] = np.frombuffer(row[1], dtype=np.float32)
        return out

    def record_access(self, memory_ids: Sequence[str], at: datetime) -> None:
        if not memory_ids:
            return
        with self._tx():
            self._db.executemany(
                "UPDATE memories SET access_count = access_count + 1, last_accessed_at = ? WHERE id = ?",
                [(_ts(at), memory_id) for memory_id in memory_ids],
            )

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT memory_id, action, actor, at, before, after, note FROM history WHERE memory_id = ? ORDER BY seq",
                (memory_id,),
            ).fetchall()
        return [
            HistoryEntry(
                memory_id=row["memory_id"],
                action=row["action"],
                actor=row["actor"],
                at=_dt(row["at"]),
                before=None if row["before"] is None else json.loads(row["before"]),
                after=None if row["after"] is None else json.loads(row["after"]),
                note=row["note"] or "",
            )
            for row in rows
        ]

    def add_edge(self, edge: Edge) -> None:
        with self._tx():
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
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [Edge(r[0], r[1], r[2], r[3], _dt(r[4])) for r in rows]

    def ids_with_prefix(self, prefix: str, namespace: str, limit: int = 2) -> builtins.list[str]:
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._lock:
            rows = self._db.execute("SELECT id FROM memories WHERE namespace = ? AND id LIKE ? ESCAPE '\\' "
                                    "ORDER BY id LIMIT ?", (namespace, pattern, limit)).fetchall()
        return [str(r[0]) for r in rows]

    def iter_all(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        last = 0
        while True:
            with self._lock:
                sql = f"SELECT rowid, {_COLUMNS} FROM memories WHERE rowid > ?"
                params: builtins.list[Any] = [last]
                if namespace is not None:
                    sql += " AND namespace = ?"
                    params.append(namespace)
                rows = self._db.execute(sql + " ORDER BY rowid LIMIT 500", params).fetchall()
                records = self._records(rows)
            if not rows:
                return
            last = rows[-1]["rowid"]
            yield from records

    def stats(self, namespace: str | None = None) -> StoreStats:
        where, params = ("WHERE namespace = ?", [namespace]) if namespace else ("", [])
        with self._lock:
            by_status = dict(self._db.execute(f"SELECT status, COUNT(*) FROM memories {where} GROUP BY status", params).fetchall())
            by_type = dict(self._db.execute(f"SELECT type, COUNT(*) FROM memories {where} GROUP BY type", params).fetchall())
            namespaces = dict(
                self._db.execute(f"SELECT namespace, COUNT(*) FROM memories {where} GROUP BY namespace", params).fetchall()
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
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
        return None if row is None else str(row[0])

    def set_embedding_model(self, model_name: str) -> None:
        """Record which embedder produced the stored vectors (first open of a new file)."""
        with self._tx():
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedding_model', ?)", (model_name,))

    def reset_embeddings(self, model_name: str, vectors: dict[str, np.ndarray]) -> None:
        with self._tx():
            self._db.execute("DELETE FROM embeddings")
            rowids = dict(self._db.execute("SELECT id, rowid FROM memories"))
            self._db.executemany(
                "INSERT INTO embeddings(memory_rowid, vector) VALUES (?, ?)",
                [(rowids[mid], np.asarray(v, dtype=np.float32).tobytes()) for mid, v in vectors.items() if mid in rowids],
            )
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedding_model', ?)", (model_name,))
        self._index.clear()
        self._load_vectors()

    def close(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._db.close()
        self._index.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT under the store lock; rolls back on any error (nothing half-written)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock
        self._outer = False

    def __enter__(self) -> None:
        self._lock.acquire()
        self._outer = not self._db.in_transaction
        if self._outer:
            self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if self._outer:
                self._db.execute("ROLLBACK" if exc_type else "COMMIT")
        finally:
            self._lock.release()
