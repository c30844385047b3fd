"""Dense search within a scope (namespace, status, type, tags, time, ...) over any `VectorIndex`.

The scope is a SQL condition on the memories table; the index knows only vectors. The same steps serve the
exact and the approximate index:

* a scope that filters by more than namespace and status (type, tags, time, ...) is sized first, with a
  LIMITed count of index entries (v8 scope indexes, storage.sqlite_scope) that stops past the cap: at most
  `EXACT_MAX_ROWS` rows or `EXACT_MAX_FRACTION` of the index, and it is searched exactly over just those rows
  (vectors fetched by key), never touching the graph; the cost follows the scope, not the store;
* otherwise ask the index for a few more than `limit` (no filter) and keep the hits the scope allows (one SQL
  lookup of those keys): enough survive for the usual scope (a namespace's active memories), and the cost does
  not depend on how many rows the scope allows; too few survived and the scope (sized now, if not yet) is
  selective: exact cosine over its rows;
* too few survived and the scope is broad: widen the request from the observed survival rate until `limit`
  survive; when that would need more than `MAX_CANDIDATES`, fall back to exact search over the allowed rows.
  (usearch's Python API has no predicate-filtered search, so widening is the filtered HNSW search here.)

An index that filters natively (Qdrant payload conditions) gets the scope itself; its hits are still checked
against SQLite, the truth, so a payload that lags behind another process's change can cost recall, never
return an out-of-scope memory.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from hindsight.storage.base import Scope
from hindsight.storage.sqlite_scope import is_narrowed, scope_size, scope_vkeys
from hindsight.storage.vector_index import VectorIndex, top_k

#: A scope allowing at most this many rows is searched exactly even with an approximate index ...
EXACT_MAX_ROWS = 4096
#: ... or at most this fraction of the index.
EXACT_MAX_FRACTION = 0.02
#: Widest candidate list asked from an approximate index before falling back to exact search.
MAX_CANDIDATES = 8192
_CHUNK = 900


_TAG_LIST = "m.rowid IN (SELECT memory_rowid FROM tags WHERE tag IN ("
_TAG_EXISTS = "EXISTS (SELECT 1 FROM tags WHERE tags.memory_rowid = m.rowid AND tags.tag IN ("


def tags_checked_per_row(where: str) -> str:
    """The scope condition with its tag test as a per-row EXISTS (a primary-key probe of `tags`) instead of a
    list of every row carrying the tag, which SQLite would build first, at a cost growing with the store."""
    return where.replace(_TAG_LIST, _TAG_EXISTS)


def _allowed_ids(db: sqlite3.Connection, where: str, params: list[Any], keys: list[int]) -> dict[int, str]:
    """Which of `keys` the scope allows, with their memory ids. The few candidate keys drive the lookup (CROSS
    JOIN; the tag condition as a per-row EXISTS, not a list SQLite would drive from), so the cost does not grow
    with the store or with how common a tag is."""
    where = tags_checked_per_row(where)
    out: dict[int, str] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        sql = (f"SELECT v.vkey, m.id FROM vectors v CROSS JOIN memories m ON m.rowid = v.memory_rowid "
               f"WHERE v.vkey IN ({','.join('?' * len(chunk))}) AND {where}")
        out.update((int(k), str(i)) for k, i in db.execute(sql, [*chunk, *params]))
    return out


def _exact(db: sqlite3.Connection, index: VectorIndex, where: str, params: list[Any], allowed: np.ndarray,
           query: np.ndarray, limit: int) -> list[tuple[str, float]]:
    best: list[tuple[int, float]] = []
    for start in range(0, len(allowed), 65_536):  # bounded memory even for a broad fallback
        keys, matrix = index.vectors(allowed[start : start + 65_536])
        best = sorted(best + top_k(keys, matrix, query, limit), key=lambda h: -h[1])[:limit]
    ids = _allowed_ids(db, where, params, [k for k, _ in best])
    return [(ids[k], s) for k, s in best if k in ids]


def dense_search(db: sqlite3.Connection, index: VectorIndex, scope: Scope, where: str, params: list[Any],
                 query: np.ndarray, limit: int) -> list[tuple[str, float]]:
    """Top `limit` (memory id, cosine) within the scope, best first. Caller holds the store lock."""
    size = len(index)
    if limit <= 0 or size == 0:
        return []
    if index.filters_natively:
        hits = index.search_scope(query, scope, limit)  # type: ignore[attr-defined]
        ids = _allowed_ids(db, where, params, [k for k, _ in hits])
        return [(ids[k], s) for k, s in hits if k in ids]
    cap = max(EXACT_MAX_ROWS, int(EXACT_MAX_FRACTION * size))
    sized = is_narrowed(scope)
    if sized and scope_size(db, scope, cap) <= cap:  # a filtered scope is sized first: a narrow one is exact
        return _exact(db, index, where, params, scope_vkeys(db, scope), query, limit)
    # Ask the index for a few more than `limit` and keep what the scope allows: most scopes keep most rows.
    wanted = min(size, limit + max(16, limit // 4))
    hits = index.search(query, None, wanted)
    ids = _allowed_ids(db, where, params, [k for k, _ in hits])
    kept = [(ids[k], s) for k, s in hits if k in ids]
    if len(kept) >= limit or wanted >= size:
        return kept[:limit]
    if not sized and scope_size(db, scope, cap) <= cap:  # too few survived: a selective scope is exact ...
        return _exact(db, index, where, params, scope_vkeys(db, scope), query, limit)
    # ... a broad one by widening the request from the observed survival rate.
    while True:
        survival = max(len(kept), 1) / max(len(hits), 1)
        wider = max(2 * wanted, int(1.5 * limit / survival) + 1)
        if wider > MAX_CANDIDATES:
            break
        wanted = min(size, wider)
        hits = index.search(query, None, wanted)
        ids = _allowed_ids(db, where, params, [k for k, _ in hits])
        kept = [(ids[k], s) for k, s in hits if k in ids]
        if len(kept) >= limit or wanted >= size:
            return kept[:limit]
    return _exact(db, index, where, params, scope_vkeys(db, scope), query, limit)
