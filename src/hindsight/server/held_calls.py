"""The tool call holds its slot of the per-token call cap while it runs (attack round 30b, security/call_cap.py).

The MCP SDK keeps running a request whose client hung up: its POST ends at once, the work goes on in a worker
thread. `HTTPGuard` leaves the call's `CallSlot` in the ASGI scope; this middleware holds it from the request's
start in the MCP server to its end, so a token that sends calls and drops the connections still counts every one
that runs. stdio and in-process calls have no HTTP request and no slot.
"""

from __future__ import annotations

from typing import Any

from fastmcp.server.dependencies import get_http_request
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext

from hindsight.security.call_cap import CALL_SLOT_KEY, CallSlot


def _slot() -> CallSlot | None:
    try:
        slot = get_http_request().scope.get(CALL_SLOT_KEY)
    except RuntimeError:  # stdio or in-process: no HTTP request
        return None
    return slot if isinstance(slot, CallSlot) else None


class HeldCalls(Middleware):
    """Holds the HTTP request's call slot for as long as the MCP request it carried runs."""

    async def on_request(self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]) -> Any:
        slot = _slot()
        if slot is None:
            return await call_next(context)
        slot.hold()
        try:
            return await call_next(context)
        finally:
            slot.drop()
