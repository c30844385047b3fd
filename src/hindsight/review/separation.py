"""Separation of duties: the proposer of a change never approves it (attack round 14).

A reviewed namespace exists so that a change an agent asks for takes effect only when someone else has looked at
it. Attack round 13 left that one principal could do both: an admin token of the namespace (which may also write)
proposed through `memory_store` and approved its own proposal with `memory_review_decide`, in the console or on
`/review`; over stdio the agent is the local owner, admin of everything, and approved what it had just proposed.

The rule: an approval is refused (`permission_denied`, naming `decision` and the rule) when the reviewer is the
principal that proposed the change, the same name: a token's name (`token:NAME`; two tokens given one name are
one person), or the local owner deciding through an MCP tool (stdio, or HTTP with auth off: the agent's door).
The owner's own doors, where no token says who is there, decide as before: the CLI (`hindsight review approve`),
the Python API and the consoles with auth off (a plain string reviewer, not an `Actor`). Rejecting one's own
proposal is allowed: it withdraws a change and makes none.

A deployment with one reviewer who also writes may allow self-approval explicitly:
`HINDSIGHT_REVIEW_SELF_APPROVAL=true` (setting `review_self_approval`); history then names the same principal as
proposer and reviewer ("token:ops (approved by token:ops)").

Edit-then-approve follows it too: a reviewer who edits a proposal before approving it wrote that text, so (where
self-approval is not allowed) the edited change is queued as the reviewer's own proposal for someone else, and the
original is rejected naming it.

The web console's own edits (edit, forget, restore, deprecate, restore a version, on a memory page) follow the
same rule: in a reviewed namespace an admin's change is a proposal like anyone's, for another admin to decide
(before round 14 the console applied an admin's change at once: one person changing reviewed knowledge alone, the
self-approval by another door), unless self-approval is allowed; the owner's console without tokens applies it at
once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hindsight.errors import AlreadyDecidedError, PermissionDeniedError
from hindsight.model import MemoryRecord, Status
from hindsight.read_model import HistoryEntry
from hindsight.review.queue import Proposal
from hindsight.security.principal import LOCAL_OWNER, Actor, Principal, Scope

RULE = ("rule: a proposal is approved by someone other than its proposer (a single-reviewer deployment sets "
        "HINDSIGHT_REVIEW_SELF_APPROVAL=true)")


def refuse_own_approval(proposal: Proposal, reviewer: str, allowed: bool) -> None:
    """Raise when `reviewer` (an `Actor` from a token or an MCP door) proposed `proposal` itself."""
    if may_approve(proposal, reviewer, allowed):
        return
    raise PermissionDeniedError(f"decision: {reviewer} proposed '{proposal.id}' and may not approve it; {RULE}")


def refuse_own_release(memory_id: str, writers: frozenset[str], releaser: str, allowed: bool,
                       action: str = "release") -> None:
    """Raise when `releaser` (an `Actor`: a token, or the agent's MCP door) wrote the quarantined memory itself.

    The guard's hold is the second look at a write; the writer lifting it alone is the self-approval by another
    door (over stdio the agent that was steered into storing an attack could release it at once). `writers`
    (`held_writers`) names everyone who wrote the held version: its creator, and whoever's change put it into
    quarantine or changed it while held (attack round 15: an admin's update that turned another's memory into an
    order, or a proposal approved and then held, was released by the admin or proposer that wrote it). Someone else
    releases it, or the owner by its own doors (the CLI, the Python API, the console without tokens), or any admin
    where `HINDSIGHT_REVIEW_SELF_APPROVAL=true`. `action="discard"` (console round 15): a writer erasing its own held
    write alone removes the evidence no one else has seen; the same rule."""
    if may_release(writers, releaser, allowed):
        return
    done = "released" if action == "release" else "discarded"
    raise PermissionDeniedError(f"memory_id: {releaser} wrote '{memory_id}' and may not {action} it from quarantine; "
                                f"rule: a quarantined write is {done} by someone other than its writer (a "
                                "single-reviewer deployment sets HINDSIGHT_REVIEW_SELF_APPROVAL=true)")


def refuse_decided_hold(current: MemoryRecord, history: Iterable[HistoryEntry], action: str = "release") -> None:
    """Raise `already_decided` when a release or discard finds the memory no longer held because another admin
    released it (attack round 18: the second of two releases read `not_found`, and a console discard that lost the
    race to a release erased the memory just made active). A memory never released is left to the caller's own
    refusal (`not_found` from the quarantine)."""
    if current.status == Status.quarantined:
        return
    released = [entry for entry in history if entry.action == "release"]
    if not released and action == "release":
        return
    by = f": released by {released[-1].actor} at {released[-1].at:%Y-%m-%d %H:%M:%S}" if released else ""
    raise AlreadyDecidedError(f"memory_id: '{current.id}' is no longer quarantined (it is {current.status.value}"
                              f"{by}); another decision came first, the {action} changed nothing")


def may_release(writers: frozenset[str], releaser: str, allowed: bool) -> bool:
    """Whether `releaser` may release a quarantined memory that `writers` wrote (the pages hide Release where not)."""
    return allowed or not isinstance(releaser, Actor) or str(releaser) not in writers


_APPROVED = re.compile(r"^(?P<proposer>.+?) \((?P<edited>edited and )?approved by (?P<reviewer>.+)\)$", re.DOTALL)


def writers_of(actor: str) -> frozenset[str]:
    """The principals who wrote a change history records as `actor`: an approved proposal
    ("token:P (approved by token:R)") is the proposer's text, an edited-and-approved one the reviewer's too."""
    match = _APPROVED.match(actor)
    if match is None:
        return frozenset({actor})
    if match["edited"]:
        return frozenset({match["proposer"], match["reviewer"]})
    return frozenset({match["proposer"]})


def held_writers(created_by: str, history: Iterable[HistoryEntry]) -> frozenset[str]:
    """Who wrote a quarantined memory's held version: its creator, the principal whose change put it into
    quarantine (the last time it went in) and everyone who changed it while held."""
    held: set[str] = set()
    for entry in history:
        before = (entry.before or {}).get("status")
        after = (entry.after or {}).get("status")
        if after != "quarantined":
            held.clear()  # released (or erased): an earlier hold says nothing about the present one
        elif before == "quarantined":
            held |= writers_of(entry.actor)  # changed while held
        else:
            held = set(writers_of(entry.actor))  # this change put it into quarantine
    return writers_of(created_by) | held


def may_approve(proposal: Proposal, reviewer: str, allowed: bool) -> bool:
    """Whether `reviewer` may approve `proposal` (the pages hide the approve buttons where not: the proposer sees
    only Reject, which withdraws its own change)."""
    return allowed or not isinstance(reviewer, Actor) or str(reviewer) != proposal.proposed_by


def second_look_needed(reviewer: str, allowed: bool) -> bool:
    """Whether text a reviewer writes (edit-then-approve) must itself wait for someone else: the same rule as for
    a proposer (a token or an MCP door, where self-approval is not allowed)."""
    return not allowed and isinstance(reviewer, Actor)


def changes_directly(who: Principal, namespace: str, self_approval: bool) -> bool:
    """Whether the console applies `who`'s change to a reviewed namespace at once rather than proposing it: only
    the local owner (auth off), or an admin of the namespace where self-approval is allowed. A token admin's edit
    would be a change no second person saw (round 2 applied it directly; the MCP tools already proposed it)."""
    return who == LOCAL_OWNER or (self_approval and who.allows(Scope.admin, namespace))


def console_reviewer(who: Principal) -> str:
    """The reviewer a console decides as: the token's principal (checked), or the local owner's plain name when the
    console runs without tokens (the owner's own door on loopback, like the CLI)."""
    return who.name if who == LOCAL_OWNER else Actor(who)
