"""The degraded search: what the client can answer from the memories it saw while the server is unreachable.

Only memories of the namespace asked for (the tool's default: "default"), and only those that pass the query's
structured filters, as the server applies them (types, tags: any of, statuses, sources, min_importance,
session_id, source_task_id, time_from/time_to on event time else creation time), at most `top_k`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _listed(values: Any) -> set[str] | None:
    if not values:
        return None
    return {str(getattr(v, "value", v)).strip().lower() for v in values}


def matches(memory: dict[str, Any], namespace: str, filters: dict[str, Any]) -> bool:
    """True when the cached memory would be in the server's scope for this namespace and these filters."""
    if memory.get("namespace", "default") != namespace:
        return False
    for key, field in (("types", memory.get("type")), ("statuses", memory.get("status")),
                       ("sources", (memory.get("provenance") or {}).get("source"))):
        wanted = _listed(filters.get(key))
        if wanted is not None and str(field).lower() not in wanted:
            return False
    tags = _listed(filters.get("tags"))
    if tags is not None and not tags & {str(t).lower() for t in memory.get("tags") or []}:
        return False
    floor = filters.get("min_importance")
    if floor is not None and float(memory.get("importance") or 0.0) < float(floor):
        return False
    for key in ("session_id", "source_task_id"):
        if filters.get(key) is not None and memory.get(key) != filters[key]:
            return False
    when = _time(memory.get("event_time") or memory.get("created_at"))
    start, end = _time(filters.get("time_from")), _time(filters.get("time_to"))
    if (start or end) and when is None:
        return False
    return not ((start and when and when < start) or (end and when and when > end))


def degraded_results(cached: Iterable[dict[str, Any]], fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The cached memories (newest first) that answer a memory_search with these arguments."""
    namespace = str(fields.get("namespace") or "default")
    raw = fields.get("filters") or {}
    filters = raw.model_dump() if hasattr(raw, "model_dump") else dict(raw)
    top_k = int(fields.get("top_k") or 5)
    return [memory for memory in cached if matches(memory, namespace, filters)][:top_k]
