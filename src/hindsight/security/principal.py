"""Who is calling, and what they may do: scopes (read, write, admin, metrics, user_source) over namespaces.

stdio runs as the local owner (the user who started the process owns the file);
HTTP callers are whoever their bearer token says, and nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Scope(str, Enum):
    """read: search/get/list/history; write: store/update/forget/events; admin: delete, quarantine review, tokens.

    Two grants stand beside them: `metrics` (scrape /metrics, store-wide counts; nothing else) and `user_source`
    (a write may claim `source: user`, credibility 1.0, on the token's namespaces). admin implies both.
    """

    read = "read"
    write = "write"
    admin = "admin"
    metrics = "metrics"
    user_source = "user_source"


ALL_NAMESPACES = "*"

_IMPLIED: dict[Scope, frozenset[Scope]] = {
    Scope.admin: frozenset(Scope),
    Scope.write: frozenset({Scope.write, Scope.read}),
    Scope.read: frozenset({Scope.read}),
    Scope.metrics: frozenset({Scope.metrics}),
    Scope.user_source: frozenset({Scope.user_source}),
}


@dataclass(frozen=True)
class Principal:
    """An authenticated caller."""

    name: str
    scopes: frozenset[Scope]
    namespaces: frozenset[str]

    def allows(self, scope: Scope, namespace: str | None) -> bool:
        """admin implies every scope, write implies read; namespace None means a store-wide operation (needs '*')."""
        if not any(scope in _IMPLIED[held] for held in self.scopes):
            return False
        if ALL_NAMESPACES in self.namespaces:
            return True
        return namespace is not None and namespace in self.namespaces


LOCAL_OWNER = Principal("local", frozenset({Scope.admin}), frozenset({ALL_NAMESPACES}))


class Actor(str):
    """The name history and proposals record for a change, carrying the principal who asked for it.

    The MCP gate and the web console hand the engine an Actor, so the engine's write path can check what the
    caller may claim (hindsight.security.claims). A plain string is an in-process caller (CLI, Python API,
    an approved proposal): the local owner, who can already write the file.
    """

    principal: Principal

    def __new__(cls, principal: Principal) -> Actor:
        actor = super().__new__(cls, principal.name)
        actor.principal = principal
        return actor

    def __reduce__(self) -> tuple[type[Actor], tuple[Principal]]:  # copies and pickles keep the principal
        return (Actor, (self.principal,))


def principal_of(actor: str) -> Principal:
    """The principal behind an actor (an Actor's own, else the local owner)."""
    return actor.principal if isinstance(actor, Actor) else LOCAL_OWNER
