"""The write path's contracts: what a write returns (`WriteOutcome`), what an imported memory comes back with
(`Restore`), what hygiene decides (`HygieneDecision`), and the protocols of the pipeline's collaborators (the
guard, the redactor, hygiene). Kept apart from `write/pipeline.py` so that collaborators (write/hygiene.py) and
callers can name these types without the pipeline's machinery; `write.pipeline` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from hindsight.model import MemoryRecord, Status

if TYPE_CHECKING:
    from hindsight.safety.redact import RedactionResult

WriteAction = Literal["created", "duplicate", "quarantined", "superseded", "supplemented"]


@dataclass
class WriteOutcome:
    """What happened to one write; `memory_id` is the stored (or matched) memory. `related_ids`: the older memories
    the write retired or linked; `supersedes`: those of them it retired (now deprecated), so a caller can tell the
    two apart from the answer alone (mcpeq43)."""

    memory_id: str
    action: WriteAction
    status: Status
    reason: str = ""
    related_ids: list[str] = field(default_factory=list)
    redactions: list[str] = field(default_factory=list)
    supersedes: list[str] = field(default_factory=list)
    #: a user correction's answer (write/correction.py): {"corrected": id or None, "correction_note": why}
    correction: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "action": self.action,
            "status": self.status.value,
            "reason": self.reason,
            "related_ids": self.related_ids,
            "redactions": self.redactions,
            "supersedes": self.supersedes,
            **(self.correction or {}),
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
    """Replaces secrets and personal data; returns the new text, its findings (each value's kind and span in the
    text given) and the kinds found (`hindsight.safety.redact.redact` satisfies it). The write path reads a text
    once and hands the findings down (`write/redaction.py`)."""

    def __call__(self, text: str) -> RedactionResult: ...


@dataclass(frozen=True)
class Restore:
    """What an imported memory comes back with besides its input: its lifecycle and write-path metadata."""

    status: Status = Status.active
    reason: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class HygieneDecision:
    """What dedup/conflict detection concluded about a new memory, before it is inserted."""

    duplicate_of: str | None = None
    supersedes: list[str] = field(default_factory=list)
    supplements: list[str] = field(default_factory=list)
    reason: str = ""
    adopt_text: bool = False  # the duplicate's new text says more: it becomes the memory's text (the old in history)
    held_by: str | None = None  # a vetoed change candidate that keeps the write's one supersede (hygiene round 31d)
    correction: bool = False  # the write is an explicit user correction (write/correction.py)
    corrected: str | None = None  # the memory the correction retires
    correction_note: str = ""  # what it corrected, or why nothing

    def correction_answer(self) -> dict[str, Any] | None:
        """What a correction's answer says of it (None for any other write)."""
        return {"corrected": self.corrected, "correction_note": self.correction_note} if self.correction else None


class Hygiene(Protocol):
    """Dedup and conflict detection against what is already stored (hindsight.write.hygiene)."""

    def check(self, record: MemoryRecord, embedding: np.ndarray) -> HygieneDecision: ...

    def apply(self, record: MemoryRecord, decision: HygieneDecision, actor: str,
              vector: np.ndarray | None = None) -> None:
        """Refresh the duplicate, or deprecate/link the older memories, after the decision (`vector`: the new
        record's, for a duplicate that takes the new text)."""
        ...
