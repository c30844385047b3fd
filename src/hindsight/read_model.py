"""What reads take and return: the filters a search or a listing applies inside every channel (`SearchFilters`),
a search hit with the explanation of its score (`SearchHit`, `Explanation`), and one append-only change record
(`HistoryEntry`). The stored memory and what a write may send are `model.py`'s.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from hindsight.field_rules import check_time, clean_tags
from hindsight.model import MemoryRecord, MemoryType, Source, Status
from hindsight.security.namespace_names import tag_form
from hindsight.write.text_rules import check_identifiers


class SearchFilters(BaseModel):
    """Structured filters applied inside every retrieval channel."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    types: list[MemoryType] | None = Field(default=None, description="memories of any of these types")
    tags: list[str] | None = Field(default=None, description="memories carrying any of these tags")
    statuses: list[Status] | None = Field(
        default=None, description="default: active only; deprecated/forgotten sink when included"
    )
    time_from: datetime | None = Field(default=None, description=(
        "ISO 8601; memories whose event_time (else the time they were stored) is at or after it"))
    time_to: datetime | None = Field(default=None, description=(
        "ISO 8601; memories whose event_time (else the time they were stored) is at or before it"))
    min_importance: float | None = Field(default=None, ge=0.0, le=1.0, description="importance at least this (0-1)")
    source_task_id: str | None = Field(default=None, description="memories written with this source_task_id")
    session_id: str | None = Field(default=None, description="memories written with this session_id")
    sources: list[Source] | None = Field(default=None, description="memories asserted by any of these sources")

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str] | None) -> list[str] | None:
        if tags is None:
            return None
        # any of the tags as written or in NFKC: a write stores NFKC since attack round 17, older rows as they came
        return list(dict.fromkeys(clean_tags(tags) + clean_tags(tags, tag_form)))

    @field_validator("time_from", "time_to")
    @classmethod
    def _utc(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        return check_time(value, info.field_name or "time")

    @field_validator("statuses")
    @classmethod
    def _no_quarantine(cls, statuses: list[Status] | None) -> list[Status] | None:
        if statuses and Status.quarantined in statuses:
            raise ValueError("quarantined memories never appear in search; review them with the admin tools")
        return statuses

    @model_validator(mode="after")
    def _range(self) -> SearchFilters:
        if self.time_from and self.time_to and self.time_from > self.time_to:
            raise ValueError("time_from: must not be after time_to")
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
    rendered_rank: int | None = None  # rank in a dense search with the query's dictionary rendering (rendered.py)
    fused: float = 0.0
    second_pass: float | None = None  # the second step's learned score (retrieval/second_pass.py), when it ran
    expanded_from: str | None = None  # found as a session neighbour of this hit by the second step
    found_via: str | None = None  # a retired memory the query matched, which this one replaced (successors.py)
    bridged_by: str | None = None  # the hit whose person name led to this one (bridge.py, off by default)
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
RELEVANCE_MEANING = ("calibrated probability that the memory is one the query asks for (fitted on LoCoMo dev: a "
                     "question's evidence turns vs its other hits and the hits of a store about something else); "
                     "where many memories share the query's topic, even the answer is often under 0.5")


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
