"""What a writer may claim about a memory: its `source` and `credibility` are bound to who wrote it.

`source: user` gives a memory the highest credibility (1.0): search ranks it first and hygiene will not let a
memory more than 0.3 less credible (an external document) retire it. So only a caller who speaks for the user
may claim it: the local owner (CLI, Python API, stdio), an admin of the namespace, or a token holding the
`user_source` grant on it. Everyone else (an agent's `write` token) writes as `agent` or `external`, and may set
`credibility` at most as high as the sources it may claim give (0.7).

* A claim the caller makes itself (memory_store's `source`, an explicit `credibility`) that it may not make is
  refused: `permission_denied` naming the field and the rule, and nothing is stored.
* What the server derives from an agent's report of the user's words (a user correction, ingested user turns,
  preferences at session end) is relayed by that agent: without the grant it is stored as `source: agent`.
* Any change to a memory (its text, tags, metadata, type, importance, credibility, time or status) is the
  editor's assertion: by a caller who may not claim the memory's source, the changed memory becomes `agent`
  with at most the agent's credibility, and history records the lowering (a tags-only edit of a `user` memory
  by an agent's token no longer keeps credibility 1.0). An unchanged value is no change.

The engine runs these checks on every write (`MemoryEngine.store_many`, `update`, import) and the review door
runs them before it queues a proposal, so every skin (MCP, console, CLI, API) meets the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hindsight.errors import PermissionDeniedError
from hindsight.model import DEFAULT_CREDIBILITY, MemoryInput, MemoryRecord, Source
from hindsight.security.principal import Principal, Scope, principal_of


def claimable(principal: Principal, namespace: str) -> frozenset[Source]:
    """The sources `principal` may write as in `namespace`."""
    if principal.allows(Scope.user_source, namespace):
        return frozenset(Source)
    return frozenset({Source.agent, Source.external})


def credibility_cap(principal: Principal, namespace: str) -> float:
    return max(DEFAULT_CREDIBILITY[source] for source in claimable(principal, namespace))


def _rule(principal: Principal, namespace: str) -> str:
    return (f"{principal.name} may write as {', '.join(sorted(s.value for s in claimable(principal, namespace)))} "
            f"in namespace '{namespace}' ('user' needs the user_source grant or admin there); nothing was stored")


def bind_inputs(items: Sequence[MemoryInput], actor: str, relayed: bool = False) -> list[MemoryInput]:
    """The items as `actor` may write them; raises PermissionDeniedError for a claim it may not make."""
    principal = principal_of(actor)
    bound = []
    for item in items:
        allowed = claimable(principal, item.namespace)
        if item.source not in allowed:
            if not relayed:
                raise PermissionDeniedError(f"source: '{item.source.value}' is not yours to claim: "
                                            + _rule(principal, item.namespace))
            item = item.model_copy(update={"source": Source.agent})
        cap = credibility_cap(principal, item.namespace)
        if relayed and item.credibility is not None and item.credibility > cap:  # derived, not claimed: lowered
            item = item.model_copy(update={"credibility": cap})
        if item.credibility is not None and item.credibility > cap:
            raise PermissionDeniedError(f"credibility: {item.credibility} is above {cap}, the most the sources "
                                        f"you may claim give: " + _rule(principal, item.namespace))
        bound.append(item)
    return bound


def bind_changes(current: MemoryRecord, changes: dict[str, Any], actor: str) -> dict[str, Any]:
    """An update's changes as `actor` may make them (see the module docstring); raises for a credibility claim."""
    principal = principal_of(actor)
    cap = credibility_cap(principal, current.namespace)
    wanted = changes.get("credibility")
    if wanted is not None and wanted > cap:
        raise PermissionDeniedError(f"updates.credibility: {wanted} is above {cap}, the most the sources you may "
                                    "claim give: " + _rule(principal, current.namespace))
    changed = any(value != getattr(current, key, None) for key, value in changes.items())
    if changed and current.source not in claimable(principal, current.namespace):
        changes = {**changes, "source": Source.agent,
                   "credibility": min(wanted if wanted is not None else current.credibility, cap)}
    return changes


def lowering_note(current: MemoryRecord, changes: dict[str, Any], actor: str) -> str:
    """What history says when a change lowered the memory's source ('' when it did not)."""
    source = changes.get("source")
    if source is None or source == current.source:
        return ""
    return (f"source lowered from {current.source.value} to {Source(source).value}: "
            f"{principal_of(actor).name} may not claim {current.source.value}")
