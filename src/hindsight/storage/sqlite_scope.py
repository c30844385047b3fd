"""The rows a scope allows, read through indexes, so the cost follows the size of the scope, not of the store.

The generic scope condition (`SQLiteStore._scope_sql`) is right for checking a few candidate rows, but as the
driver of a query SQLite can only walk one index on it and test the rest row by row: a narrow scope (semantic,
tagged 部署, the last four months: ~0.6% of the store) was found by walking all of a namespace's active
semantic rows, or all rows carrying the tag, a cost that grows with the store (issue 11: 128 ms at 100k, 342 ms
at 1M). Schema v8 (storage/migrations.py) adds two indexes this module drives from:

* `tag_scope` (WITHOUT ROWID, kept by triggers): one row per (memory, tag) keyed by (namespace, tag, status,
  type, time): a scope with tags is one range per (tag, status, type), exactly the tagged rows in scope;
* `idx_memories_scope_time` on memories(namespace, status, type, COALESCE(event_time, created_at)): a scope
  without tags is one range per (status, type).

An absent type filter is spelled as every `MemoryType`, so the time column of either index stays usable (a row
whose type is not a `MemoryType` cannot be read back as a record anyway). The remaining conditions (sources,
importance, task, session) are tested on the memory row. The result is the same set of rows as the generic
condition (tests/test_scope_index.py compares them on random stores and scopes) and is returned sorted, so the
exact search over it does not depend on the plan.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hindsight.model import MemoryType
from hindsight.storage.base import Scope
from hindsight.storage.records import to_ts

ALL_TYPES: tuple[str, ...] = tuple(t.value for t in MemoryType)


def _marks(values: list[Any]) -> str:
    return ",".join("?" * len(values))


def _row_conditions(scope: Scope) -> tuple[list[str], list[Any]]:
    """Conditions no scope index holds, tested on the memory row `m`."""
    clauses: list[str] = []
    params: list[Any] = []
    if scope.sources:
        sources = [s.value for s in scope.sources]
        clauses.append(f"m.source IN ({_marks(sources)})")
        params.extend(sources)
    if scope.min_importance is not None:
        clauses.append("m.importance >= ?")
        params.append(scope.min_importance)
    if scope.source_task_id is not None:
        clauses.append("m.source_task_id = ?")
        params.append(scope.source_task_id)
    if scope.session_id is not None:
        clauses.append("m.session_id = ?")
        params.append(scope.session_id)
    return clauses, params


def _time_conditions(column: str, scope: Scope) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if scope.time_from is not None:
        clauses.append(f"{column} >= ?")
        params.append(to_ts(scope.time_from))
    if scope.time_to is not None:
        clauses.append(f"{column} <= ?")
        params.append(to_ts(scope.time_to))
    return clauses, params


def scope_rows_sql(scope: Scope, vkeys: bool = True) -> tuple[str, list[Any]]:
    """SELECT of the vkeys of the vectors the scope allows (`vkeys`), or of the memory rowids it allows (read
    from the index alone where no row condition needs the memory: the cheap way to size a scope), driven by a
    v8 scope index."""
    statuses = [s.value for s in scope.statuses]
    types = [t.value for t in scope.types] if scope.types else list(ALL_TYPES)
    rest, rest_params = _row_conditions(scope)
    if scope.tags:
        tags = list(dict.fromkeys(scope.tags))
        clauses = ["s.namespace = ?", f"s.tag IN ({_marks(tags)})", f"s.status IN ({_marks(statuses)})",
                   f"s.type IN ({_marks(types)})"]
        params: list[Any] = [scope.namespace, *tags, *statuses, *types]
        time_clauses, time_params = _time_conditions("s.t", scope)
        rows = "tag_scope s" + (" CROSS JOIN memories m ON m.rowid = s.memory_rowid" if rest else "")
        if vkeys:
            rows += " CROSS JOIN vectors v ON v.memory_rowid = s.memory_rowid"
        distinct = "DISTINCT " if len(tags) > 1 else ""  # a memory with two of the tags is one row
        sql = (f"SELECT {distinct}{'v.vkey' if vkeys else 's.memory_rowid'} FROM {rows} "
               f"WHERE {' AND '.join(clauses + time_clauses + rest)}")
        return sql, [*params, *time_params, *rest_params]
    clauses = ["m.namespace = ?", f"m.status IN ({_marks(statuses)})", f"m.type IN ({_marks(types)})"]
    params = [scope.namespace, *statuses, *types]
    time_clauses, time_params = _time_conditions("COALESCE(m.event_time, m.created_at)", scope)
    rows = "memories m" + (" CROSS JOIN vectors v ON v.memory_rowid = m.rowid" if vkeys else "")
    sql = (f"SELECT {'v.vkey' if vkeys else 'm.rowid'} FROM {rows} "
           f"WHERE {' AND '.join(clauses + time_clauses + rest)}")
    return sql, [*params, *time_params, *rest_params]


def scope_vkeys_sql(scope: Scope) -> tuple[str, list[Any]]:
    """SELECT of the vkeys of the vectors the scope allows."""
    return scope_rows_sql(scope, vkeys=True)


def scope_vkeys(db: Any, scope: Scope) -> np.ndarray:
    """The vkeys the scope allows, ascending."""
    sql, params = scope_vkeys_sql(scope)
    keys = np.fromiter((r[0] for r in db.execute(sql, params)), dtype=np.int64)
    keys.sort()
    return keys


def scope_size(db: Any, scope: Scope, cap: int) -> int:
    """How many memories the scope allows, counted up to `cap` + 1 only (cap + 1 means "more than cap"): the
    index entries alone, no vector rows, so sizing a broad scope costs a bounded, cheap read."""
    sql, params = scope_rows_sql(scope, vkeys=False)
    return int(db.execute(f"SELECT COUNT(*) FROM ({sql} LIMIT {int(cap) + 1})", params).fetchone()[0])


def is_narrowed(scope: Scope) -> bool:
    """True when the scope filters by more than namespace and status: worth sizing before asking the graph."""
    return bool(scope.types or scope.tags or scope.sources or scope.time_from is not None
                or scope.time_to is not None or scope.min_importance is not None
                or scope.source_task_id is not None or scope.session_id is not None)
