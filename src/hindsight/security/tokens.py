"""Bearer tokens for the HTTP transport: created and revoked by CLI, stored only as SHA-256 hashes.

Tokens are 32 random bytes, so a plain SHA-256 is enough (no salt or slow
hash needed: there is nothing to brute-force); the plaintext is shown once.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from hindsight.errors import InvalidInputError
from hindsight.security.principal import ALL_NAMESPACES, Principal, Scope
from hindsight.storage.migrations import migrate

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


class TokenStore:
    """Tokens in the same SQLite file as the memories (tables `tokens`)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(Path(path).expanduser()), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            migrate(self._db)

    def create(self, name: str, scopes: list[str], namespaces: list[str]) -> tuple[str, TokenInfo]:
        """Returns (plaintext token, info). The plaintext is not stored and cannot be shown again."""
        if not name.strip():
            raise InvalidInputError("token name must not be empty")
        try:
            parsed = sorted({Scope(s).value for s in scopes})
        except ValueError as exc:
            raise InvalidInputError(f"unknown scope in {scopes}: use read, write, admin") from exc
        if not parsed:
            raise InvalidInputError("a token needs at least one scope")
        spaces = sorted({n.strip() for n in namespaces if n.strip()})
        if not spaces:
            raise InvalidInputError(f"a token needs at least one namespace (or '{ALL_NAMESPACES}')")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo("tok_" + secrets.token_hex(6), name.strip(), parsed, spaces, time.time(), False)
        with self._lock:
            self._db.execute(
                "INSERT INTO tokens(id, name, token_hash, scopes, namespaces, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (info.id, info.name, _hash(token), json.dumps(parsed), json.dumps(spaces), info.created_at),
            )
        return token, info

    def revoke(self, token_id: str) -> bool:
        with self._lock:
            cursor = self._db.execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                                      (time.time(), token_id))
        return cursor.rowcount > 0

    def list(self) -> list[TokenInfo]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, name, scopes, namespaces, created_at, revoked_at FROM tokens ORDER BY created_at").fetchall()
        return [TokenInfo(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5] is not None) for r in rows]

    def export_rows(self) -> builtins.list[dict[str, object]]:
        """Every token as stored (hashes only, never a secret), for `hindsight backup --with-tokens`."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, token_hash, scopes, namespaces, created_at, revoked_at "
                                    "FROM tokens ORDER BY created_at").fetchall()
        keys = ("id", "name", "token_hash", "scopes", "namespaces", "created_at", "revoked_at")
        return [dict(zip(keys, row)) for row in rows]

    def import_rows(self, rows: builtins.list[dict[str, object]]) -> int:
        """Load exported tokens (same hashes, so the same secrets keep working); existing ids are left alone."""
        with self._lock:
            cursor = self._db.executemany(
                "INSERT OR IGNORE INTO tokens(id, name, token_hash, scopes, namespaces, created_at, revoked_at) "
                "VALUES (:id, :name, :token_hash, :scopes, :namespaces, :created_at, :revoked_at)", rows)
        return max(cursor.rowcount, 0)

    def delete_all(self) -> int:
        """Remove every token (a restored backup keeps none unless asked to)."""
        with self._lock:
            return max(self._db.execute("DELETE FROM tokens").rowcount, 0)

    def verify(self, token: str) -> Principal | None:
        """The principal a live token stands for, or None (unknown or revoked)."""
        if not token or not token.startswith(TOKEN_PREFIX):
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT name, scopes, namespaces FROM tokens WHERE token_hash = ? AND revoked_at IS NULL",
                (_hash(token),),
            ).fetchone()
        if row is None:
            return None
        return Principal(f"token:{row[0]}", frozenset(Scope(s) for s in json.loads(row[1])),
                         frozenset(json.loads(row[2])))

    def close(self) -> None:
        with self._lock:
            self._db.close()
