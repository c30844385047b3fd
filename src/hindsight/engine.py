"""The engine: owns the write path and the search path; every skin is a thin layer over it.

The MCP server, the CLI and the Python API call these methods and only
translate arguments and errors. Namespace scoping is enforced here, once: a
memory outside the caller's namespace is reported as not found, so its
existence does not leak.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ValidationError

from hindsight.config import HindsightSettings
from hindsight.consolidate import ConsolidationReport, Consolidator
from hindsight.conversations import ConversationsMixin
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.factory import create_embedder
from hindsight.errors import (
    InvalidInputError,
    MemoryNotFoundError,
    PermissionDeniedError,
    ProviderUnavailableError,
    format_validation_error,
)
from hindsight.llm import LLMClient, create_llm
from hindsight.model import (
    MAX_OFFSET,
    RESERVED_METADATA_KEYS,
    HistoryEntry,
    MemoryInput,
    MemoryPatch,
    MemoryRecord,
    SearchFilters,
    SearchHit,
    Status,
    check_time,
    has_visible_text,
    utcnow,
)
from hindsight.retrieval.rerank import Reranker, create_reranker
from hindsight.retrieval.search import HybridRetriever, SearchOptions
from hindsight.safety import WriteGuard, flag_directive, redactor
from hindsight.security.claims import bind_changes, bind_inputs, lowering_note
from hindsight.storage.base import Edge, MemoryStore, Scope, StoreStats
from hindsight.storage.factory import open_store
from hindsight.summarize import Summarizer, SummaryStyle
from hindsight.working import WorkingMemory
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds
from hindsight.write.idempotency import outcome_from_dict, run_idempotent
from hindsight.write.importer import ImportReport, first_private_line, parse_lines, run_import
from hindsight.write.pipeline import WriteOutcome, WritePipeline

MAX_TOP_K = 100
MAX_PAGE = 500
MAX_QUERY_CHARS = 2_000
#: memory_search's default `min_relevance`: keep every hit (each carries its `relevance`).
DEFAULT_MIN_RELEVANCE = 0.0


def validated(model: type[BaseModel], data: Any, what: str) -> Any:
    """Validate `data` into `model`, raising InvalidInputError that names the field and rule."""
    if isinstance(data, model):
        return data
    if data is not None and not isinstance(data, dict):
        raise InvalidInputError(f"{what} must be an object, got {type(data).__name__}")
    try:
        return model.model_validate(data or {})
    except ValidationError as exc:
        raise InvalidInputError(f"invalid {what}: {format_validation_error(exc)}") from exc


class MemoryEngine(ConversationsMixin):
    """All memory operations over one store."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        settings: HindsightSettings | None = None,
        reranker: Reranker | None = None,
        clock: Callable[[], datetime] = utcnow,
        llm: LLMClient | None = None,
    ) -> None:
        self.settings = settings or HindsightSettings()
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.llm = llm or create_llm(
            self.settings.llm_url, self.settings.llm_model, self.settings.llm_api_key, self.settings.llm_timeout
        )
        self.retriever = HybridRetriever(store, embedder, self.settings, reranker)
        self.summarizer = Summarizer(embedder, self.llm)
        self.hygiene = (HygieneChecker(store, embedder, HygieneThresholds.for_model(embedder.name), self.llm, clock)
                        if self.settings.hygiene else None)
        self.writer = WritePipeline(
            store=store, embedder=embedder, clock=clock, hygiene=self.hygiene,
            screener=WriteGuard(use_classifier=self.settings.guard == "on") if self.settings.guard != "off" else None,
            redactor=redactor if self.settings.redact else None,
            session_context_turns=self.settings.session_context_turns,
            compose_session_vectors=self.settings.session_vector == "compose",
            directive_flagger=flag_directive,
            budget_s=self.settings.write_budget_s,
        )
        self.working = WorkingMemory(self.settings.working_memory_turns)
        self._check_embedding_model()

    @classmethod
    def open(cls, path: str | Path | None = None, settings: HindsightSettings | None = None,
             embedder: Embedder | None = None) -> MemoryEngine:
        """The store `path` names (a SQLite file or URL, or postgresql://...; default: settings.db) plus the
        configured embedder and reranker."""
        settings = settings or HindsightSettings()
        store = open_store(path if path is not None else settings.db, settings)
        try:
            llm = create_llm(settings.llm_url, settings.llm_model, settings.llm_api_key, settings.llm_timeout)
            return cls(
                store,
                embedder or create_embedder(settings.embedder),
                settings,
                reranker=create_reranker(settings.reranker, llm),
                llm=llm,
            )
        except Exception:
            store.close()
            raise

    def _check_embedding_model(self) -> None:
        """First open records the model; a different model re-embeds every memory once."""
        stored = self.store.embedding_model
        if stored == self.embedder.name:
            return
        records = list(self.store.iter_all())
        vectors = self.embedder.embed_documents([r.embedding_text for r in records])
        self.store.reset_embeddings(self.embedder.name, {r.id: v for r, v in zip(records, vectors)})

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ write
    def store_memory(self, data: MemoryInput | dict[str, Any], actor: str = "local",
                     idempotency_key: str | None = None) -> WriteOutcome:
        """Validate and store one memory; see WritePipeline for the stages.

        With `idempotency_key`, one memory per key and namespace: a repeat answers the first result
        (see write/idempotency.py).
        """
        item = validated(MemoryInput, data, "memory")
        if idempotency_key is None:
            return self.store_many([item], actor)[0]
        return outcome_from_dict(self.idempotent(
            item.namespace, idempotency_key, lambda memory_id: self.store_many([item], actor, [memory_id])[0].as_dict(),
            item.model_dump(mode="json")))

    def admit(self, items: Sequence[MemoryInput], actor: str, relayed: bool = False) -> builtins.list[MemoryInput]:
        """The items as `actor` may write them: `source` and `credibility` are bound to who writes
        (security/claims.py). Every write runs it; the review door runs it before queueing a proposal."""
        return bind_inputs(items, actor, relayed)

    def idempotent(self, namespace: str, key: str | None,
                   write: Callable[[str | None], dict[str, Any]], request: object = None) -> dict[str, Any]:
        """Run a write once per (namespace, key); `write` gets the memory id the new memory must take. The same key
        with a different `request` (what the caller asked for) is an `idempotency_conflict`."""
        return run_idempotent(self.store, namespace, key, write, request)

    def store_many(self, items: Sequence[MemoryInput | dict[str, Any]], actor: str = "local",
                   ids: Sequence[str | None] | None = None, relayed: bool = False) -> builtins.list[WriteOutcome]:
        """Store several memories with batched embedding. All are validated before any is written.

        `relayed`: the items are what the server derived from an agent's report (see `admit`)."""
        inputs = self.admit([validated(MemoryInput, item, "memory") for item in items], actor, relayed)
        if any(item.private for item in inputs) and not getattr(self.store, "supports_encryption", False):
            raise ProviderUnavailableError(
                "private memories need an encryption key: set HINDSIGHT_ENCRYPTION_KEY (see `hindsight keygen`) "
                "or HINDSIGHT_KEY_FILE; nothing was stored")
        return self.writer.write_many(inputs, actor, ids=ids)

    def update(self, memory_id: str, updates: MemoryPatch | dict[str, Any], namespace: str = "default",
               actor: str = "local") -> MemoryRecord:
        """Change content or weights; new content is re-screened, re-redacted and re-embedded."""
        patch = validated(MemoryPatch, updates, "updates")
        current = self.get(memory_id, namespace, record_access=False)
        changes = patch.model_dump(exclude_unset=True)
        status_change = "status" in changes and changes["status"] != current.status
        if status_change and current.status == Status.quarantined:
            raise PermissionDeniedError(
                "updates.status: a quarantined memory leaves quarantine only through memory_quarantine_release "
                "(admin scope); nothing was changed")
        text_changed = any(key in changes and changes[key] != getattr(current, key) for key in ("content", "context"))
        changes = bind_changes(current, changes, actor)  # any change by one who may not claim the source lowers it
        lowered = lowering_note(current, changes, actor)
        fields_changed = text_changed or any(key in changes for key in ("tags", "metadata"))
        if fields_changed:
            # new caller text (content, context, tags, metadata) is screened and redacted like a new memory
            probe = MemoryInput(content=changes.get("content", current.content),
                                context=changes.get("context", current.context), namespace=namespace, type=current.type,
                                tags=changes.get("tags", current.tags), metadata=changes.get("metadata", {}))
            screened, _, _ = self.writer.build_record(probe, actor)
            changes["content"], changes["context"], changes["tags"] = screened.content, screened.context, screened.tags
            if "metadata" in changes:  # the keys only the write path sets are kept
                kept = {k: v for k, v in current.metadata.items() if k in RESERVED_METADATA_KEYS}
                changes["metadata"] = {**screened.metadata, **kept}
            if screened.status == Status.quarantined:
                changes["status"] = Status.quarantined
                changes["status_reason"] = screened.status_reason
        elif status_change and changes["status"] == Status.active:
            # every status change goes through the guard: a memory brought back into use is screened again
            own = {k: v for k, v in current.metadata.items() if k not in RESERVED_METADATA_KEYS}
            verdict = self.writer.screen(current.content, current.context, current.tags, own)
            if verdict is not None and verdict.suspicious:
                changes["status"], changes["status_reason"] = Status.quarantined, verdict.reason
        try:
            updated = MemoryRecord.model_validate({**current.model_dump(), **changes, "updated_at": self.clock()})
        except ValidationError as exc:
            raise InvalidInputError(f"invalid updates: {format_validation_error(exc)}") from exc
        note = ", ".join(sorted(changes)) + (f"; {lowered}" if lowered else "")
        self.writer.apply_change(updated, actor=actor, action="update", note=note, reembed=text_changed)
        return updated

    def forget(self, memory_id: str, reason: str = "", namespace: str = "default", actor: str = "local") -> MemoryRecord:
        """Soft delete: status 'forgotten' with the reason; it sinks in search and stays in history."""
        current = self.get(memory_id, namespace, record_access=False)
        if current.status == Status.quarantined:
            raise PermissionDeniedError(
                "memory_id: a quarantined memory leaves quarantine only through memory_quarantine_release (admin "
                "scope) or is deleted; nothing was changed")
        updated = current.model_copy(
            update={"status": Status.forgotten, "status_reason": reason or "forgotten", "updated_at": self.clock()}
        )
        self.writer.apply_change(updated, actor=actor, action="forget", note=reason)
        return updated

    def delete(self, memory_id: str, namespace: str = "default", actor: str = "local", reason: str = "") -> MemoryRecord:
        """Hard delete (explicit, separate from forget): the row goes, the history entry stays."""
        self.get(memory_id, namespace, record_access=False)
        deleted = self.writer.remove(memory_id, namespace, actor=actor, note=reason)
        if deleted is None:
            raise MemoryNotFoundError(memory_id, namespace)
        return deleted

    # ------------------------------------------------------------------- read
    def get(self, memory_id: str, namespace: str = "default", record_access: bool = True) -> MemoryRecord:
        """One memory by id, within the namespace."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInputError("memory_id must be a non-empty string")
        record = self.store.get(memory_id.strip())
        if record is None or record.namespace != namespace:
            raise MemoryNotFoundError(memory_id, namespace)
        if record_access:
            self.store.record_access([record.id], self.clock())
        return record

    def resolve_id(self, memory_id: str, namespace: str = "default") -> str:
        """A whole id, or the one memory in the namespace whose id starts with `memory_id` (as people type ids).

        Several matches raise InvalidInputError naming them; no match returns the input, so the caller's own
        lookup reports not_found (history of a hard-deleted memory still works with its whole id).
        """
        wanted = memory_id.strip() if isinstance(memory_id, str) else ""
        if not wanted:
            raise InvalidInputError("memory_id must be a non-empty string")
        found = self.store.get(wanted)
        if found is not None and found.namespace == namespace:
            return wanted
        matches = self.store.ids_with_prefix(wanted, namespace, limit=3)
        if len(matches) > 1:
            shown = ", ".join(matches[:2]) + (", ..." if len(matches) > 2 else "")
            raise InvalidInputError(f"memory_id: prefix '{wanted}' matches several memories ({shown}); "
                                    "type more characters")
        return matches[0] if matches else wanted

    def list(self, namespace: str = "default", filters: SearchFilters | dict[str, Any] | None = None,
             limit: int = 20, offset: int = 0) -> tuple[builtins.list[MemoryRecord], int]:
        """A page of memories (newest first) and the total matching count."""
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidInputError(f"limit must be between 1 and {MAX_PAGE}")
        if not 0 <= offset <= MAX_OFFSET:
            raise InvalidInputError(f"offset must be between 0 and {MAX_OFFSET}")
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
    ) -> builtins.list[SearchHit]:
        """Hybrid search; see HybridRetriever. `now` fixes the reference time for decay and 'last week'.

        `min_relevance` (default DEFAULT_MIN_RELEVANCE, i.e. keep every hit) drops hits whose calibrated
        `relevance` (estimated probability of being relevant) is lower; 0.5 keeps only likely matches.
        """
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query must contain non-whitespace text")
        if not has_visible_text(query):
            raise InvalidInputError("query must contain visible text (not only control or zero-width characters)")
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"query is longer than {MAX_QUERY_CHARS} characters")
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInputError(f"top_k must be between 1 and {MAX_TOP_K}")
        if min_relevance is not None:
            if not isinstance(min_relevance, int | float) or not 0.0 <= min_relevance <= 1.0:
                raise InvalidInputError("min_relevance must be a number between 0 and 1")
            options = replace(options or SearchOptions(), min_relevance=float(min_relevance))
        try:
            reference = check_time(now, "now") if now else self.clock()
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        assert reference is not None
        hits = self.retriever.search(query.strip(), self._scope(namespace, filters), top_k, reference, options)
        if self.settings.retrieval.record_access and hits:
            self.store.record_access([h.memory.id for h in hits], self.clock())
        return hits

    def summarize(self, memory_ids: Sequence[str], style: SummaryStyle = "brief",
                  namespace: str = "default") -> dict[str, Any]:
        """Summary of the given memories (all must exist in the namespace)."""
        if not memory_ids:
            raise InvalidInputError("memory_ids must list at least one id")
        if style not in ("brief", "detailed", "structured"):
            raise InvalidInputError("style must be one of: brief, detailed, structured")
        records = [self.get(mid, namespace, record_access=False) for mid in dict.fromkeys(memory_ids)]
        summary, method = self.summarizer.summarize(records, style)
        return {"summary": summary, "method": method, "memory_ids": [r.id for r in records], "style": style}

    def history(self, memory_id: str, namespace: str = "default") -> builtins.list[HistoryEntry]:
        """Every change to a memory (also after a hard delete, for the namespace it lived in)."""
        entries = self.store.history(memory_id)
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

    # ---------------------------------------------------------- consolidation
    def consolidate(self, namespace: str = "default", actor: str = "consolidator",
                    progress: Callable[[int, int], None] | None = None) -> ConsolidationReport:
        """Promote recurring episodic memories to semantic ones and merge near-duplicate semantic memories.

        Safe to run periodically (idempotent); new memories go through the full write path (guard included).
        """
        # a consolidated memory's source and credibility come from stored memories, already bound when written
        consolidator = Consolidator(self.store, self.embedder, self.llm, self.clock,
                                    write=lambda items: self.store_many(items, str(actor)), actor=actor)
        return consolidator.run(namespace, progress)

    # ------------------------------------------------------------- quarantine
    def quarantined(self, namespace: str = "default", limit: int = 50, offset: int = 0) -> tuple[builtins.list[MemoryRecord], int]:
        """Writes the guard held back, newest first, with the reason and rule/score in `status_reason`."""
        if not 1 <= limit <= MAX_PAGE or not 0 <= offset <= MAX_OFFSET:
            raise InvalidInputError(f"limit must be between 1 and {MAX_PAGE}, offset between 0 and {MAX_OFFSET}")
        scope = Scope(namespace, statuses=(Status.quarantined,))
        return self.store.list(scope, limit=limit, offset=offset), self.store.count(scope)

    def release(self, memory_id: str, namespace: str = "default", actor: str = "local", note: str = "") -> MemoryRecord:
        """An admin judged a quarantined memory legitimate: make it active (the decision is in history)."""
        current = self.store.get(memory_id)
        if current is None or current.namespace != namespace or current.status != Status.quarantined:
            raise MemoryNotFoundError(memory_id, f"{namespace} (quarantine)")
        released = current.model_copy(update={"status": Status.active, "status_reason": "", "updated_at": self.clock()})
        self.writer.apply_change(released, actor=actor, action="release", note=note or current.status_reason)
        return released

    # ------------------------------------------------------------ import/export
    def export_jsonl(self, out: IO[str], namespace: str | None = None) -> int:
        """Write every memory as one JSON object per line (private ones in plaintext, marked encrypted, so an
        import seals them again); returns the count. Without the key, private memories cannot be exported:
        refused before anything is written (`hindsight backup` copies them sealed)."""
        if not getattr(self.store, "supports_encryption", False):
            sealed = getattr(self.store, "iter_sealed", self.store.iter_all)
            if any(record.encrypted for record in sealed(namespace)):
                raise ProviderUnavailableError("export: private memories need the encryption key to be exported: "
                                               "set HINDSIGHT_ENCRYPTION_KEY, or use `hindsight backup` (keeps "
                                               "them sealed); nothing was written")
        count = 0
        for record in self.store.iter_all(namespace):
            out.write(record.model_dump_json() + "\n")
            count += 1
        return count

    def import_jsonl(self, lines: Iterable[str | bytes], actor: str = "import",
                     namespace: str | None = None) -> builtins.list[WriteOutcome]:
        """Re-ingest exported lines through the full write path; see `import_report`."""
        return self.import_report(lines, actor, namespace).outcomes

    def import_report(self, lines: Iterable[str | bytes], actor: str = "import",
                      namespace: str | None = None) -> ImportReport:
        """Re-ingest exported lines (guard and redaction included), resumably (see write/importer.py).

        Invalid lines (not UTF-8, not JSON, a bad field) abort the import before anything is written, naming the
        line; each line then lands whole with its status; lines an earlier run imported are skipped.
        """
        parsed = parse_lines(lines, namespace)
        private_line = first_private_line(parsed)
        if private_line is not None and not getattr(self.store, "supports_encryption", False):
            raise ProviderUnavailableError(f"line {private_line}: private memories need an encryption key: set "
                                           "HINDSIGHT_ENCRYPTION_KEY; nothing was imported")
        bind_inputs([line.item for line in parsed], actor)  # what the importer may claim (raises before any write)
        return run_import(self.writer, self.store, parsed, actor)

    # ---------------------------------------------------------------- helpers
    def _scope(self, namespace: str, filters: SearchFilters | dict[str, Any] | None, list_all: bool = False) -> Scope:
        parsed = validated(SearchFilters, filters, "filters")
        default = (Status.active, Status.deprecated, Status.forgotten) if list_all else (Status.active,)
        return Scope.from_filters(namespace, parsed, default)
