"""Dense search within a scope (namespace, status, type, tags, time, ...) over any `VectorIndex`.

The scope is a SQL condition on the memories table; the index knows only vectors. Three strategies:

* exact index: every allowed vkey is listed and searched exactly (what one person's store needs);
* approximate index, selective scope (at most `EXACT_MAX_ROWS` rows or `EXACT_MAX_FRACTION` of the index
  allowed, found with a LIMITed query that stops counting there): exact cosine over just those rows;
* approximate index, broad scope: ask the index for `limit` x an oversampling factor, keep the hits the scope
  allows (one SQL lookup of those keys), and widen the request from the observed survival rate until `limit`
  survive; when that would need more than `MAX_CANDIDATES`, fall back to exact search over the allowed rows.

An index that filters natively (Qdrant payload conditions) gets the scope itself; its hits are still checked
against SQLite, the truth, so a payload that lags behind another process's change can cost recall, never
return an out-of-scope memory.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from hindsight.storage.base import Scope
from hindsight.storage.vector_index import VectorIndex, top_k

#: A scope allowing at most this many rows is searched exactly even with an approximate index ...
EXACT_MAX_ROWS = 4096
#: ... or at most this fraction of the index.
EXACT_MAX_FRACTION = 0.02
#: Widest candidate list asked from an approximate index before falling back to exact search.
MAX_CANDIDATES = 8192
_CHUNK = 900


def _base(where: str) -> str:
    return f"FROM memories m JOIN vectors v ON v.memory_rowid = m.rowid WHERE {where}"


def _allowed_ids(db: sqlite3.Connection, where: str, params: list[Any], keys: list[int]) -> dict[int, str]:
    """Which of `keys` the scope allows, with their memory ids."""
    out: dict[int, str] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        sql = f"SELECT v.vkey, m.id {_base(where)} AND v.vkey IN ({','.join('?' * len(chunk))})"
        out.update((int(k), str(i)) for k, i in db.execute(sql, [*params, *chunk]))
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
    if not index.approximate:
        allowed = np.fromiter((r[0] for r in db.execute(f"SELECT v.vkey {_base(where)}", params)), dtype=np.int64)
        hits = index.search(query, allowed, limit) if allowed.size else []
        ids = _allowed_ids(db, where, params, [k for k, _ in hits])
        return [(ids[k], s) for k, s in hits if k in ids]
    cap = max(EXACT_MAX_ROWS, int(EXACT_MAX_FRACTION * size))
    sample = np.fromiter((r[0] for r in db.execute(f"SELECT v.vkey {_base(where)} LIMIT ?", [*params, cap + 1])),
                         dtype=np.int64)
    if sample.size <= cap:
        return _exact(db, index, where, params, sample, query, limit) if sample.size else []
    wanted = min(size, limit + max(16, limit // 4))  # most scopes keep most rows: widen only when needed
    while True:
        hits = index.search(query, None, wanted)
        ids = _allowed_ids(db, where, params, [k for k, _ in hits])
        kept = [(ids[k], s) for k, s in hits if k in ids]
        if len(kept) >= limit or wanted >= size:
            return kept[:limit]
        survival = max(len(kept), 1) / max(len(hits), 1)
        wider = max(2 * wanted, int(1.5 * limit / survival) + 1)
        if wider > MAX_CANDIDATES:
            break
        wanted = min(size, wider)
    allowed = np.fromiter((r[0] for r in db.execute(f"SELECT v.vkey {_base(where)}", params)), dtype=np.int64)
    return _exact(db, index, where, params, allowed, query, limit)
