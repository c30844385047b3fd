"""The review queue: proposed changes to a reviewed namespace, waiting for a person.

A proposal is a change an agent asked for (store a memory, update one, forget
one) recorded with who asked, when and why. It is kept in the same SQLite file
as the memories (table `proposals`, schema v3), and it is never deleted: an
approved or rejected proposal stays, with the reviewer, the time and the note,
next to the memory's own history.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from hindsight.errors import HindsightError, InvalidInputError
from hindsight.storage.migrations import migrate

Action = Literal["store", "update", "forget", "consolidate"]
ACTIONS: tuple[str, ...] = ("store", "update", "forget", "consolidate")
Decision = Literal["approved", "rejected"]


class ProposalNotFoundError(HindsightError, KeyError):
    """No proposal with that id in the caller's namespace."""

    code = "not_found"

    def __init__(self, proposal_id: str, namespace: str | None = None) -> None:
        where = f" in namespace '{namespace}'" if namespace else ""
        super().__init__(f"no proposal '{proposal_id}'{where}")

    def __str__(self) -> str:
        return str(self.args[0])


class ProposalDecidedError(InvalidInputError):
    """The proposal was already approved or rejected; a decision is final."""


@dataclass(frozen=True)
class Proposal:
    """One proposed change and, once decided, its outcome."""

    id: str
    namespace: str
    action: Action
    memory_id: str | None
    payload: dict[str, Any]
    reason: str
    proposed_by: str
    proposed_at: float
    status: str = "pending"
    reviewed_by: str | None = None
    reviewed_at: float | None = None
    review_note: str = ""
    result_memory_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class ReviewQueue:
    """Proposals in the memory database (its own connection, like the token store)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(Path(path).expanduser()), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA busy_timeout=5000")
            migrate(self._db)

    def add(self, namespace: str, action: str, payload: dict[str, Any], proposed_by: str,
            memory_id: str | None = None, reason: str = "") -> Proposal:
        if action not in ACTIONS:
            raise InvalidInputError(f"unknown proposal action '{action}': use one of {', '.join(ACTIONS)}")
        if action in ("update", "forget") and not memory_id:
            raise InvalidInputError(f"a '{action}' proposal needs the memory_id it changes")
        proposal = Proposal(id=f"prop_{uuid.uuid4().hex}", namespace=namespace, action=action,  # type: ignore[arg-type]
                            memory_id=memory_id, payload=payload, reason=reason, proposed_by=proposed_by,
                            proposed_at=time.time())
        with self._lock:
            self._db.execute(
                "INSERT INTO proposals(id, namespace, action, memory_id, payload, reason, proposed_by, proposed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (proposal.id, namespace, action, memory_id, json.dumps(payload, ensure_ascii=False, default=str),
                 reason, proposed_by, proposal.proposed_at),
            )
        return proposal

    def get(self, proposal_id: str, namespace: str | None = None) -> Proposal:
        with self._lock:
            row = self._db.execute("SELECT * FROM proposals WHERE id = ?", (proposal_id,)).fetchone()
        if row is None or (namespace is not None and row["namespace"] != namespace):
            raise ProposalNotFoundError(proposal_id, namespace)
        return _proposal(row)

    def list(self, namespace: str | None = None, status: str | None = "pending", limit: int = 50,
             offset: int = 0) -> list[Proposal]:
        """Oldest pending first (a queue); decided ones newest first."""
        where, params = [], []
        if namespace is not None:
            where.append("namespace = ?")
            params.append(namespace)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        order = "proposed_at ASC" if status == "pending" else "COALESCE(reviewed_at, proposed_at) DESC"
        sql = (f"SELECT * FROM proposals {'WHERE ' + ' AND '.join(where) if where else ''} "
               f"ORDER BY {order} LIMIT ? OFFSET ?")
        with self._lock:
            rows = self._db.execute(sql, [*params, limit, offset]).fetchall()
        return [_proposal(r) for r in rows]

    def count(self, namespace: str | None = None, status: str = "pending") -> int:
        sql, params = "SELECT COUNT(*) FROM proposals WHERE status = ?", [status]
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [status, namespace]
        with self._lock:
            return int(self._db.execute(sql, params).fetchone()[0])

    def claim(self, proposal_id: str) -> Proposal:
        """Move a pending proposal to 'applying' (compare-and-set: two reviewers cannot both apply it)."""
        self._transition(proposal_id, "pending", "applying")
        return self.get(proposal_id)

    def release(self, proposal_id: str) -> None:
        """Applying failed: the proposal is pending again, unchanged."""
        self._transition(proposal_id, "applying", "pending")

    def decide(self, proposal_id: str, decision: Decision, reviewer: str, note: str = "",
               result_memory_id: str | None = None) -> Proposal:
        """Record the final decision: approve a claimed proposal, or reject a pending one."""
        self._transition(proposal_id, "applying" if decision == "approved" else "pending", decision,
                         reviewer=reviewer, note=note, result_memory_id=result_memory_id)
        return self.get(proposal_id)

    def _transition(self, proposal_id: str, expected: str, new: str, reviewer: str | None = None,
                    note: str = "", result_memory_id: str | None = None) -> None:
        with self._lock:
            if new in ("approved", "rejected"):
                changed = self._db.execute(
                    "UPDATE proposals SET status = ?, reviewed_by = ?, reviewed_at = ?, review_note = ?, "
                    "result_memory_id = ? WHERE id = ? AND status = ?",
                    (new, reviewer, time.time(), note, result_memory_id, proposal_id, expected),
                ).rowcount
            else:
                changed = self._db.execute("UPDATE proposals SET status = ? WHERE id = ? AND status = ?",
                                           (new, proposal_id, expected)).rowcount
        if not changed:
            current = self.get(proposal_id)
            raise ProposalDecidedError(f"proposal '{proposal_id}' is {current.status}, not {expected}")

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _proposal(row: sqlite3.Row) -> Proposal:
    return Proposal(
        id=row["id"], namespace=row["namespace"], action=row["action"], memory_id=row["memory_id"],
        payload=json.loads(row["payload"]), reason=row["reason"], proposed_by=row["proposed_by"],
        proposed_at=row["proposed_at"], status=row["status"], reviewed_by=row["reviewed_by"],
        reviewed_at=row["reviewed_at"], review_note=row["review_note"], result_memory_id=row["result_memory_id"],
    )
