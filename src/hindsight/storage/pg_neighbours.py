"""PostgreSQL's `session_neighbours`: the ids around each anchor in its session, in one round trip.

Each anchor is joined LATERAL to two index range reads on idx_memories_session_order (namespace,
session_id, created_at, seq): up to `window` in-scope memories written before it, and up to `window`
after it. Only ids come back; the offsets (-1 = just before) are counted here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

_SIDE = ("(SELECT m.id, {sign} AS side, m.created_at, m.seq FROM memories m WHERE m.namespace = a.namespace "
         "AND m.session_id = a.session_id AND (m.created_at, m.seq) {cmp} (a.created_at, a.seq) AND {where} "
         "ORDER BY m.created_at {order}, m.seq {order} LIMIT %s)")


def session_neighbours(rows: Callable[[str, Sequence[Any]], list[dict[str, Any]]], where: str,
                       params: Sequence[Any], namespace: str, memory_ids: Sequence[str], window: int
                       ) -> dict[str, list[tuple[str, int]]]:
    """`rows(sql, params)` runs a query; `where`/`params` is the scope's SQL over alias `m`."""
    ids = list(dict.fromkeys(memory_ids))
    if window <= 0 or not ids:
        return {}
    before = _SIDE.format(sign=-1, cmp="<", where=where, order="DESC")
    after = _SIDE.format(sign=1, cmp=">", where=where, order="ASC")
    sql = ("SELECT a.id AS anchor, n.id, n.side FROM memories a LEFT JOIN LATERAL "
           f"({before} UNION ALL {after}) n ON TRUE "
           "WHERE a.id = ANY(%s) AND a.namespace = %s AND a.session_id IS NOT NULL "
           "ORDER BY a.id, n.side, n.created_at, n.seq")
    out: dict[str, list[tuple[str, int]]] = {}
    found = rows(sql, (*params, window, *params, window, ids, namespace))
    for anchor in dict.fromkeys(row["anchor"] for row in found):
        near = [row for row in found if row["anchor"] == anchor and row["id"] is not None]
        earlier = [row["id"] for row in near if row["side"] < 0]
        later = [row["id"] for row in near if row["side"] > 0]
        out[anchor] = [(mid, i - len(earlier)) for i, mid in enumerate(earlier)] + \
            [(mid, i) for i, mid in enumerate(later, start=1)]
    return out
