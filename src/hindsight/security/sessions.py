"""Sign-in sessions of the web console and /review, kept server-side in the store (table `console_sessions`).

Signing in with a bearer token opens a session: the browser's cookie holds an opaque random id, never the token,
and the store keeps only the SHA-256 of that id next to the hash of the token it was opened with. So a stolen
cookie is not an MCP token, sign-out ends the session everywhere (every server of the store reads the same table),
revoking the token ends every session opened with it, a session expires after `SESSION_TTL_S`, and a token holds
at most `MAX_SESSIONS_PER_TOKEN` sessions (the oldest ends when one more opens). Whoever reads
the store (a backup) learns hashes only: neither a token nor a session id can be recovered from them.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from hindsight.security.principal import Principal
from hindsight.security.tokens import principal_of_row
from hindsight.storage.client import StoreClient

SESSION_PREFIX = "hss_"
#: A session lives at most this long after sign-in (12 hours: a working day; then sign in again).
SESSION_TTL_S = 12 * 3600.0
#: Live sessions one token may hold (browsers, devices); signing in once more ends its oldest.
MAX_SESSIONS_PER_TOKEN = 20


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


class SessionStore(StoreClient):
    """Open, resolve and end sign-in sessions over the store's `console_sessions` table."""

    def start(self, token: str, ttl_s: float = SESSION_TTL_S) -> str:
        """A new session for a token the caller already verified; returns the opaque id for the cookie."""
        now = time.time()
        self._store.session_delete(expired_before=now)  # sessions that ran out are dropped as new ones open
        session_id = SESSION_PREFIX + secrets.token_urlsafe(32)
        self._store.session_add(_hash(session_id), _hash(token), now, now + ttl_s, MAX_SESSIONS_PER_TOKEN)
        return session_id

    def principal(self, session_id: str) -> Principal | None:
        """The principal of a live session (unexpired, its token not revoked), else None."""
        if not session_id.startswith(SESSION_PREFIX):
            return None
        row = self._store.session_token(_hash(session_id), time.time())
        return None if row is None else principal_of_row(row)

    def end(self, session_id: str) -> bool:
        """Sign-out: the session id stops working on every server of the store."""
        return bool(session_id) and self._store.session_delete(_hash(session_id)) > 0
