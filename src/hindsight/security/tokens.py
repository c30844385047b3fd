"""Bearer tokens for the HTTP transport: created and revoked by CLI, stored only as SHA-256 hashes.

Tokens are 32 random bytes, so a plain SHA-256 is enough (no salt or slow
hash needed: there is nothing to brute-force); the plaintext is shown once.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import secrets
import time
from dataclasses import dataclass

from hindsight.errors import InvalidInputError
from hindsight.security.namespace_names import grant_problem
from hindsight.security.principal import ALL_NAMESPACES, Principal, Scope
from hindsight.storage.client import StoreClient

TOKEN_PREFIX = "hs_"


@dataclass(frozen=True)
class TokenInfo:
    """A token's public description (never the secret)."""

    id: str
    name: str
    scopes: list[str]
    namespaces: list[str]
    created_at: float
    revoked: bool


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TokenStore(StoreClient):
    """Tokens in the memory store (table `tokens`, on every backend); the store stays its caller's to close."""

    def create(self, name: str, scopes: list[str], namespaces: list[str]) -> tuple[str, TokenInfo]:
        """Returns (plaintext token, info). The plaintext is not stored and cannot be shown again."""
        if not name.strip():
            raise InvalidInputError("name: a token name must not be empty")
        try:
            parsed = sorted({Scope(s).value for s in scopes})
        except ValueError as exc:
            raise InvalidInputError(f"scope: unknown scope in {scopes}: use {', '.join(s.value for s in Scope)}") from exc
        if not parsed:
            raise InvalidInputError("scope: a token needs at least one scope")
        spaces = sorted({n.strip() for n in namespaces if n.strip()})
        if not spaces:
            raise InvalidInputError(f"namespace: a token needs at least one namespace (or '{ALL_NAMESPACES}')")
        problems = [grant_problem(n) for n in spaces if n != ALL_NAMESPACES]
        if any(problems):
            raise InvalidInputError(f"namespace: {next(p for p in problems if p)}")
        if Scope.metrics.value in parsed and ALL_NAMESPACES not in spaces:
            raise InvalidInputError(f"scope: metrics counts the whole store, so it needs --namespace '{ALL_NAMESPACES}'")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo("tok_" + secrets.token_hex(6), name.strip(), parsed, spaces, time.time(), False)
        self._store.token_add(info.id, info.name, _hash(token), json.dumps(parsed), json.dumps(spaces), info.created_at)
        return token, info

    def revoke(self, token_id: str) -> bool:
        return self._store.token_revoke(token_id, time.time())

    def list(self) -> list[TokenInfo]:
        rows = self._store.token_rows()
        return [TokenInfo(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5] is not None) for r in rows]

    def any_created(self) -> bool:
        """True once any token was ever created in this database (revoked ones count: revoking never reopens)."""
        return bool(self._store.token_rows())

    def export_rows(self) -> builtins.list[dict[str, object]]:
        """Every token as stored (hashes only, never a secret), for `hindsight backup --with-tokens`."""
        columns, rows = self._store.table_rows("tokens")
        return [dict(zip(columns, row)) for row in rows]

    def import_rows(self, rows: builtins.list[dict[str, object]]) -> int:
        """Load exported tokens (same hashes, so the same secrets keep working); existing ids are left alone."""
        columns, _ = self._store.table_rows("tokens")
        before = len(self._store.token_rows())
        self._store.load_rows("tokens", [tuple(row.get(c) for c in columns) for row in rows])
        return len(self._store.token_rows()) - before

    def delete_all(self) -> int:
        """Remove every token (a restored backup keeps none unless asked to)."""
        return self._store.token_delete_all()

    def verify(self, token: str) -> Principal | None:
        """The principal a live token stands for, or None (unknown or revoked)."""
        if not token or not token.startswith(TOKEN_PREFIX):
            return None
        row = self._store.token_by_hash(_hash(token))
        return None if row is None else principal_of_row(row)


def principal_of_row(row: tuple[object, ...]) -> Principal:
    """The principal of a token row (name, scopes JSON, namespaces JSON)."""
    return Principal(f"token:{row[0]}", frozenset(Scope(s) for s in json.loads(str(row[1]))),
                     frozenset(json.loads(str(row[2]))))
