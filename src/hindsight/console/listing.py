"""What a browse URL selects: its filters read (errors name the field and the rule, in the page's language), and
the one query that the browse page, its bulk actions and its export all run, so an export is exactly the filter
shown.

Quarantined memories are a status of their own: an admin of the namespace lists them with the other filters
(`engine.quarantined`); below admin the status is refused naming the rule, as their text is the admins' to see.
A search pages through up to `MAX_TOP_K` hits, `SEARCH_PAGE` at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time
from typing import Any

from hindsight.console.app import Ctx
from hindsight.engine import MemoryEngine
from hindsight.engine_read import MAX_PAGE, MAX_TOP_K
from hindsight.errors import InvalidInputError, PermissionDeniedError
from hindsight.field_rules import MAX_OFFSET
from hindsight.model import MemoryRecord, Status
from hindsight.read_model import SearchHit
from hindsight.security.principal import Scope

LISTED_STATUSES = (Status.active, Status.deprecated, Status.forgotten)
PAGE = 50
SEARCH_PAGE = 25

# (en, zh) per rule; {field} is the form field's name as the URL carries it
RULES: dict[str, tuple[str, str]] = {
    "number": ("{field}: expected a number between 0 and 1, got '{got}'",
               "{field}（字段）：应为 0 到 1 之间的数字，收到 '{got}'"),
    "date": ("{field}: expected a date like 2026-12-01, got '{got}'",
             "{field}（字段）：应为形如 2026-12-01 的日期，收到 '{got}'"),
    "date_range": ("{field}: the date is out of range, got '{got}'", "{field}（字段）：日期超出范围，收到 '{got}'"),
    "offset": ("{field}: expected a whole number between 0 and {max}, got '{got}'",
               "{field}（字段）：应为 0 到 {max} 之间的整数，收到 '{got}'"),
    "search_offset": ("{field}: a search shows its first {max} hits; narrow the query or the filters",
                      "{field}（字段）：搜索最多显示前 {max} 条结果，请缩小查询或筛选条件"),
    "status": ("{field}: '{got}' is not a status (active, deprecated, forgotten, quarantined)",
               "{field}（字段）：'{got}' 不是有效状态（active、deprecated、forgotten、quarantined）"),
    "quarantine_admin": ("{field}: quarantined memories are listed for admins of the namespace only",
                         "{field}（字段）：被隔离的记忆只对该命名空间的管理员列出"),
}


def rule_error(lang: str, rule: str, field: str, got: str = "", **extra: Any) -> str:
    en, zh = RULES[rule]
    return (zh if lang == "zh" else en).format(field=field, got=got[:40], **extra)


def read_filters(params: Any, lang: str = "en") -> dict[str, Any]:
    """The engine's filters from a browse URL (statuses as given, quarantined included)."""
    out: dict[str, Any] = {}
    for key, name in (("type", "types"), ("status", "statuses"), ("source", "sources")):
        values = [v for v in params.getlist(key) if v]
        if values:
            out[name] = values
    for value in out.get("statuses", []):
        if value not in {s.value for s in Status}:
            raise InvalidInputError(rule_error(lang, "status", "status", value))
    for key, name in (("session", "session_id"), ("task", "source_task_id")):
        if params.get(key, "").strip():
            out[name] = params[key].strip()
    raw_importance = params.get("min_importance", "").strip()
    if raw_importance:
        try:
            out["min_importance"] = float(raw_importance)
        except ValueError as exc:
            raise InvalidInputError(rule_error(lang, "number", "min_importance", raw_importance)) from exc
        if not 0.0 <= out["min_importance"] <= 1.0:
            raise InvalidInputError(rule_error(lang, "number", "min_importance", raw_importance))
    tag_text = params.get("tags", "")
    if tag_text.strip():
        out["tags"] = [x.strip() for x in tag_text.replace("，", ",").split(",") if x.strip()]
    for key, edge in (("from", time.min), ("to", time.max)):
        raw = params.get(key, "").strip()
        if raw:
            try:
                day = datetime.fromisoformat(raw)
            except ValueError as exc:
                raise InvalidInputError(rule_error(lang, "date", key, raw)) from exc
            if len(raw) <= 10:
                day = datetime.combine(day.date(), edge)
            try:  # 9999-12-31T23:59:59-23:59 is past the last time a datetime holds once in UTC
                out["time_from" if key == "from" else "time_to"] = day.replace(tzinfo=day.tzinfo or UTC).astimezone(UTC)
            except (OverflowError, ValueError) as exc:
                raise InvalidInputError(rule_error(lang, "date_range", key, raw)) from exc
    return out


def read_offset(raw: str, lang: str = "en") -> int:
    """The page offset: ASCII digits within MAX_OFFSET (int('²') and a 5,000-digit int() raised a 500)."""
    raw = raw.strip() or "0"
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_OFFSET)) and int(raw) <= MAX_OFFSET):
        raise InvalidInputError(rule_error(lang, "offset", "offset", raw, max=MAX_OFFSET))
    return int(raw)


@dataclass
class Selection:
    """One page of what a browse URL selects: search hits (ranked) or records (newest first)."""

    records: list[MemoryRecord]
    hits: list[SearchHit] | None
    total: int  # every match (a search: the hits found so far, at most MAX_TOP_K)
    offset: int
    more: bool  # a next page exists
    held: bool  # the quarantined listing


def select(engine: MemoryEngine, ctx: Ctx, params: Any, ns: str, page: int | None = None,
           record_access: bool = False, offset: int | None = None) -> Selection:
    """Run the browse URL's query: `page` memories (the page's size unless given) from `offset` (else the URL's)."""
    filters = read_filters(params, ctx.lang)
    offset = read_offset(params.get("offset", "0"), ctx.lang) if offset is None else offset
    query = params.get("q", "").strip()
    statuses = filters.get("statuses", [])
    if Status.quarantined.value in statuses:
        if not ctx.can(Scope.admin, ns):
            raise PermissionDeniedError(rule_error(ctx.lang, "quarantine_admin", "status"))
        rest = {k: v for k, v in filters.items() if k != "statuses"}
        size = page or PAGE
        if not query:
            records, total = engine.quarantined(ns, limit=size, offset=offset, filters=rest)
            return Selection(records, None, total, offset, offset + size < total, True)
        # held writes are never searched (no index holds them): the query's words narrow them, as text
        words = query.casefold().split()
        held = [r for r in engine.quarantined(ns, limit=MAX_PAGE, filters=rest)[0]
                if all(w in r.content.casefold() for w in words)]
        return Selection(held[offset:offset + size], None, len(held), offset, offset + size < len(held), True)
    if query:
        size = page or SEARCH_PAGE
        if offset >= MAX_TOP_K:
            raise InvalidInputError(rule_error(ctx.lang, "search_offset", "offset", max=MAX_TOP_K))
        # a later page runs the search again: only the first counts as a read, or page 1's hits would count twice
        hits = engine.search(query, ns, filters, top_k=min(MAX_TOP_K, offset + size),
                             record_access=record_access and offset == 0)
        shown = hits[offset:offset + size]
        more = len(hits) >= offset + size and offset + size < MAX_TOP_K
        return Selection([h.memory for h in shown], shown, len(hits), offset, more, False)
    size = page or PAGE
    listed = {"statuses": [s.value for s in LISTED_STATUSES], **filters}
    records, total = engine.list(ns, listed, limit=size, offset=offset)
    return Selection(records, None, total, offset, offset + size < total, False)
