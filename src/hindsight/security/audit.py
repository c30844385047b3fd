"""Audit log: denied access and security decisions, with the principal.

Every content change is already in the append-only `history` table with its
actor; this log adds what history cannot show: who was refused, and when.
`AuditLog.entries` merges both into one timeline.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from hindsight.storage.migrations import migrate


@dataclass(frozen=True)
class AuditEntry:
    at: float
    principal: str
    action: str
    namespace: str | None
    memory_id: str | None
    outcome: str
    detail: str


class AuditLog:
    """Appends to the `audit` table of the memory file."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(Path(path).expanduser()), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            migrate(self._db)

    def record(self, principal: str, action: str, outcome: str, namespace: str | None = None,
               memory_id: str | None = None, detail: str = "") -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO audit(at, principal, action, namespace, memory_id, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (time.time(), principal, action, namespace, memory_id, outcome, detail),
            )

    def entries(self, limit: int = 100) -> list[AuditEntry]:
        """Newest first: denials and security events, plus every change from `history` (actor = principal)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT at, principal, action, namespace, memory_id, outcome, detail FROM audit "
                "UNION ALL SELECT h.at, h.actor, h.action, json_extract(COALESCE(h.after, h.before), '$.namespace'), "
                "h.memory_id, 'ok', h.note FROM history h ORDER BY 1 DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [AuditEntry(*row) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
