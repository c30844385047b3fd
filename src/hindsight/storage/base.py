"""The storage interface: the only way the engine reaches persisted memories.

Every backend (the embedded SQLite store, a Qdrant cluster store) implements
`MemoryStore` and passes the same conformance suite (tests/test_storage_conformance.py).
Filters are applied *inside* each retrieval channel so that a filtered query
still gets its full top-50 candidates per channel.
"""

from __future__ import annotations

import builtins
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from hindsight.errors import ProviderUnavailableError, StorageError
from hindsight.model import MemoryRecord, MemoryType, Source, Status
from hindsight.read_model import HistoryEntry, SearchFilters
from hindsight.storage.aux_tables import AuxTables


@dataclass(frozen=True)
class Scope:
    """Which memories a channel may see: one namespace plus resolved filters.

    `statuses` is always explicit here (the engine resolves the default), so a
    backend never has to guess whether deprecated memories are wanted.
    """

    namespace: str
    statuses: tuple[Status, ...] = (Status.active,)
    types: tuple[MemoryType, ...] | None = None
    tags: tuple[str, ...] | None = None
    time_from: datetime | None = None
    time_to: datetime | None = None
    min_importance: float | None = None
    source_task_id: str | None = None
    session_id: str | None = None
    sources: tuple[Source, ...] | None = None

    @classmethod
    def from_filters(cls, namespace: str, filters: SearchFilters | None, default_statuses: Sequence[Status]) -> Scope:
        f = filters or SearchFilters()
        return cls(
            namespace=namespace,
            statuses=tuple(f.statuses) if f.statuses else tuple(default_statuses),
            types=tuple(f.types) if f.types else None,
            tags=tuple(f.tags) if f.tags else None,
            time_from=f.time_from,
            time_to=f.time_to,
            min_importance=f.min_importance,
            source_task_id=f.source_task_id,
            session_id=f.session_id,
            sources=tuple(f.sources) if f.sources else None,
        )


@dataclass
class Edge:
    """A typed relation between two memories (supersedes, supplements, derived_from, same_task)."""

    src: str
    dst: str
    kind: str
    weight: float = 1.0
    created_at: datetime | None = None


@dataclass
class StoreStats:
    """Counts for `stats`; `by_status` and `by_type` map enum values to counts."""

    total: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    by_type: dict[str, int] = field(default_factory=dict)
    namespaces: dict[str, int] = field(default_factory=dict)
    embedding_model: str | None = None
    path: str | None = None


class MemoryStore(AuxTables, ABC):
    """Persistence + per-channel candidate generation. No ranking policy lives here.

    A store owns everything persistent: memories, vectors, keyword index, history, edges, and (through
    `AuxTables`) tokens, audit, review proposals and idempotency records. Nothing else opens a connection.
    """

    #: True when private memories can be written (the `EncryptedStore` wrapper holds a key).
    supports_encryption: bool = False

    def seal_text(self, text: str, bound: str) -> str:
        """`text` sealed under the store's key with `bound` (an id) as associated data, for private content kept
        outside the memory rows (a proposal's payload, a request fingerprint). Without a key: refused."""
        raise ProviderUnavailableError("private content needs an encryption key: set HINDSIGHT_ENCRYPTION_KEY or "
                           "HINDSIGHT_KEY_FILE; nothing was stored")

    def open_text(self, text: str, bound: str) -> str:
        """What `seal_text` sealed (a value that was never sealed comes back as it is)."""
        return text

    @abstractmethod
    def transaction(self, namespace: str | None = None) -> AbstractContextManager[None]:
        """Every store call inside the block commits together, or none does (nesting joins the outer block).

        With a namespace, writers to that namespace wait for each other, also across processes and servers
        on one database: a hygiene decision (duplicate? supersedes?) and the writes it leads to are made
        against a state no other writer can change in between.
        """

    @abstractmethod
    def insert(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, note: str = "") -> None:
        """Persist a new memory (and its vector) atomically, with a history entry."""

    @abstractmethod
    def replace(
        self,
        record: MemoryRecord,
        embedding: np.ndarray | None,
        *,
        actor: str,
        action: str,
        note: str = "",
    ) -> MemoryRecord:
        """Overwrite an existing memory; a new embedding replaces the old one when given.

        Returns the previous version; history keeps before and after.
        """

    @abstractmethod
    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        """Remove a memory for good (history keeps its last state). Returns it, or None."""

    @abstractmethod
    def get(self, memory_id: str) -> MemoryRecord | None:
        """Fetch one memory by id regardless of namespace (the engine enforces scope)."""

    @abstractmethod
    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Fetch several memories by id in one round trip."""

    @abstractmethod
    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> builtins.list[MemoryRecord]:
        """Page through memories in scope, ordered by created time."""

    def namespace_lock(self, namespace: str) -> AbstractContextManager[None]:
        """Held while a write decides (hygiene) and stores: writers to one namespace take turns.

        Default: a transaction holding the namespace (PostgreSQL: an advisory lock all servers see, and the
        decision's reads happen inside it). The SQLite store overrides it with an in-process lock, so that a
        slow decision (an LLM judge, fact embeddings) does not hold the file's write lock. Reentrant; take it
        before `transaction`, never inside one (the order that keeps two writers from waiting on each other).
        """
        return self.transaction(namespace)

    @abstractmethod
    def count(self, scope: Scope) -> int:
        """Number of memories in scope."""

    @abstractmethod
    def dense_search(self, scope: Scope, vector: np.ndarray, limit: int) -> builtins.list[tuple[str, float]]:
        """Top `limit` (id, cosine) pairs in scope, best first."""

    @abstractmethod
    def keyword_search(self, scope: Scope, terms: Sequence[str], limit: int,
                       neighbour_weight: float = 0.5) -> builtins.list[tuple[str, float]]:
        """Top `limit` (id, bm25 score; higher is better) pairs in scope for the query terms.

        Matches in the memory's session neighbours count `neighbour_weight` times a match in the memory itself.
        """

    @abstractmethod
    def session_neighbours(self, scope: Scope, memory_ids: Sequence[str], window: int
                           ) -> dict[str, builtins.list[tuple[str, int]]]:
        """Ids of the memories around each given one in its session, from an index: no record is read.

        For each of `memory_ids` that exists in `scope.namespace` and has a session: up to `window` memories of
        that session before it and `window` after it, in write order (created time, then insertion), counting
        only memories inside `scope` (a deprecated turn is skipped when the scope wants active ones). Each is
        `(id, offset)`: offset -1 is the memory written just before, +1 just after. Sorted by offset; the
        memory itself is never listed. Ids without a session, unknown or in another namespace get no entry.
        """

    @abstractmethod
    def get_embeddings(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors for the given ids (used by dedup and consolidation)."""

    @abstractmethod
    def record_access(self, memory_ids: Sequence[str], at: datetime) -> None:
        """Bump access counts and last-access time (not a content change: no history entry)."""

    @abstractmethod
    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """All changes to a memory, oldest first."""

    @abstractmethod
    def add_edge(self, edge: Edge) -> None:
        """Store (or refresh) a relation between two memories."""

    @abstractmethod
    def edges(self, memory_ids: Sequence[str], kinds: Sequence[str] | None = None) -> builtins.list[Edge]:
        """Edges touching any of the given memories, in either direction."""

    @abstractmethod
    def iter_all(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        """Every memory (optionally one namespace), for export and re-indexing."""

    def ids_with_prefix(self, prefix: str, namespace: str, limit: int = 2) -> builtins.list[str]:
        """Ids in `namespace` that start with `prefix` (at most `limit`); backends may override with an index."""
        found: builtins.list[str] = []
        for record in self.iter_all(namespace):
            if record.id.startswith(prefix):
                found.append(record.id)
                if len(found) >= limit:
                    break
        return found

    def all_history(self) -> Iterator[HistoryEntry]:
        """Every history entry of the store in write order, deleted memories included (for backups). Portable SQL
        over the history table (before attack round 15 only SQLite had it: `hindsight backup FILE.jsonl` of a
        PostgreSQL store ended in a NotImplementedError traceback)."""
        last = 0
        while True:
            rows = self._aux_rows("SELECT seq, memory_id, action, actor, at, before, after, note FROM history "
                                  "WHERE seq > ? ORDER BY seq LIMIT 1000", (last,))
            if not rows:
                return
            last = int(rows[-1][0])
            for _, memory_id, action, actor, at, before, after, note in rows:
                yield HistoryEntry(memory_id=memory_id, action=action, actor=actor,
                                   at=datetime.fromtimestamp(float(at), tz=UTC), note=note or "",
                                   before=None if before is None else json.loads(before),
                                   after=None if after is None else json.loads(after))

    def all_edges(self) -> builtins.list[Edge]:
        """Every edge (for backups)."""
        return [Edge(src, dst, kind, float(weight),
                     None if created is None else datetime.fromtimestamp(float(created), tz=UTC))
                for src, dst, kind, weight, created in self._aux_rows(
                    "SELECT src, dst, kind, weight, created_at FROM edges ORDER BY src, dst, kind")]

    def restore_raw(self, records: Sequence[tuple[MemoryRecord, np.ndarray | None]],
                    history: Sequence[HistoryEntry], edges: Sequence[Edge]) -> None:
        """Load a backup verbatim into an empty store: records (with vectors), history entries and edges as they
        were, with no new history written, in one transaction. Only `MemoryEngine.restore` calls this."""
        with self.transaction():
            if self._aux_rows("SELECT 1 FROM memories LIMIT 1") or self._aux_rows("SELECT 1 FROM history LIMIT 1"):
                raise StorageError("restore needs an empty database; this store already holds memories")
            for record, embedding in records:
                self.restore(record, embedding, [])  # the record as it was; its history follows in write order
            for entry in history:
                self.restore_history_entry(entry)
            for edge in edges:
                self.add_edge(edge)

    @abstractmethod
    def stats(self, namespace: str | None = None) -> StoreStats:
        """Counts by status, type and namespace."""

    @property
    @abstractmethod
    def embedding_model(self) -> str | None:
        """Name of the embedder whose vectors are stored (None for an empty store)."""

    @abstractmethod
    def set_embedding_model(self, model_name: str) -> None:
        """Record which embedder produced the stored vectors (first open of a new store)."""

    @abstractmethod
    def reset_embeddings(self, model_name: str, vectors: dict[str, np.ndarray]) -> None:
        """Replace every stored vector (after an embedder change) and record the new model name."""

    def restore(self, record: MemoryRecord, embedding: np.ndarray | None, history: Sequence[HistoryEntry]) -> None:
        """Copy a memory in as it was elsewhere, with its own history instead of a new `create` entry
        (`hindsight migrate`; the record arrives as stored, private ones still sealed). One transaction."""
        with self.transaction(record.namespace):
            self.insert(record, embedding, actor="migrate", note="")
            self._aux_exec("DELETE FROM history WHERE memory_id = ?", (record.id,))
            for entry in history:
                self.restore_history_entry(entry)

    def insert_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]], *, actor: str,
                    note: str = "") -> None:
        """Persist many new memories in one transaction (bulk loads); backends override it with a batched path."""
        with self.transaction():
            for record, embedding in items:
                self.insert(record, embedding, actor=actor, note=note)

    def restore_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None, Sequence[HistoryEntry]]]) -> None:
        """`restore` for a batch, in one transaction (`hindsight migrate`); backends may batch it further."""
        with self.transaction():
            for record, embedding, history in items:
                self.restore(record, embedding, history)

    def restore_history_entry(self, entry: HistoryEntry) -> None:
        """Append one history entry as it was recorded elsewhere (`hindsight migrate`)."""
        self.history_add(entry.memory_id, entry.action, entry.actor, entry.at.timestamp(),
                         None if entry.before is None else json.dumps(entry.before, ensure_ascii=False),
                         None if entry.after is None else json.dumps(entry.after, ensure_ascii=False), entry.note)

    @abstractmethod
    def close(self) -> None:
        """Flush and release resources."""
