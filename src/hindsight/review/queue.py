"""The review queue: proposed changes to a reviewed namespace, waiting for a person.

A proposal is a change an agent asked for (store a memory, update one, forget
one) recorded with who asked, when and why. It is kept in the memory store
(table `proposals`, on every backend), and it is never deleted: an
approved or rejected proposal stays, with the reviewer, the time and the note,
next to the memory's own history.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import asdict, dataclass
from typing import Any, Literal

from hindsight.errors import AlreadyDecidedError, HindsightError, InvalidInputError
from hindsight.security.crypto import PREFIX
from hindsight.storage.client import StoreClient

Action = Literal["store", "update", "forget", "consolidate"]
ACTIONS: tuple[str, ...] = ("store", "update", "forget", "consolidate")
Decision = Literal["approved", "rejected"]


class ProposalNotFoundError(HindsightError, KeyError):
    """No proposal with that id in the caller's namespace."""

    code = "not_found"

    def __init__(self, proposal_id: str, namespace: str | None = None, field: str | None = None) -> None:
        where = f" in namespace '{namespace}'" if namespace else ""
        # a proposal is decided in its own namespace: the MCP tool's `namespace` defaults to 'default' (ux round 35:
        # deciding a proposal of 'kb' without it read as if the proposal were gone)
        hint = " (pass the namespace it was proposed in)" if namespace and namespace != "*" else ""
        super().__init__(f"{field}: '{proposal_id}' was not found{where} (neither a proposal's id nor the start of one)" if field
                         else f"no proposal '{proposal_id}'{where}{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


class ProposalDecidedError(AlreadyDecidedError):
    """The proposal was already approved or rejected, or another reviewer is applying it: a decision is final, and
    the one that lost the race changed nothing (`already_decided`, naming the proposal and its memory)."""


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


#: seconds a claim ('applying') holds a proposal before another reviewer may take it: longer than any apply
#: (a write's budget is 60 s per memory); `HINDSIGHT_REVIEW_CLAIM_LEASE_S` (read when used)
CLAIM_LEASE_S = 900.0


def claim_lease_s() -> float:
    try:
        lease = float(os.environ.get("HINDSIGHT_REVIEW_CLAIM_LEASE_S", CLAIM_LEASE_S))
    except ValueError:
        return CLAIM_LEASE_S
    return lease if lease > 0 else CLAIM_LEASE_S


def keyed_proposal_id(memory_id: str) -> str:
    """The proposal id of a keyed request: derived, like the memory id (write/idempotency.py), from the namespace
    and the idempotency key, so the same request queued twice at once collides instead of waiting twice."""
    return "prop_" + memory_id.removeprefix("mem_")


class ReviewQueue(StoreClient):
    """Proposals in the memory store; the store stays its caller's to close."""

    def add(self, namespace: str, action: str, payload: dict[str, Any], proposed_by: str,
            memory_id: str | None = None, reason: str = "", private: bool = False,
            proposal_id: str | None = None) -> Proposal:
        """Record a pending proposal. `private`: the payload holds a private memory's text, so it is kept sealed
        under the store's key (bound to the proposal id) like the memory itself, and so are the reason (a forget's
        reason: attack round 26) and, once decided, the reviewer's note (round 27); without a key it is refused.

        `proposal_id` (see `keyed_proposal_id`): a keyed request's own id; when a proposal with it exists already
        (the same request queued meanwhile by another server of the store), that one is returned and nothing is
        added (attack round 12: one key sent to two servers at once queued two proposals)."""
        if action not in ACTIONS:
            raise InvalidInputError(f"action: unknown proposal action '{action}': use one of {', '.join(ACTIONS)}")
        if action in ("update", "forget") and not memory_id:
            raise InvalidInputError(f"memory_id: a '{action}' proposal needs the memory_id it changes")
        proposal = Proposal(id=proposal_id or f"prop_{uuid.uuid4().hex}", namespace=namespace, action=action,  # type: ignore[arg-type]
                            memory_id=memory_id, payload=payload, reason=reason, proposed_by=proposed_by,
                            proposed_at=time.time())
        stored = json.dumps(payload, ensure_ascii=False, default=str)
        sealed_reason = reason
        if private:
            stored = self._store.seal_text(stored, proposal.id)
            sealed_reason = self._store.seal_text(reason, proposal.id) if reason else ""
        added = self._store.proposal_add({**proposal.as_dict(), "payload": stored, "reason": sealed_reason},
                                         keep_existing=bool(proposal_id))
        return proposal if added else self.get(proposal.id, namespace)

    def get(self, proposal_id: str, namespace: str | None = None) -> Proposal:
        rows = self._store.proposal_rows(proposal_id=proposal_id, namespace=namespace, limit=1)
        if not rows:
            raise ProposalNotFoundError(proposal_id, namespace)
        return self._proposal(rows[0])

    def list(self, namespace: str | None = None, status: str | None = "pending", limit: int = 50,
             offset: int = 0, lease_s: float | None = None) -> list[Proposal]:
        """Oldest pending first (a queue); decided ones newest first."""
        if status == "pending":
            self.release_stale(lease_s, namespace=namespace)
        return [self._proposal(r) for r in self._store.proposal_rows(namespace=namespace, status=status, limit=limit,
                                                                offset=offset)]

    def count(self, namespace: str | None = None, status: str = "pending") -> int:
        return self._store.proposal_count(namespace, status)

    def claim(self, proposal_id: str, lease_s: float | None = None) -> Proposal:
        """Move a pending proposal to 'applying' (compare-and-set: two reviewers cannot both apply it)."""
        self.release_stale(lease_s, proposal_id=proposal_id)
        self._transition(proposal_id, "pending", "applying")
        return self.get(proposal_id)

    def release_stale(self, lease_s: float | None = None, proposal_id: str | None = None,
                      namespace: str | None = None) -> int:
        """A claim older than the lease is pending again (attack round 8: a server killed while applying left
        the proposal 'applying' for good: neither listed, approved nor rejected). Applying it again is safe: a
        store already applied is a duplicate to hygiene, an update or forget already applied changes nothing."""
        lease = claim_lease_s() if lease_s is None else lease_s
        return self._store.proposal_release_stale(time.time() - lease, proposal_id=proposal_id, namespace=namespace)

    def release(self, proposal_id: str) -> None:
        """Applying failed: the proposal is pending again, unchanged."""
        self._transition(proposal_id, "applying", "pending")

    def decide(self, proposal_id: str, decision: Decision, reviewer: str, note: str = "",
               result_memory_id: str | None = None, lease_s: float | None = None, claimed: bool = False) -> Proposal:
        """Record the final decision: approve a claimed proposal, or reject a pending one (`claimed`: one this
        reviewer claimed first, so that what it queued beside the rejection is queued by the race's winner only)."""
        if decision == "rejected" and not claimed:
            self.release_stale(lease_s, proposal_id=proposal_id)
        if note and self._sealed(proposal_id):  # a private proposal's note is sealed like its payload (round 27)
            note = self._store.seal_text(note, proposal_id)
        self._transition(proposal_id, "applying" if decision == "approved" or claimed else "pending", decision,
                         reviewer=reviewer, note=note, result_memory_id=result_memory_id)
        return self.get(proposal_id)

    def _transition(self, proposal_id: str, expected: str, new: str, reviewer: str | None = None,
                    note: str = "", result_memory_id: str | None = None) -> None:
        changed = self._store.proposal_transition(proposal_id, expected, new, reviewer=reviewer, at=time.time(),
                                                  note=note, result_memory_id=result_memory_id)
        if not changed:
            raise ProposalDecidedError(lost_race(self.get(proposal_id), expected))

    def _sealed(self, proposal_id: str) -> bool:
        """Whether the proposal holds a private memory's text (its payload was sealed when it was queued)."""
        rows = self._store.proposal_rows(proposal_id=proposal_id, limit=1)
        return bool(rows) and str(rows[0]["payload"]).startswith(PREFIX)

    def _proposal(self, row: dict[str, Any]) -> Proposal:
        opened = self._store.open_text(str(row["payload"]), row["id"])
        try:
            payload = json.loads(opened)
        except json.JSONDecodeError:  # sealed, and this process has no key: nothing can apply it
            payload = {"sealed": opened}
        return _proposal({**row, "reason": self._store.open_text(str(row["reason"] or ""), row["id"]),
                          "review_note": self._store.open_text(str(row["review_note"] or ""), row["id"])}, payload)


def lost_race(current: Proposal, expected: str) -> str:
    """What a decision that found the proposal no longer `expected` says: the proposal, its memory, what became of it
    and who decided it (attack round 18: it said only "is approved, not pending", as `invalid_input`)."""
    memory_id = current.result_memory_id or current.memory_id
    what = (f"{current.action} of memory '{memory_id}'" if memory_id
            else f"{current.action} of a new memory in namespace '{current.namespace}'")
    if current.status in ("approved", "rejected"):
        by = f" by {current.reviewed_by}" if current.reviewed_by else ""
        return (f"proposal '{current.id}' ({what}) was already {current.status}{by}: a decision is final; "
                "nothing changed")
    if current.status == "applying":
        return (f"proposal '{current.id}' ({what}) is being applied by another reviewer's decision; nothing changed "
                "(list the queue again: it is pending again only if that apply fails)")
    return f"proposal '{current.id}' ({what}) is {current.status}, not {expected}; nothing changed"


def _proposal(row: dict[str, Any], payload: dict[str, Any]) -> Proposal:
    return Proposal(
        id=row["id"], namespace=row["namespace"], action=row["action"], memory_id=row["memory_id"],
        payload=payload, reason=row["reason"], proposed_by=row["proposed_by"],
        proposed_at=row["proposed_at"], status=row["status"], reviewed_by=row["reviewed_by"],
        reviewed_at=row["reviewed_at"], review_note=row["review_note"], result_memory_id=row["result_memory_id"],
    )
