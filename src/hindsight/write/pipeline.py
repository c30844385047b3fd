"""The write path: validate -> screen -> redact -> embed (batched) -> hygiene -> persist.

Every way in (MCP, CLI, import, Python API, consolidation output) goes through
`WritePipeline.write_many`, so the guard and redaction cannot be bypassed by
choosing another door.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.model import DEFAULT_CREDIBILITY, SESSION_CONTEXT_KEY, MemoryInput, MemoryRecord, MemoryType, Status
from hindsight.storage.base import MemoryStore, Scope

#: metadata key set on memories that read like a (loosening) directive about permissions or safety.
DIRECTIVE_KEY = "safety_directive"

WriteAction = Literal["created", "duplicate", "quarantined", "superseded", "supplemented"]


@dataclass
class WriteOutcome:
    """What happened to one write; `memory_id` is the stored (or matched) memory."""

    memory_id: str
    action: WriteAction
    status: Status
    reason: str = ""
    related_ids: list[str] = field(default_factory=list)
    redactions: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "action": self.action,
            "status": self.status.value,
            "reason": self.reason,
            "related_ids": self.related_ids,
            "redactions": self.redactions,
        }


class ScreenResult(Protocol):
    """The guard's verdict on one text (hindsight.safety.GuardVerdict satisfies it)."""

    @property
    def suspicious(self) -> bool: ...

    @property
    def reason(self) -> str: ...


class Screener(Protocol):
    """Write-time guard (hindsight.safety): flags injection, escalation, exfiltration."""

    def __call__(self, text: str) -> ScreenResult: ...


class Redactor(Protocol):
    """Replaces secrets and personal data; returns the new text and the kinds found."""

    def __call__(self, text: str) -> tuple[str, list[str]]: ...


@dataclass
class HygieneDecision:
    """What dedup/conflict detection concluded about a new memory, before it is inserted."""

    duplicate_of: str | None = None
    supersedes: list[str] = field(default_factory=list)
    supplements: list[str] = field(default_factory=list)
    reason: str = ""


class Hygiene(Protocol):
    """Dedup and conflict detection against what is already stored (hindsight.write.hygiene)."""

    def check(self, record: MemoryRecord, embedding: np.ndarray) -> HygieneDecision: ...

    def apply(self, record: MemoryRecord, decision: HygieneDecision, actor: str) -> None:
        """Refresh the duplicate, or deprecate/link the older memories, after the decision."""
        ...


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
    compose_session_vectors: bool = False

    def build_record(self, item: MemoryInput, actor: str) -> tuple[MemoryRecord, ScreenResult | None, list[str]]:
        """Screen the raw text (before redaction hides it), then redact, then fill defaults."""
        verdict = self.screener(f"{item.content}\n{item.context}") if self.screener else None
        content, context, found = item.content, item.context, []
        if self.redactor:
            content, found_content = self.redactor(item.content)
            context, found_context = self.redactor(item.context) if item.context else ("", [])
            found = sorted(set(found_content + found_context))
        now = self.clock()
        metadata = dict(item.metadata)
        if self.directive_flagger is not None and self.directive_flagger(content):
            metadata[DIRECTIVE_KEY] = True  # computed once here, so search can flag it for free
        record = MemoryRecord(
            namespace=item.namespace,
            content=content,
            type=item.type,
            tags=item.tags,
            context=context,
            importance=item.importance if item.importance is not None else 0.5,
            source=item.source,
            credibility=item.credibility if item.credibility is not None else DEFAULT_CREDIBILITY[item.source],
            status=Status.quarantined if verdict and verdict.suspicious else Status.active,
            status_reason=verdict.reason if verdict and verdict.suspicious else "",
            created_at=now,
            updated_at=now,
            event_time=item.event_time,
            source_task_id=item.source_task_id,
            session_id=item.session_id,
            created_by=actor,
            encrypted=item.private,
            metadata=metadata,
        )
        return record, verdict, found

    def write_many(self, items: Sequence[MemoryInput], actor: str) -> list[WriteOutcome]:
        """Store several memories with one batched embedding call."""
        prepared = [self.build_record(item, actor) for item in items]
        records = [record for record, _, _ in prepared]
        previous = self._attach_session_context(records)
        vectors = self._compose(records, previous) if self.compose_session_vectors else self._embed(records)
        outcomes: list[WriteOutcome] = []
        for (record, verdict, found), vector in zip(prepared, vectors):
            outcomes.append(self._persist(record, vector, verdict, found, actor))
        return outcomes

    def _embed(self, records: list[MemoryRecord]) -> np.ndarray:
        """One encoder call for the batch: what is indexed, plus the fact texts hygiene will compare.

        A turn indexed with its session's preceding turns is judged by hygiene on a vector of the fact
        alone; encoding that text here, in the same batched call, lets hygiene find it in the
        embedder's document cache instead of paying a second encoder call per write.
        """
        texts = [record.embedding_text for record in records]
        if self.hygiene is not None:
            texts += [r.fact_text for r in records if r.has_session_context and r.status == Status.active
                      and r.type != MemoryType.working]
        return self.embedder.embed_documents(texts)[: len(records)]

    def _compose(self, records: list[MemoryRecord], previous: dict[str, list[str]]) -> np.ndarray:
        """Each text encoded once: a turn's vector with session context is composed from its own vector
        and its predecessors' (already encoded when they were written, so cached), weighted by length
        the way mean pooling over the joined text would weigh them.
        """
        facts = [record.fact_text for record in records]
        earlier = list(dict.fromkeys(t for texts in previous.values() for t in texts))
        matrix = self.embedder.embed_documents(facts + earlier)
        row = {text: matrix[len(facts) + i] for i, text in enumerate(earlier)}
        out = np.array(matrix[: len(facts)], dtype=np.float32)
        for i, record in enumerate(records):
            texts = previous.get(record.id)
            if not texts or not record.has_session_context:
                continue
            mixed = _length_weight(facts[i]) * out[i]
            for text in texts:
                mixed = mixed + _length_weight(text) * row[text]
            out[i] = mixed / max(float(np.linalg.norm(mixed)), 1e-12)
        return out

    def _attach_session_context(self, records: list[MemoryRecord]) -> dict[str, list[str]]:
        """Give each turn that belongs to a session the previous turn(s) of that session as indexed context.

        Measured on LoCoMo (docs/benchmarks.md): indexing a turn with its predecessor lifts recall@10,
        because replies ("me too, every weekend") only make sense with what they answer.
        """
        joined: dict[str, list[str]] = {}
        if self.session_context_turns <= 0:
            return joined
        recent: dict[tuple[str, str], list[str]] = {}
        for record in records:
            if not record.session_id or record.type not in (MemoryType.working, MemoryType.episodic):
                continue
            key = (record.namespace, record.session_id)
            if key not in recent:
                scope = Scope(record.namespace, statuses=(Status.active,), session_id=record.session_id)
                earlier = self.store.list(scope, limit=self.session_context_turns, newest_first=True)
                recent[key] = [m.content for m in reversed(earlier)]
            previous = recent[key][-self.session_context_turns :]
            if previous and SESSION_CONTEXT_KEY not in record.metadata:
                record.metadata = {**record.metadata, SESSION_CONTEXT_KEY: " ".join(previous)}
                joined[record.id] = previous
            recent[key].append(record.content)
        return joined

    def _persist(
        self, record: MemoryRecord, vector: np.ndarray, verdict: ScreenResult | None, found: list[str], actor: str
    ) -> WriteOutcome:
        if record.status == Status.quarantined:
            self.store.insert(record, vector, actor=actor, note=f"quarantined: {record.status_reason}")
            return WriteOutcome(record.id, "quarantined", record.status, record.status_reason, redactions=found)
        decision = self.hygiene.check(record, vector) if self.hygiene else HygieneDecision()
        if decision.duplicate_of is not None:
            assert self.hygiene is not None
            self.hygiene.apply(record, decision, actor)
            return WriteOutcome(decision.duplicate_of, "duplicate", Status.active, decision.reason, redactions=found)
        self.store.insert(record, vector, actor=actor, note="redacted: " + ", ".join(found) if found else "")
        if self.hygiene is not None and (decision.supersedes or decision.supplements):
            self.hygiene.apply(record, decision, actor)
        action: WriteAction = "superseded" if decision.supersedes else "supplemented" if decision.supplements else "created"
        return WriteOutcome(record.id, action, record.status, decision.reason,
                            related_ids=decision.supersedes + decision.supplements, redactions=found)


def _length_weight(text: str) -> float:
    """Roughly the token count mean pooling gives a text: ~4 characters a token in Latin script, one in CJK."""
    wide = sum(1 for ch in text if ord(ch) > 0x2E80)
    return max(1.0, wide + (len(text) - wide) / 4)
