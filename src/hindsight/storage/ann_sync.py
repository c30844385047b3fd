"""Keep a vector index in step with the SQLite file, whichever process wrote it.

`vector_log` (schema v4) gets a row, by trigger, in the same transaction as every vector insert or delete and
every change to a memory's scope fields: it is the change counter. An index remembers the last entry it
reflects (`watermark`); catching up reads the entries after it and re-reads the *current* state of every key
they touch (present: upsert; gone: remove). Replaying is therefore idempotent, so an index that is behind
(a crash after the SQLite commit and before the index was saved, another process's writes) is repaired by
catching up, and one that is ahead of the file (restored from another copy) is rebuilt.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from hindsight.storage.vector_index import Payload, VectorIndex

#: More touched keys than this (or than half the index) and a rebuild is cheaper than incremental catch-up.
REBUILD_AT = 20_000

_STATE_SQL = (
    "SELECT v.vkey, v.vector, m.namespace, m.status, m.type, m.source, m.importance, "
    "COALESCE(m.event_time, m.created_at), m.session_id, m.source_task_id, "
    "(SELECT group_concat(tag, char(31)) FROM tags t WHERE t.memory_rowid = m.rowid) "
    "FROM vectors v JOIN memories m ON m.rowid = v.memory_rowid"
)
_VECTOR_SQL = "SELECT v.vkey, v.vector FROM vectors v"


def max_seq(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM vector_log").fetchone()[0])


def store_uuid(db: sqlite3.Connection) -> str:
    row = db.execute("SELECT value FROM meta WHERE key = 'store_uuid'").fetchone()
    return "unknown" if row is None else str(row[0])


def _payload(row: Any) -> Payload:
    return {"namespace": row[2], "status": row[3], "type": row[4], "source": row[5], "importance": float(row[6]),
            "t": float(row[7]), "session_id": row[8], "source_task_id": row[9],
            "tags": row[10].split("\x1f") if row[10] else []}


def _items(db: sqlite3.Connection, index: VectorIndex, where: str = "",
           params: list[int] | None = None) -> list[tuple[int, np.ndarray, Payload | None]]:
    if index.filters_natively:
        rows = db.execute(f"{_STATE_SQL} {where}", params or []).fetchall()
        return [(int(r[0]), np.frombuffer(r[1], dtype=np.float32), _payload(r)) for r in rows]
    rows = db.execute(f"{_VECTOR_SQL} {where}", params or []).fetchall()
    return [(int(r[0]), np.frombuffer(r[1], dtype=np.float32), None) for r in rows]


def rebuild(db: sqlite3.Connection, index: VectorIndex) -> None:
    """Load every vector. The watermark is read first: later changes are replayed by the next catch-up."""
    seq = max_seq(db)
    index.rebuild(_items(db, index), seq)


def open_index(db: sqlite3.Connection, index: VectorIndex) -> None:
    """On open: restore the index's persisted state when it belongs to this file and is not ahead of it."""
    seq = max_seq(db)
    index.load(store_uuid(db), seq)
    if index.watermark is None or index.watermark > seq:
        rebuild(db, index)
    else:
        catch_up(db, index)


def catch_up(db: sqlite3.Connection, index: VectorIndex) -> int:
    """Apply every logged change after the index's watermark; returns how many log entries were read."""
    if index.watermark is None:
        rebuild(db, index)
        return 0
    rows = db.execute("SELECT seq, vkey, op FROM vector_log WHERE seq > ? ORDER BY seq", (index.watermark,)).fetchall()
    if not rows:
        return 0
    watermark = int(rows[-1][0])
    structural = {int(r[1]) for r in rows if r[2] != 2}
    touched = structural | ({int(r[1]) for r in rows if r[2] == 2} if index.filters_natively else set())
    if len(touched) > max(REBUILD_AT, len(index) // 2):
        rebuild(db, index)
        return len(rows)
    keys = sorted(touched)
    upserts: list[tuple[int, np.ndarray, Payload | None]] = []
    for start in range(0, len(keys), 900):
        chunk = keys[start : start + 900]
        upserts.extend(_items(db, index, f"WHERE v.vkey IN ({','.join('?' * len(chunk))})", chunk))
    present = {key for key, _, _ in upserts}
    index.apply(upserts, [key for key in keys if key not in present], watermark)
    return len(rows)
