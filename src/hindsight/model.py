"""The memory data model shared by every layer: the stored record, what a write may send, what an update may change.

Pydantic models validate at the edge (MCP, CLI, API) so that a bad request is
rejected with the field name and the rule it broke, before anything touches
storage. The rules themselves are `field_rules.py`'s; what reads take and return is `read_model.py`'s.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hindsight.field_rules import (
    SESSION_CONTEXT_KEY,
    as_utc,
    check_future,
    check_metadata,
    check_time,
    check_visible,
    clean_tags,
    utcnow,
)
from hindsight.security.namespace_names import (
    MAX_NAMESPACE_CHARS,
    NAMESPACE_PATTERN,
    check_namespace,
    new_tag,
)
from hindsight.write.text_rules import check_fields, check_identifiers

MAX_CONTENT_CHARS = 20_000
MAX_CONTEXT_CHARS = 4_000


class MemoryType(str, Enum):
    """Which kind of memory: working: the current session's last turns; episodic: one task or session;
    semantic: generalised knowledge; warning: what failed, kept for avoidance.
    """

    working = "working"
    episodic = "episodic"
    semantic = "semantic"
    warning = "warning"


class Source(str, Enum):
    """Who asserted the memory; drives the default credibility."""

    user = "user"
    agent = "agent"
    external = "external"


class Status(str, Enum):
    """Lifecycle: deprecated and forgotten memories sink, quarantined never surface."""

    active = "active"
    deprecated = "deprecated"
    quarantined = "quarantined"
    forgotten = "forgotten"


DEFAULT_CREDIBILITY: dict[Source, float] = {Source.user: 1.0, Source.agent: 0.7, Source.external: 0.5}


def new_memory_id() -> str:
    """Short, URL-safe, sortable-enough id (uuid4 hex)."""
    return "mem_" + uuid.uuid4().hex


class MemoryRecord(BaseModel):
    """One stored memory, exactly as the store keeps it."""

    model_config = ConfigDict(use_enum_values=False, validate_assignment=True, allow_inf_nan=False)

    id: str = Field(default_factory=new_memory_id)
    namespace: str = "default"
    content: str
    type: MemoryType = MemoryType.episodic
    tags: list[str] = Field(default_factory=list)
    context: str = ""
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    source: Source = Source.agent
    credibility: float = Field(default=0.7, ge=0.0, le=1.0)
    status: Status = Status.active
    status_reason: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    event_time: datetime | None = None
    last_accessed_at: datetime | None = None
    access_count: int = Field(default=0, ge=0)
    source_task_id: str | None = None
    session_id: str | None = None
    created_by: str = "local"
    encrypted: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)
    #: keyed digests of the values redaction removed (write/value_digests.py): never serialised (no tool output,
    #: export or history snapshot shows them); the store keeps them beside the metadata (storage/records.py)
    value_digests: dict[str, Any] | None = Field(default=None, exclude=True, repr=False)

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str]) -> list[str]:
        return clean_tags(tags)

    @field_validator("created_at", "updated_at", "event_time", "last_accessed_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @property
    def embedding_text(self) -> str:
        """What the dense and keyword channels index: content, the context it applies in, and the
        preceding turn of its session (a reply like "yes, every Sunday" means nothing without it)."""
        parts = [self.content, self.context, str(self.metadata.get(SESSION_CONTEXT_KEY, ""))]
        return "\n".join(part for part in parts if part)

    @property
    def fact_text(self) -> str:
        """What the memory asserts: content and the context it applies in, without session neighbours.

        Hygiene and consolidation compare facts; two consecutive turns share most of their
        `embedding_text` (the same preceding turns), so their stored vectors look near-identical.
        """
        return "\n".join(part for part in (self.content, self.context) if part)

    @property
    def has_session_context(self) -> bool:
        """True when the stored vector also encodes preceding turns (so it is not a vector of the fact)."""
        return bool(self.metadata.get(SESSION_CONTEXT_KEY))

    @property
    def reference_time(self) -> datetime:
        """The time decay is measured from: when it happened, else when it was last refreshed."""
        return self.event_time or self.updated_at


class MemoryInput(BaseModel):
    """What a caller may supply when storing a memory (validated at every edge)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    type: MemoryType = MemoryType.episodic
    tags: list[str] = Field(default_factory=list)
    context: str = Field(default="", max_length=MAX_CONTEXT_CHARS)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    source: Source = Source.agent
    credibility: float | None = Field(default=None, ge=0.0, le=1.0)
    event_time: datetime | None = None
    source_task_id: str | None = Field(default=None, max_length=200)
    session_id: str | None = Field(default=None, max_length=200)
    namespace: str = Field(default="default", min_length=1, max_length=MAX_NAMESPACE_CHARS, pattern=NAMESPACE_PATTERN)
    metadata: dict[str, Any] = Field(default_factory=dict)
    private: bool = False

    @field_validator("content")
    @classmethod
    def _content(cls, content: str) -> str:
        if not content.strip():
            raise ValueError("content: must contain non-whitespace text")
        return check_visible(content.strip())

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str]) -> list[str]:
        return clean_tags(tags, new_tag)

    @field_validator("event_time")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return check_time(value, "event_time")

    @field_validator("namespace")
    @classmethod
    def _namespace(cls, namespace: str) -> str:
        return check_namespace(namespace)  # a look-alike of another name is refused (attack round 11)

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, metadata: dict[str, Any]) -> dict[str, Any]:
        return check_metadata(metadata)

    @model_validator(mode="after")
    def _storable(self) -> MemoryInput:
        check_fields(self, ("content", "context", "tags", "metadata", "session_id", "source_task_id"))
        check_identifiers(self, ("tags", "metadata", "session_id", "source_task_id"))
        check_future(self.event_time)
        return self


class MemoryPatch(BaseModel):
    """Fields `memory_update` may change; anything else is rejected by name."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    content: str | None = Field(default=None, min_length=1, max_length=MAX_CONTENT_CHARS)
    type: MemoryType | None = None
    tags: list[str] | None = None
    context: str | None = Field(default=None, max_length=MAX_CONTEXT_CHARS)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    credibility: float | None = Field(default=None, ge=0.0, le=1.0)
    status: Status | None = None
    event_time: datetime | None = None
    metadata: dict[str, Any] | None = None

    @field_validator("content")
    @classmethod
    def _content(cls, content: str | None) -> str | None:
        if content is not None and not content.strip():
            raise ValueError("content: must contain non-whitespace text")
        return check_visible(content.strip()) if content is not None else None

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str] | None) -> list[str] | None:
        return None if tags is None else clean_tags(tags, new_tag)

    @field_validator("event_time")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return check_time(value, "event_time")

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, metadata: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if metadata is None else check_metadata(metadata, reserved_ok=True)

    @model_validator(mode="after")
    def _not_empty(self) -> MemoryPatch:
        if not self.model_fields_set:
            raise ValueError("must name at least one field to change")
        nulls = sorted(f for f in self.model_fields_set if f != "event_time" and getattr(self, f) is None)
        if nulls:
            others = f" (nor can {', '.join(nulls[1:])})" if len(nulls) > 1 else ""
            raise ValueError(f"{nulls[0]}: cannot be null{others}; omit a field to leave it unchanged")
        if self.status == Status.quarantined:
            raise ValueError("status: 'quarantined' is set by the write guard, not by updates")
        check_fields(self, ("content", "context", "tags", "metadata"))
        check_identifiers(self, ("tags", "metadata"))
        check_future(self.event_time)
        return self
