"""Audit log: denied access and security decisions, with the principal.

Every content change is already in the append-only `history` table with its
actor; this log adds what history cannot show: who was refused, and when.
`AuditLog.entries` merges both into one timeline.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hindsight.security.crypto import PREFIX
from hindsight.storage.client import StoreClient


@dataclass(frozen=True)
class AuditEntry:
    at: float
    principal: str
    action: str
    namespace: str | None
    memory_id: str | None
    outcome: str
    detail: str


class AuditLog(StoreClient):
    """Appends to the `audit` table of the memory store (every backend); the store stays its caller's to close."""

    def record(self, principal: str, action: str, outcome: str, namespace: str | None = None,
               memory_id: str | None = None, detail: str = "") -> None:
        self._store.audit_add(time.time(), principal, action, outcome, namespace, memory_id, detail)

    def entries(self, limit: int = 100) -> list[AuditEntry]:
        """Newest first: denials and security events, plus every change from `history` (actor = principal)."""
        entries = []
        for at, principal, action, namespace, memory_id, outcome, detail in self._store.audit_rows(limit):
            shown = "[private]" if str(detail or "").startswith(PREFIX) else detail  # a private memory's sealed note
            entries.append(AuditEntry(at, principal, action, namespace, memory_id, outcome, shown))
        return entries
