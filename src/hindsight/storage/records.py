"""Rows <-> records, shared by the SQL backends: the memory columns, epoch timestamps, the keyword text.

Both SQLite and PostgreSQL keep times as epoch seconds (REAL / double precision) so that one conversion
serves both and a `hindsight migrate` between them copies values unchanged.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from hindsight.field_rules import SESSION_CONTEXT_KEY
from hindsight.field_rules import VALUE_DIGESTS_KEY as DIGESTS_KEY
from hindsight.model import MemoryRecord
from hindsight.text.tokenize import tokenize

COLUMNS = (
    "id, namespace, content, type, context, importance, source, credibility, status, status_reason, "
    "created_at, updated_at, event_time, last_accessed_at, access_count, source_task_id, session_id, "
    "created_by, encrypted, metadata"
)


def to_ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def from_ts(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=UTC)


def at_ts(value: float) -> datetime:
    """A required time (created, updated, a history entry's time)."""
    return datetime.fromtimestamp(value, tz=UTC)


def index_text(record: MemoryRecord) -> tuple[str, str]:
    """What BM25 sees, segmented so Chinese words are terms: (the memory's own text, its session neighbours).

    Two FTS5 columns so a match in the memory itself outranks a match only in the preceding turn.
    Private (encrypted) memories expose only their tags: the index must not hold their plaintext.
    """
    tags = " ".join(record.tags)
    if record.encrypted:
        return " ".join(tokenize(tags)), ""
    own = f"{record.content} {record.context} {tags}"
    neighbours = str(record.metadata.get(SESSION_CONTEXT_KEY, ""))
    return " ".join(tokenize(own)), " ".join(tokenize(neighbours)) if neighbours else ""


def row_to_record(row: Any, tags: list[str]) -> MemoryRecord:
    """A record from a row that supports row["column"] (sqlite3.Row, psycopg dict rows)."""
    metadata = json.loads(row["metadata"])
    digests = metadata.pop(DIGESTS_KEY, None) if isinstance(metadata, dict) else None
    return MemoryRecord(
        id=row["id"],
        namespace=row["namespace"],
        content=row["content"],
        type=row["type"],
        tags=tags,
        context=row["context"],
        importance=row["importance"],
        source=row["source"],
        credibility=row["credibility"],
        status=row["status"],
        status_reason=row["status_reason"],
        created_at=at_ts(row["created_at"]),
        updated_at=at_ts(row["updated_at"]),
        event_time=from_ts(row["event_time"]),
        last_accessed_at=from_ts(row["last_accessed_at"]),
        access_count=row["access_count"],
        source_task_id=row["source_task_id"],
        session_id=row["session_id"],
        created_by=row["created_by"],
        encrypted=bool(row["encrypted"]),
        metadata=metadata,
        value_digests=digests,
    )


def record_values(record: MemoryRecord) -> tuple[Any, ...]:
    return (
        record.id,
        record.namespace,
        record.content,
        record.type.value,
        record.context,
        record.importance,
        record.source.value,
        record.credibility,
        record.status.value,
        record.status_reason,
        to_ts(record.created_at),
        to_ts(record.updated_at),
        to_ts(record.event_time),
        to_ts(record.last_accessed_at),
        record.access_count,
        record.source_task_id,
        record.session_id,
        record.created_by,
        int(record.encrypted),
        json.dumps(stored_metadata(record), ensure_ascii=False, default=str),
    )


def stored_metadata(record: MemoryRecord) -> dict[str, Any]:
    """The metadata column's value: the record's metadata and, under `DIGESTS_KEY`, its value digests
    (write/value_digests.py), which `row_to_record` moves back out of the metadata."""
    if not record.value_digests:
        return record.metadata
    return {**record.metadata, DIGESTS_KEY: record.value_digests}
