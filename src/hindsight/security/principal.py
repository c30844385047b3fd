"""Who is calling, and what they may do: scopes (read, write, admin) over namespaces.

stdio runs as the local owner (the user who started the process owns the file);
HTTP callers are whoever their bearer token says, and nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Scope(str, Enum):
    """read: search/get/list/history; write: store/update/forget/events; admin: delete, quarantine review, tokens."""

    read = "read"
    write = "write"
    admin = "admin"


ALL_NAMESPACES = "*"


@dataclass(frozen=True)
class Principal:
    """An authenticated caller."""

    name: str
    scopes: frozenset[Scope]
    namespaces: frozenset[str]

    def allows(self, scope: Scope, namespace: str | None) -> bool:
        """admin implies write implies read; namespace None means a store-wide operation (admin over '*')."""
        implied = {Scope.admin: {Scope.admin, Scope.write, Scope.read}, Scope.write: {Scope.write, Scope.read},
                   Scope.read: {Scope.read}}
        if not any(scope in implied[held] for held in self.scopes):
            return False
        if ALL_NAMESPACES in self.namespaces:
            return True
        return namespace is not None and namespace in self.namespaces


LOCAL_OWNER = Principal("local", frozenset({Scope.admin}), frozenset({ALL_NAMESPACES}))
