"""One bare ASGI request to an app or middleware (the MCP HTTP guard's session tests, attack rounds 28 - 29)."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any


async def asgi_call(app: Any, method: str, session: str | None = None, token: str | None = None) -> dict[str, Any]:
    """Send one empty-bodied `method` request to `/mcp`; the response's status and `mcp-session-id`."""
    headers = [(b"host", b"127.0.0.1")]
    headers += [(b"authorization", f"Bearer {token}".encode())] if token else []
    headers += [(b"mcp-session-id", session.encode())] if session else []
    scope = {"type": "http", "method": method, "path": "/mcp", "headers": headers}
    answer: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["session"] = dict(message["headers"]).get(b"mcp-session-id", b"").decode()

    await app(scope, receive, send)
    return answer
