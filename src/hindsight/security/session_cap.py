"""How many MCP sessions one token may hold open on the HTTP transport (attack round 27).

Every `initialize` on `/mcp` opens a stateful session the MCP SDK keeps in memory until the client ends it
(`DELETE /mcp`) or it has been idle for the SDK's idle timeout (30 minutes); the SDK sets no limit by default. Live,
one token of the lowest scope (a metrics scraper's) opened 2,000 sessions in a loop, 16 a second on a loaded 2-core
machine, each holding about 36 KB of the server's memory for half an hour: some 1 GB held per token at that rate,
and no tool call needed.
`SessionCap` counts the sessions each principal opened (by the `mcp-session-id` the server answered with), forgets
one when it is ended, answered `404` (the SDK reaped it) or idle past the SDK's timeout, and a principal at its cap is
refused a new session (`429`) until it ends or reuses one; other tokens are not affected.

Attack round 28: the SDK also caps the sessions of the whole server (10,000 by default) and refuses any new one past
it (`503`) for everyone, so three tokens at the per-token cap (3 x 4096) starved every other token for half an hour.
The cap now also counts the server's sessions (`server_limit`, the SDK's): a new session that would pass it ends the
least recently used session of the principal holding the most (when that holds more than the newcomer), so a hog
pays for its own hoard and a token holding few sessions can always open one. A session with a request in flight (an
open GET stream) is never idle: the SDK keeps it past 30 minutes, so it stays counted; and a new session is counted
from the moment it is admitted (a reservation), so concurrent `initialize` calls cannot pass the cap together.
Attack round 29: a hog whose every session held a request in flight was never made to pay (none idle), so streams
held open pinned a full server; then its least recently used session ends all the same.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

#: sessions one principal may hold open at once (`HINDSIGHT_MAX_SESSIONS_PER_TOKEN`): an agent holds one per
#: connection, and a client that opens a session per call without `DELETE` (a load or evaluation harness, a server
#: run without auth where every caller is one principal) holds one per call for 30 idle minutes - so the default
#: leaves room for thousands (about 36 KB each: ~150 MB at the cap) while still bounding what one token can hold
DEFAULT_MAX_SESSIONS = 4096
#: the MCP SDK's idle timeout of a stateful session (`mcp.server.streamable_http_manager`): idle longer, it is gone
SESSION_IDLE_S = 30 * 60.0


def sdk_max_sessions() -> int:
    """The MCP SDK's limit on a server's open sessions (`StreamableHTTPSessionManager(max_sessions=...)`, which FastMCP
    leaves at its default); 10,000 where the SDK does not name it."""
    try:
        from mcp.server import streamable_http_manager
    except ImportError:  # pragma: no cover - the SDK is a dependency
        return 10_000
    return int(getattr(streamable_http_manager, "DEFAULT_MAX_SESSIONS", 10_000) or 10_000)


def max_sessions_per_token() -> int:
    """`HINDSIGHT_MAX_SESSIONS_PER_TOKEN`, a whole number of at least 1 (anything else: the default)."""
    raw = os.environ.get("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", "")
    return int(raw) if raw.strip().isdigit() and int(raw) >= 1 else DEFAULT_MAX_SESSIONS


class SessionCap:
    """Open sessions per principal; `admit` before a new session, `opened` / `seen` / `closed` after answers."""

    def __init__(self, limit: int | None = None, idle_s: float = SESSION_IDLE_S,
                 clock: Callable[[], float] = time.monotonic, server_limit: int | None = None) -> None:
        self.limit = limit if limit is not None else max_sessions_per_token()
        self.server_limit = server_limit if server_limit is not None else sdk_max_sessions()
        self.idle_s, self.clock = idle_s, clock
        self._open: dict[str, dict[str, float]] = {}  # principal -> session id -> last used
        self._owner: dict[str, str] = {}  # session id -> principal
        self._busy: dict[str, int] = {}  # session id -> requests in flight (an open GET stream keeps it alive)
        self._pending: dict[str, int] = {}  # principal -> new sessions admitted, not yet answered

    def _sweep(self, principal: str) -> None:
        """Forget `principal`'s sessions idle past the SDK's timeout (none with a request in flight)."""
        cutoff = self.clock() - self.idle_s
        sessions = self._open.get(principal, {})
        for session_id in [s for s, used in sessions.items() if used < cutoff and not self._busy.get(s)]:
            self.closed(session_id)

    def admit(self, principal: str) -> bool:
        """Whether `principal` may open one more session now (its idle ones are forgotten first)."""
        self._sweep(principal)
        return self.held(principal) < self.limit

    def full(self) -> bool:
        """Whether one more session would pass the server's limit (every principal's idle ones forgotten first)."""
        if self.total() < self.server_limit:
            return False
        for principal in list(self._open):
            self._sweep(principal)
        return self.total() >= self.server_limit

    def total(self) -> int:
        return len(self._owner) + sum(self._pending.values())

    def victim(self, principal: str) -> str | None:
        """The session to end so that `principal` may open one on a full server: the least recently used idle one
        of the principal holding the most, when that holds more than `principal` (else None: `principal` is the
        hog, or all hold as few); when every session of that principal has a request in flight, its least recently
        used one. It is forgotten here, before anyone awaits, so two newcomers never pick one."""
        held = {p: len(s) for p, s in self._open.items() if p != principal}
        hog = max(held, key=lambda p: held[p], default=None)
        if hog is None or held[hog] <= self.held(principal):
            return None
        sessions = self._open[hog]
        idle = [(used, s) for s, used in sessions.items() if not self._busy.get(s)]
        # attack round 29: a hog whose every session holds a request in flight (a GET stream each, which also keeps
        # it from the idle sweep) was never made to pay, so principals enough to fill the server held it for good;
        # then its least recently used session ends, stream and all (its client opens one again, as after a 404)
        session_id = min(idle or [(used, s) for s, used in sessions.items()])[1]
        self.closed(session_id)
        return session_id

    def reserve(self, principal: str) -> None:
        self._pending[principal] = self._pending.get(principal, 0) + 1

    def release(self, principal: str) -> None:
        _drop_one(self._pending, principal)

    def enter(self, session_id: str) -> None:
        if session_id in self._owner:
            self._busy[session_id] = self._busy.get(session_id, 0) + 1

    def leave(self, session_id: str) -> None:
        _drop_one(self._busy, session_id)
        self.seen(session_id)

    def opened(self, principal: str, session_id: str) -> None:
        self._open.setdefault(principal, {})[session_id] = self.clock()
        self._owner[session_id] = principal

    def owner(self, session_id: str) -> str | None:
        return self._owner.get(session_id)

    def seen(self, session_id: str) -> None:
        principal = self._owner.get(session_id)
        if principal is not None:
            self._open[principal][session_id] = self.clock()

    def closed(self, session_id: str) -> None:
        principal = self._owner.pop(session_id, None)
        if principal is not None:
            sessions = self._open[principal]
            sessions.pop(session_id, None)
            if not sessions:
                del self._open[principal]

    def held(self, principal: str) -> int:
        """Sessions `principal` holds open, counting those admitted and not yet answered."""
        return len(self._open.get(principal, {})) + self._pending.get(principal, 0)


def _drop_one(counts: dict[str, int], key: str) -> None:
    """Count one less under ``key``; the key goes when nothing is left (admissions pending, requests in flight)."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
