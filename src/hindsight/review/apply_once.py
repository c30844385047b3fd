"""An approved store proposal writes its memory once, also when its server dies while applying it (attack round 19).

An approval applies the change (the engine's write, its own transaction), then records the decision (another
one). A server killed between the two left the proposal `applying`; after the claim's lease it is pending again
(attack round 8) and may be approved again. An update or a forget applied twice changes nothing the second time,
and a public store is a duplicate to hygiene, but a private store is never compared by hygiene, so the second
approval wrote a twin of the private memory; and a rejection of the pending-again proposal left its memory active
under a rejected proposal.

The memory an approved store proposal writes therefore takes an id derived from the proposal's id
(`applied_memory_id`): a second apply collides with the first memory and answers it (`store_once`), and a
rejection can see that the approval already landed (`landed`). The id is hashed from text no idempotency key can
spell (a key has no control character; `write/idempotency.memory_id_for` hashes namespace, NUL, key), so no caller
can claim it beforehand.
"""

from __future__ import annotations

import hashlib
from typing import Any

from hindsight.engine import MemoryEngine
from hindsight.errors import StorageError
from hindsight.model import MemoryInput, MemoryRecord
from hindsight.review.queue import Proposal, ReviewQueue


def applied_memory_id(proposal_id: str) -> str:
    """The id the memory an approved store proposal writes gets (the shape of a random id: mem_ + 32 hex)."""
    return "mem_" + hashlib.sha256(f"\x00proposal\x00{proposal_id}".encode()).hexdigest()[:32]


def landed(engine: MemoryEngine, proposal_id: str) -> MemoryRecord | None:
    """The memory an earlier apply of this store proposal wrote, when there is one."""
    return engine.store.get(applied_memory_id(proposal_id))


def _found(record: MemoryRecord) -> dict[str, Any]:
    return {"memory_id": record.id, "action": "created", "status": record.status.value, "reason": "",
            "related_ids": [], "redactions": [], "supersedes": [], "replayed": True}


def store_once(engine: MemoryEngine, item: MemoryInput, actor: str, proposal_id: str) -> dict[str, Any]:
    """Write the proposal's memory under its derived id, or answer the memory an earlier apply wrote."""
    earlier = landed(engine, proposal_id)
    if earlier is not None:
        return _found(earlier)
    try:
        return engine.store_many([item], actor, [applied_memory_id(proposal_id)])[0].as_dict()
    except StorageError:  # another apply of it landed between the look and the write
        earlier = landed(engine, proposal_id)
        if earlier is None:
            raise
        return _found(earlier)


def _approved_of(actor: str, proposer: str) -> bool:
    return actor.startswith(f"{proposer} (approved by ") or actor.startswith(f"{proposer} (edited and approved by ")


def _is_kind(action: str, kind: str) -> bool:
    return action == "forget" if kind == "forget" else action not in ("create", "forget")


def change_landed(engine: MemoryEngine, queue: ReviewQueue, proposal: Proposal) -> str | None:
    """The memory an update or forget proposal changed, when an approval of it was applied but never recorded
    (attack round 20: the round-19 case for the other actions; a rejection then left the change under a rejected
    proposal). History holds one entry per applied approval, named "PROPOSER (approved by REVIEWER)"; when the
    memory holds more such entries of this kind than this proposer has approved proposals of it, one applied
    approval went unrecorded, and this pending proposal of the same proposer is taken to be it. No clock is
    compared (a proposal's time and the engine's may be different clocks)."""
    if proposal.action not in ("update", "forget") or proposal.memory_id is None:
        return None
    entries = sum(1 for entry in engine.store.history(proposal.memory_id)
                  if _is_kind(entry.action, proposal.action) and _approved_of(entry.actor, proposal.proposed_by))
    if not entries:
        return None
    recorded = 0
    for other_id in engine.store.proposals_naming(proposal.memory_id):  # this one too, when it is recorded
        other = queue.get(other_id)
        recorded += (other.status == "approved" and other.action == proposal.action
                     and other.proposed_by == proposal.proposed_by)
    return proposal.memory_id if entries > recorded else None
