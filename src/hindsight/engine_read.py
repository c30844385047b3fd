"""The engine's read side: get, list, search, summarize, history, related memories, stats, the quarantine
list and the dense index's archive boundary.

A mixin of `MemoryEngine` (engine.py), kept apart so each module has one job. Namespace scoping is enforced
here for every read: a memory outside the caller's namespace is reported as not found.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hindsight.embeddings.cache_scope import cache_scope
from hindsight.errors import InvalidInputError, MemoryNotFoundError, ambiguous_prefix, validated
from hindsight.field_rules import MAX_OFFSET, check_time, has_visible_text
from hindsight.model import MemoryRecord, Status
from hindsight.read_model import HistoryEntry, SearchFilters, SearchHit
from hindsight.retrieval.read_guard import DIRECTIVE
from hindsight.retrieval.search import SearchOptions
from hindsight.safety import flag_directive
from hindsight.safety.withhold import withhold
from hindsight.storage.base import Edge, Scope, StoreStats
from hindsight.storage.encrypted import elsewhere_absent
from hindsight.summarize import SummaryStyle
from hindsight.write.labels import session_label
from hindsight.write.pipeline import DIRECTIVE_KEY
from hindsight.write.text_rules import check_text

if TYPE_CHECKING:
    from hindsight.config import HindsightSettings
    from hindsight.retrieval.search import HybridRetriever
    from hindsight.storage.base import MemoryStore
    from hindsight.summarize import Summarizer

MAX_TOP_K = 100
MAX_PAGE = 500
MAX_QUERY_CHARS = 2_000
#: memory_search's default `min_relevance`: keep every hit (each carries its `relevance`).
DEFAULT_MIN_RELEVANCE = 0.0


class ReadMixin:
    """Needs the engine's `store`, `settings`, `retriever`, `summarizer` and `clock`."""

    if TYPE_CHECKING:
        store: MemoryStore
        settings: HindsightSettings
        retriever: HybridRetriever
        summarizer: Summarizer
        clock: Callable[[], datetime]

    def get(self, memory_id: str, namespace: str = "default", record_access: bool = True) -> MemoryRecord:
        """One memory by id, within the namespace."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInputError("memory_id: must be a non-empty string")
        record = elsewhere_absent(lambda: self.store.get(memory_id.strip()), namespace)
        if record is None or record.namespace != namespace:
            raise MemoryNotFoundError(memory_id, namespace)
        if record_access:
            self.store.record_access([record.id], self.clock())
        return record

    def resolve_id(self, memory_id: str, namespace: str = "default") -> str:
        """A whole id, or the one memory in the namespace whose id starts with `memory_id` (as people type ids).

        Several matches raise InvalidInputError naming them; no match raises MemoryNotFoundError naming the field
        `memory_id` (the CLI's `history` still reads a hard-deleted memory by its whole id: cli.py).
        """
        wanted = memory_id.strip() if isinstance(memory_id, str) else ""
        if not wanted:
            raise InvalidInputError("memory_id: must be a non-empty string")
        found = elsewhere_absent(lambda: self.store.get(wanted), namespace)
        if found is not None and found.namespace == namespace:
            return wanted
        matches = self.store.ids_with_prefix(wanted, namespace, limit=3)
        if len(matches) > 1:
            raise ambiguous_prefix("memory_id", wanted, matches, "memories")
        if not matches:
            raise MemoryNotFoundError(wanted, namespace, field="memory_id")
        return matches[0]

    def list(self, namespace: str = "default", filters: SearchFilters | dict[str, Any] | None = None,
             limit: int = 20, offset: int = 0) -> tuple[builtins.list[MemoryRecord], int]:
        """A page of memories (newest first) and the total matching count."""
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidInputError(f"limit: must be between 1 and {MAX_PAGE}")
        if not 0 <= offset <= MAX_OFFSET:
            raise InvalidInputError(f"offset: must be between 0 and {MAX_OFFSET}")
        scope = self._scope(namespace, filters, list_all=True)
        return self.store.list(scope, limit=limit, offset=offset), self.store.count(scope)

    def search(
        self,
        query: str,
        namespace: str = "default",
        filters: SearchFilters | dict[str, Any] | None = None,
        top_k: int = 5,
        now: datetime | None = None,
        options: SearchOptions | None = None,
        min_relevance: float | None = None,
        record_access: bool = True,
    ) -> builtins.list[SearchHit]:
        """Hybrid search; see HybridRetriever. `now` fixes the reference time for decay and 'last week'.

        `min_relevance` (default DEFAULT_MIN_RELEVANCE, i.e. keep every hit) drops hits whose calibrated
        `relevance` (estimated probability of being relevant) is lower; 0.5 keeps only likely matches.
        `record_access=False`: the read does not count towards the hits' access factor (a read-only caller's).
        """
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query: must contain non-whitespace text")
        check_text(query, "query")
        if not has_visible_text(query):
            raise InvalidInputError("query: must contain visible text (not only control or zero-width characters)")
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"query: must be at most {MAX_QUERY_CHARS} characters")
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInputError(f"top_k: must be between 1 and {MAX_TOP_K}")
        if min_relevance is not None:
            if not isinstance(min_relevance, int | float) or not 0.0 <= min_relevance <= 1.0:
                raise InvalidInputError("min_relevance: must be a number between 0 and 1")
            options = replace(options or SearchOptions(), min_relevance=float(min_relevance))
        try:
            reference = check_time(now, "now") if now else self.clock()
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        assert reference is not None
        with cache_scope(namespace):  # another namespace's cached query vectors are no hit (round 34)
            hits = self.retriever.search(query.strip(), self._scope(namespace, filters), top_k, reference, options)
        if self.settings.retrieval.record_access and record_access and hits:
            self.store.record_access([h.memory.id for h in hits], self.clock())
        return hits

    def summarize(self, memory_ids: Sequence[str], style: SummaryStyle = "brief",
                  namespace: str = "default", reveal_quarantined: bool = True) -> dict[str, Any]:
        """Summary of the given memories (all must exist in the namespace)."""
        if not memory_ids:
            raise InvalidInputError("memory_ids: must list at least one id")
        if style not in ("brief", "detailed", "structured"):
            raise InvalidInputError("style: must be one of brief, detailed, structured")
        records = [self.get(mid, namespace, record_access=False) for mid in dict.fromkeys(memory_ids)]
        records = records if reveal_quarantined else [withhold(r) for r in records]  # safety/withhold.py
        summary, method = self.summarizer.summarize(records, style)
        # pieces joined into one text read as one: the read-time flag search gives a piece is given to the whole,
        # and the joined text is read again (an order split across memories; attack round 8)
        directive = any(r.metadata.get(DIRECTIVE_KEY) for r in records) or flag_directive(summary)
        answer: dict[str, Any] = {"summary": summary, "method": method, "memory_ids": [r.id for r in records], "style": style,
                                  "flags": [DIRECTIVE] if directive else []}
        # a forgotten or replaced memory is summarised as asked, but said (ux round 45: a summary re-told a
        # forgotten note with nothing to show it had been forgotten)
        retired = [{"id": r.id, "status": r.status.value} for r in records if r.status != Status.active]
        if retired:
            answer["not_active"] = retired
        return answer

    def history(self, memory_id: str, namespace: str = "default") -> builtins.list[HistoryEntry]:
        """Every change to a memory (also after a hard delete, for the namespace it lived in)."""
        entries = elsewhere_absent(lambda: self.store.history(memory_id), namespace) or []
        last = next((e.after or e.before for e in reversed(entries) if (e.after or e.before)), None)
        if not entries or (last or {}).get("namespace") != namespace:
            raise MemoryNotFoundError(memory_id, namespace)
        return entries

    def related(self, memory_id: str, namespace: str = "default") -> builtins.list[tuple[Edge, MemoryRecord]]:
        """The memory's edges (supersedes, supplements, derived_from, ...) whose other end is in the same namespace."""
        self.get(memory_id, namespace, record_access=False)
        edges = self.store.edges([memory_id])
        others = self.store.get_many([e.dst if e.src == memory_id else e.src for e in edges])
        out = []
        for edge in edges:
            other = others.get(edge.dst if edge.src == memory_id else edge.src)
            if other is not None and other.namespace == namespace:
                out.append((edge, other))
        return out

    def stats(self, namespace: str | None = None) -> StoreStats:
        return self.store.stats(namespace)

    def archive(self, before: datetime | None) -> datetime | None:
        """Move the recent/archive boundary of dense search (storage.ann_partition); None removes it."""
        backend = getattr(self.store, "inner", self.store)  # the encryption wrapper holds the backend
        setter = getattr(backend, "set_archive_boundary", None)
        if setter is None:
            raise InvalidInputError("archive: this storage backend has no recent/archive partitions")
        if before is not None and before.tzinfo is None:
            raise InvalidInputError("before: give a time zone (e.g. 2025-06-01T00:00:00Z)")
        setter(before)
        return before

    # ------------------------------------------------------------- quarantine
    def quarantined(self, namespace: str = "default", limit: int = 50, offset: int = 0,
                    filters: SearchFilters | dict[str, Any] | None = None) -> tuple[builtins.list[MemoryRecord], int]:
        """Writes the guard held back, newest first, with the reason and rule/score in `status_reason`; `filters`
        (type, tags, time, source, ...; not statuses) narrow them as they narrow `list`."""
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidInputError(f"limit: must be between 1 and {MAX_PAGE}")
        if not 0 <= offset <= MAX_OFFSET:
            raise InvalidInputError(f"offset: must be between 0 and {MAX_OFFSET}")
        scope = replace(self._scope(namespace, filters), statuses=(Status.quarantined,))
        return self.store.list(scope, limit=limit, offset=offset), self.store.count(scope)

    # ---------------------------------------------------------------- helpers
    def _scope(self, namespace: str, filters: SearchFilters | dict[str, Any] | None, list_all: bool = False) -> Scope:
        parsed = validated(SearchFilters, filters, "filters")
        if parsed is not None and (parsed.session_id or parsed.source_task_id):  # stored under their pseudonyms
            parsed = parsed.model_copy(update={  # when they hold a mailbox (write/labels.py)
                "session_id": session_label(self.store, parsed.session_id),
                "source_task_id": session_label(self.store, parsed.source_task_id, "task")})
        default = (Status.active, Status.deprecated, Status.forgotten) if list_all else (Status.active,)
        return Scope.from_filters(namespace, parsed, default)
