"""The front door's refusals as ASGI responses (split out of security/http_guard.py in attack round 43).

`refuse`: a JSON error for the pages; `refuse_rpc`: a JSON-RPC error for the MCP endpoint, which MCP clients
surface as the error's message (and `data`); `store_unavailable`: the store could not be read or written while a
request was checked or served (PostgreSQL down or restarting, SQLite's write lock held too long) - 503 with
`Retry-After` and the store's typed message (`storage_unavailable: ... nothing was written, retry`), never a 500
whose traceback names no rule (attack round 43).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from hindsight.errors import StorageError
from hindsight.security.call_cap import RETRY_AFTER_S

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def refuse(send: Send, status: int, error: str, message: str,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": error, "error_description": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


async def refuse_rpc(send: Send, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None,
                     data: dict[str, Any] | None = None, request_id: Any = None) -> None:
    """A refusal of an MCP request as a JSON-RPC error (`id` null unless the body was read); the code -32600 is
    JSON-RPC's "invalid request"."""
    error: dict[str, Any] = {"code": -32600, "message": message, **({"data": data} if data is not None else {})}
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


def retry_after() -> list[tuple[bytes, bytes]]:
    return [(b"retry-after", str(RETRY_AFTER_S).encode())]


def transient(exc: BaseException) -> bool:
    """A store failure that a later retry of the same request may not meet (unavailable, busy)."""
    return isinstance(exc, StorageError) and bool(getattr(exc, "retryable", False))


async def store_unavailable(send: Send, is_mcp: bool, exc: StorageError) -> None:
    """503 for a request the store failed transiently under, in the channel's own shape."""
    code = getattr(exc, "code", "storage_unavailable")
    if is_mcp:
        await refuse_rpc(send, 503, f"{code}: {exc}", retry_after())
    else:
        await refuse(send, 503, code, str(exc), retry_after())
