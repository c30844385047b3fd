"""The memory data model shared by every layer.

Pydantic models validate at the edge (MCP, CLI, API) so that a bad request is
rejected with the field name and the rule it broke, before anything touches
storage.
"""

from __future__ import annotations

import json
import unicodedata
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hindsight.security.namespace_names import (
    MAX_NAMESPACE_CHARS,
    NAMESPACE_PATTERN,
    check_namespace,
    new_tag,
    tag_form,
)
from hindsight.write.text_rules import check_fields, check_identifiers

MAX_CONTENT_CHARS = 20_000
MAX_CONTEXT_CHARS = 4_000
#: metadata key under which the write path keeps the preceding turn of the same session.
SESSION_CONTEXT_KEY = "preceding_turn"
MAX_TAGS = 32
MAX_TAG_CHARS = 64
#: caller-supplied metadata: at most this many bytes as compact JSON (UTF-8), this deep, keys this long.
MAX_METADATA_BYTES = 8_192
MAX_METADATA_DEPTH = 4
MAX_METADATA_KEY_CHARS = 64
#: metadata keys hygiene and import set on a stored memory (write/hygiene.py, write/importer.py). A caller setting
#: them could hide a line from a later import (`imported_from`) or name another namespace's memory as the current
#: version (`superseded_by`), attack round 13; an update keeps what the write path set.
WRITE_PATH_METADATA_KEYS = ("imported_from", "superseded_by", "importance_before_deprecation", "deprecated_at",
                            "restated_count", "last_restated_at")
#: metadata keys only the write path sets (a caller setting them could plant indexed text or flags).
RESERVED_METADATA_KEYS = frozenset({SESSION_CONTEXT_KEY, "safety_directive", *WRITE_PATH_METADATA_KEYS})
#: Metadata a private memory keeps sealed with its text: the session context (a neighbour's text) and the
#: import key (for a line without an id, a hash of the content, which a guess could be checked against).
SEALED_METADATA_KEYS = (SESSION_CONTEXT_KEY, "imported_from")


class MemoryType(str, Enum):
    """The tiers of the seed design.

    working: the current session's last turns; episodic: one task or session;
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


def utcnow() -> datetime:
    """Timezone-aware now; every stored time is UTC."""
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC so comparisons never mix aware and naive."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def new_memory_id() -> str:
    """Short, URL-safe, sortable-enough id (uuid4 hex)."""
    return "mem_" + uuid.uuid4().hex


def _clean_tags(tags: list[str], form: Callable[[str], str] = str) -> list[str]:
    """Tags trimmed, lower-cased, once each; `form` first: `new_tag` for what a write stores, `tag_form` for a
    filter (a stored record's tags are read as they are)."""
    seen: dict[str, None] = {}
    for tag in tags:
        if not isinstance(tag, str):
            raise ValueError("each tag must be a string")
        cleaned = form(tag).strip().lower()
        if not cleaned:
            continue
        if len(cleaned) > MAX_TAG_CHARS:
            raise ValueError(f"tag '{cleaned[:20]}…' is longer than {MAX_TAG_CHARS} characters")
        seen.setdefault(cleaned, None)
    if len(seen) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags are allowed, got {len(seen)}")
    return list(seen)


#: paging offsets above this are refused (SQLite integers are 64-bit; no store holds this many memories)
MAX_OFFSET = 1_000_000_000
#: every time a caller gives (now, event_time, filter bounds) must lie in this range, so date arithmetic
#: ("last week", decay) can neither overflow nor underflow
MIN_TIME = datetime(1000, 1, 1, tzinfo=UTC)
MAX_TIME = datetime(9000, 1, 1, tzinfo=UTC)
#: how far ahead of now a memory's event_time may lie (docs/security.md, attack round 5)
MAX_FUTURE_EVENT = timedelta(days=366)
#: characters that show nothing: control, format (zero-width, BOM, bidi marks) and separators
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn"})


def has_visible_text(text: str) -> bool:
    """True when the text has at least one character a person can see (not only NUL, zero-width, spaces)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in _INVISIBLE for ch in text)


def check_visible(text: str, field: str = "content") -> str:
    if not has_visible_text(text):
        raise ValueError(f"{field} must contain visible text (it has only whitespace, control or zero-width "
                         "characters)")
    return text


def check_time(value: datetime | None, field: str = "time") -> datetime | None:
    """UTC, and within MIN_TIME..MAX_TIME."""
    if value is None:
        return None
    try:
        value = as_utc(value)
    except OverflowError as exc:  # 0001-01-01 at +14:00 or 9999-12-31 at -14:00 has no UTC datetime (round 9)
        raise ValueError(f"{field} must be between {MIN_TIME.date()} and {MAX_TIME.date()}, "
                         f"got {value.isoformat()}") from exc
    if not MIN_TIME <= value < MAX_TIME:
        raise ValueError(f"{field} must be between {MIN_TIME.date()} and {MAX_TIME.date()}, got {value.isoformat()}")
    return value


def check_future(value: datetime | None, field: str = "event_time") -> None:
    """A memory's event time is when it happened: at most MAX_FUTURE_EVENT ahead of now (a time far ahead would
    keep it undecayed, ranked as the newest, for centuries; attack round 5)."""
    if value is not None and value > utcnow() + MAX_FUTURE_EVENT:
        raise ValueError(f"{field} must be at most {MAX_FUTURE_EVENT.days} days after now (when it happened, or a "
                         f"planned event within a year), got {value.isoformat()}")


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _check_keys(value: Any, path: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > MAX_METADATA_KEY_CHARS:
                raise ValueError(f"key '{str(key)[:20]}' at {path or 'top level'} must be a string of at most "
                                 f"{MAX_METADATA_KEY_CHARS} characters")
            _check_keys(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            _check_keys(item, path)


def check_metadata(metadata: dict[str, Any], reserved_ok: bool = False) -> dict[str, Any]:
    """Caller-supplied metadata: JSON only, bounded size and depth, no reserved keys (see the limits above).

    `reserved_ok`: an update may send reserved keys back (a client returning what it read); the engine accepts them
    only with the stored values (`unchanged_reserved`), so the size limit is the caller's own keys' (attack round 14:
    a turn whose `preceding_turn` holds a long earlier turn could not be sent back at all)."""
    reserved = sorted(RESERVED_METADATA_KEYS & set(metadata))
    if reserved and not reserved_ok:
        raise ValueError(f"key '{reserved[0]}' is reserved (set by the write path)")
    if _depth(metadata) > MAX_METADATA_DEPTH:
        raise ValueError(f"nesting is deeper than {MAX_METADATA_DEPTH} levels")
    _check_keys(metadata, "")
    own = {k: v for k, v in metadata.items() if k not in RESERVED_METADATA_KEYS}
    try:
        json.dumps(metadata, allow_nan=False)
        size = len(json.dumps(own, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise ValueError(f"must be plain JSON (objects, arrays, strings, numbers, booleans, null): {exc}") from exc
    if size > MAX_METADATA_BYTES:
        raise ValueError(f"is {size} bytes as JSON, more than the {MAX_METADATA_BYTES}-byte limit")
    return metadata


def unchanged_reserved(sent: dict[str, Any], stored: dict[str, Any], field: str = "updates.metadata") -> dict[str, Any]:
    """The caller's metadata without the reserved keys it sent back unchanged; a reserved key it added or changed
    is refused by name (the write path alone sets them)."""
    for key in sorted(RESERVED_METADATA_KEYS & set(sent)):
        if key not in stored or sent[key] != stored[key]:
            raise ValueError(f"{field}: key '{key}' is reserved (set by the write path); send it back unchanged "
                             "or leave it out")
    return {k: v for k, v in sent.items() if k not in RESERVED_METADATA_KEYS}


class MemoryRecord(BaseModel):
    """One stored memory, exactly as the store keeps it."""

    model_config = ConfigDict(use_enum_values=False, validate_assignment=True)

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

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str]) -> list[str]:
        return _clean_tags(tags)

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

    model_config = ConfigDict(extra="forbid")

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
            raise ValueError("content must contain non-whitespace text")
        return check_visible(content.strip())

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str]) -> list[str]:
        return _clean_tags(tags, new_tag)

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

    model_config = ConfigDict(extra="forbid")

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
            raise ValueError("content must contain non-whitespace text")
        return check_visible(content.strip()) if content is not None else None

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str] | None) -> list[str] | None:
        return None if tags is None else _clean_tags(tags, new_tag)

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
            raise ValueError("updates must name at least one field to change")
        nulls = sorted(f for f in self.model_fields_set if f != "event_time" and getattr(self, f) is None)
        if nulls:
            raise ValueError(f"{', '.join(nulls)} cannot be null (omit a field to leave it unchanged)")
        if self.status == Status.quarantined:
            raise ValueError("status 'quarantined' is set by the write guard, not by updates")
        check_fields(self, ("content", "context", "tags", "metadata"))
        check_identifiers(self, ("tags", "metadata"))
        check_future(self.event_time)
        return self


class SearchFilters(BaseModel):
    """Structured filters applied inside every retrieval channel."""

    model_config = ConfigDict(extra="forbid")

    types: list[MemoryType] | None = None
    tags: list[str] | None = Field(default=None, description="memories carrying any of these tags")
    statuses: list[Status] | None = Field(
        default=None, description="default: active only; deprecated/forgotten sink when included"
    )
    time_from: datetime | None = None
    time_to: datetime | None = None
    min_importance: float | None = Field(default=None, ge=0.0, le=1.0)
    source_task_id: str | None = None
    session_id: str | None = None
    sources: list[Source] | None = None

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str] | None) -> list[str] | None:
        if tags is None:
            return None
        # any of the tags as written or in NFKC: a write stores NFKC since attack round 17, older rows as they came
        return list(dict.fromkeys(_clean_tags(tags) + _clean_tags(tags, tag_form)))

    @field_validator("time_from", "time_to")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return check_time(value)

    @field_validator("statuses")
    @classmethod
    def _no_quarantine(cls, statuses: list[Status] | None) -> list[Status] | None:
        if statuses and Status.quarantined in statuses:
            raise ValueError("quarantined memories never appear in search; review them with the admin tools")
        return statuses

    @model_validator(mode="after")
    def _range(self) -> SearchFilters:
        if self.time_from and self.time_to and self.time_from > self.time_to:
            raise ValueError("time_from must not be after time_to")
        check_identifiers(self, ("tags", "session_id", "source_task_id"))
        return self


class Explanation(BaseModel):
    """Why a memory ranked where it did: every factor of the final score."""

    dense_rank: int | None = None
    dense_score: float | None = None
    keyword_rank: int | None = None
    keyword_score: float | None = None
    graph_rank: int | None = None
    crosslingual_rank: int | None = None  # rank among the dense hits in the other language than the query
    gloss_rank: int | None = None  # rank among those sharing dictionary meaning or a name with the query
    translated_rank: int | None = None  # rank in BM25 over a Chinese query's dictionary English (glossmatch)
    fused: float = 0.0
    second_pass: float | None = None  # the second step's learned score (retrieval/second_pass.py), when it ran
    expanded_from: str | None = None  # found as a session neighbour of this hit by the second step
    topic_rank: int | None = None  # placed in the top 10 by the question's topic split (retrieval/topic_split.py)
    rerank_score: float | None = None
    xling_score: float | None = None  # learned score that ordered a mixed-script pool's best hits (xling_rerank)
    relevance: float = 0.0
    decay: float = 1.0
    importance: float = 0.5
    access_factor: float = 1.0
    credibility: float = 1.0
    decay_score: float | None = None  # importance x time decay x access (the seed's forgetting score)
    sunk: bool = False  # decay score under the sink threshold: ranked with the sink factor, still returned
    outdated_by: str | None = None  # a newer hit in the same result restates this memory's slot (read time)
    # with outdated_by: true when the newer hit states a change ("moved to", 改成; flag outdated), false when it
    # restates the slot with another value but no change word (flag possibly_outdated)
    outdated_change: bool | None = None
    status_factor: float = 1.0
    time_boost: float = 1.0
    final: float = 0.0
    # a hard filter the query implied ("last week", "上周", "pitfalls"): what it was, and whether it matched
    # too little, or held none of the strong text matches, so memories outside it were let in (the hit may then
    # lie outside it: `in_time_filter`)
    time_filter: str | None = None
    time_filter_widened: bool | None = None
    in_time_filter: bool | None = None
    type_filter_widened: bool | None = None


#: What `SearchHit.relevance` means (shown in tool descriptions and docs).
RELEVANCE_MEANING = ("estimated probability that the memory is relevant to the query (calibrated on LoCoMo dev: "
                     "evidence turns vs other hits and hits from an unrelated store)")


class SearchHit(BaseModel):
    """One search result: the memory plus the score and its explanation."""

    memory: MemoryRecord
    score: float
    why: Explanation
    relevance: float = Field(default=0.0, ge=0.0, le=1.0, description=RELEVANCE_MEANING)
    flags: list[str] = Field(
        default_factory=list,
        description="read-time flags: directive, conflicting_directives (safety), sunk (decayed below the threshold), "
                    "superseded (deprecated by a newer memory), outdated (a newer hit states a change of the same slot), "
                    "possibly_outdated (a newer hit restates the same slot without a change word; off by default)",
    )
    current: bool = Field(default=True, description="false when a newer memory replaces or restates this one "
                                                    "(flag superseded or outdated): do not present it as the current fact")


class HistoryEntry(BaseModel):
    """One append-only change record."""

    memory_id: str
    action: str
    actor: str
    at: datetime
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    note: str = ""
