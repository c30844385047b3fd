"""The Python API: `hindsight.Memory(path)`, a thin typed facade the CLI mirrors one to one."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry, SearchFilters, SearchHit
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import StoreStats
from hindsight.summarize import SummaryStyle
from hindsight.write.pipeline import WriteOutcome


class Memory:
    """Long-term memory in one SQLite file.

    >>> mem = Memory("memory.db")
    >>> mem.add("The user prefers TypeScript over JavaScript", type="semantic", source="user").memory_id
    """

    def __init__(self, path: str | Path | None = None, *, namespace: str = "default",
                 settings: HindsightSettings | None = None, embedder: Embedder | None = None) -> None:
        self.engine = MemoryEngine.open(path, settings=settings, embedder=embedder)
        self.namespace = namespace

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.close()

    def add(self, content: str, *, idempotency_key: str | None = None, **fields: Any) -> WriteOutcome:
        """Store one memory; fields are those of MemoryInput (type, tags, context, importance, source...).

        With `idempotency_key`, a repeat of the same key stores nothing and answers the first result.
        """
        return self.engine.store_memory({"namespace": self.namespace, **fields, "content": content},
                                        idempotency_key=idempotency_key)

    def add_many(self, items: Sequence[dict[str, Any]]) -> builtins.list[WriteOutcome]:
        """Store many memories with one batched embedding pass."""
        return self.engine.store_many([{"namespace": self.namespace, **item} for item in items])

    def search(self, query: str, *, top_k: int = 5, filters: SearchFilters | dict[str, Any] | None = None,
               now: datetime | None = None, options: SearchOptions | None = None) -> builtins.list[SearchHit]:
        return self.engine.search(query, self.namespace, filters, top_k, now, options)

    def get(self, memory_id: str) -> MemoryRecord:
        return self.engine.get(memory_id, self.namespace)

    def list(self, *, filters: SearchFilters | dict[str, Any] | None = None, limit: int = 20,
             offset: int = 0) -> tuple[builtins.list[MemoryRecord], int]:
        return self.engine.list(self.namespace, filters, limit, offset)

    def update(self, memory_id: str, **updates: Any) -> MemoryRecord:
        return self.engine.update(memory_id, updates, self.namespace)

    def forget(self, memory_id: str, reason: str = "") -> MemoryRecord:
        return self.engine.forget(memory_id, reason, self.namespace)

    def delete(self, memory_id: str, reason: str = "") -> MemoryRecord:
        return self.engine.delete(memory_id, self.namespace, reason=reason)

    def summarize(self, memory_ids: Sequence[str], style: SummaryStyle = "brief") -> dict[str, Any]:
        return self.engine.summarize(memory_ids, style, self.namespace)

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        return self.engine.history(memory_id, self.namespace)

    def stats(self) -> StoreStats:
        return self.engine.stats(self.namespace)

    def export(self, out: IO[str]) -> int:
        return self.engine.export_jsonl(out, self.namespace)

    def import_(self, lines: Iterable[str]) -> builtins.list[WriteOutcome]:
        return self.engine.import_jsonl(lines, namespace=self.namespace)
