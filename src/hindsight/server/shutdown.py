"""`FlushOnShutdown`: write what the audit log holds in memory when the HTTP server shuts down (attack round 33).

The audit log keeps a repeated denial's count in memory (`security/audit.py`) and writes it at the window's end;
what it holds at shutdown must reach the store too. uvicorn answers SIGTERM with the ASGI lifespan's shutdown and
then raises the signal again with its default action, so the process ends there: neither a `finally` around
`run` nor FastMCP's own lifespan (entered outside uvicorn's serve) runs. This middleware writes the counts when the
application's lifespan shutdown ends, before uvicorn reports it complete.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from hindsight.security.audit import AuditLog

Message = MutableMapping[str, Any]
log = logging.getLogger(__name__)
ASGIApp = Callable[[Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


class FlushOnShutdown:
    """Pure ASGI middleware: every scope passes unchanged; the lifespan's `shutdown.complete` first flushes `audit`."""

    def __init__(self, app: ASGIApp, audit: AuditLog) -> None:
        self.app, self.audit = app, audit

    async def __call__(self, scope: Message, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def flushing_send(message: Message) -> None:
            if message["type"] in ("lifespan.shutdown.complete", "lifespan.shutdown.failed"):
                try:
                    self.audit.flush()
                except Exception as exc:  # the shutdown goes on; what was lost is said once
                    log.warning("audit: the denial counts held in memory were not written: %s", type(exc).__name__)
            await send(message)

        await self.app(scope, receive, flushing_send)
