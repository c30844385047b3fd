"""Whose claims an approved proposal carries: the proposer's, not the reviewer's or the local owner's.

A proposal is applied in process, and a plain string actor is the local owner, who may claim anything
(security/claims.py). So an agent's edit of a `user` memory, approved in a reviewed namespace, kept
`source: user` and credibility 1.0, while the same edit in a plain namespace became `agent` 0.7 (attack round 5).
An approved update, forget or consolidation therefore runs as a principal with the proposer's write scope on the namespace
and no `user_source` grant: a changed memory the proposer could not speak for becomes the agent's. A proposed
store was already bound when it was proposed (a claim beyond the proposer's grant is refused then), so it is
applied as before.
"""

from __future__ import annotations

from hindsight.review.queue import Proposal
from hindsight.security.principal import Actor, Principal, Scope


def proposer_actor(name: str, proposal: Proposal) -> str:
    """The actor an approved `proposal` is applied as (`name` is what history records)."""
    if proposal.action not in ("update", "forget", "consolidate"):
        return name
    return Actor(Principal(name, frozenset({Scope.write}), frozenset({proposal.namespace})))
