"""How many MCP sessions one token may hold open on the HTTP transport (attack round 27).

Every `initialize` on `/mcp` opens a stateful session the MCP SDK keeps in memory until the client ends it
(`DELETE /mcp`) or it has been idle for the SDK's idle timeout (30 minutes); the SDK sets no limit by default. Live,
one token of the lowest scope (a metrics scraper's) opened 2,000 sessions in a loop, 16 a second on a loaded 2-core
machine, each holding about 36 KB of the server's memory for half an hour: some 1 GB held per token at that rate,
and no tool call needed.
`SessionCap` counts the sessions each principal opened (by the `mcp-session-id` the server answered with), forgets
one when it is ended, answered `404` (the SDK reaped it) or idle past the SDK's timeout, and a principal at its cap is
refused a new session (`429`) until it ends or reuses one; other tokens are not affected.
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


def max_sessions_per_token() -> int:
    """`HINDSIGHT_MAX_SESSIONS_PER_TOKEN`, a whole number of at least 1 (anything else: the default)."""
    raw = os.environ.get("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", "")
    return int(raw) if raw.strip().isdigit() and int(raw) >= 1 else DEFAULT_MAX_SESSIONS


class SessionCap:
    """Open sessions per principal; `admit` before a new session, `opened` / `seen` / `closed` after answers."""

    def __init__(self, limit: int | None = None, idle_s: float = SESSION_IDLE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit if limit is not None else max_sessions_per_token()
        self.idle_s, self.clock = idle_s, clock
        self._open: dict[str, dict[str, float]] = {}  # principal -> session id -> last used
        self._owner: dict[str, str] = {}  # session id -> principal

    def admit(self, principal: str) -> bool:
        """Whether `principal` may open one more session now (its idle ones are forgotten first)."""
        sessions = self._open.get(principal, {})
        cutoff = self.clock() - self.idle_s
        for session_id in [s for s, used in sessions.items() if used < cutoff]:
            self.closed(session_id)
        return len(self._open.get(principal, {})) < self.limit

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
        return len(self._open.get(principal, {}))
