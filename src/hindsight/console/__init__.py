"""The web console under /console (see app.py for sign-in, CSRF and CSP; one module per page group)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hindsight.console.app import ConsoleApp
from hindsight.console.pages_browse import mount_browse
from hindsight.console.pages_bulk import mount_bulk
from hindsight.console.pages_health import mount_health
from hindsight.console.pages_queues import mount_queues
from hindsight.engine import MemoryEngine
from hindsight.review.service import ReviewService
from hindsight.security.audit import AuditLog
from hindsight.security.tokens import TokenStore


def mount_web_console(mcp: Any, engine: MemoryEngine, review: ReviewService, tokens: TokenStore | None,
                      observer: Any = None, required: Callable[[], bool] | None = None,
                      audit: AuditLog | None = None) -> None:
    """Register every /console route on the FastMCP server (they answer over the HTTP transport only).

    `observer` (the server's RequestObserver) feeds the searches-per-hour plot; console searches are noted in it.
    """
    # the CSRF key is kept in the store, so a form rendered by one server is accepted by another on the same store
    secret = engine.store.kept_secret("console_secret").encode()
    app = ConsoleApp(mcp, tokens, required, audit, secret)
    app.mount_basics()
    mount_browse(app, engine, (lambda: observer.note("memory_search")) if observer is not None else None, review)
    mount_bulk(app, engine, review)
    mount_queues(app, engine, review)
    mount_health(app, engine, observer)
