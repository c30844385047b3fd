"""How many calls one principal may have in flight on the HTTP transport (attack round 30b).

Every sync MCP tool and every console page runs on one shared worker-thread pool (anyio's default limiter, 40
threads), and nothing bounded how many calls one token kept in flight: a `read` token holding ~40 slow calls open
(searches with `top_k` 100, `memory_summarize` of 200 ids) queued every other caller's tools and pages behind its
own. `HTTPGuard` now admits a call only while its principal has fewer than `limit` in flight and answers the rest
`429` with `Retry-After` and a typed error (`too_many_calls: ...`, a transient code: a client retries it unchanged).

A call is counted from its admission until both its HTTP request and the work it started have ended: the MCP SDK
keeps running a tool call whose client hung up (its POST ends at once), so a `CallSlot` is held by the request
and, through the ASGI scope (`CALL_SLOT_KEY`), by the tool call itself (server/held_calls.py); the principal's
count drops when the last holder lets go. A slot let go by its request before its tool call started is taken up
again by the call (counted, never refused: the work is already queued).

The default (8, `HINDSIGHT_MAX_CALLS_PER_TOKEN`) is a fifth of the pool: an honest agent makes one call at a time
(the resilient client: one call and one flushing write), a busy one a handful in parallel, and it takes five tokens
at their cap to fill the pool. With auth off (loopback only, every caller the local owner) and on stdio (one local
client) there is nobody to be fair to and no cap applies.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]

#: calls one principal may have in flight at once: a fifth of anyio's default pool of 40 worker threads
DEFAULT_MAX_CALLS = 8
#: seconds a refused caller is told to wait (`Retry-After`): slow calls take about this long on a busy server
RETRY_AFTER_S = 1
#: where the guard leaves a call's slot in the ASGI scope, for the tool call to hold it while it runs
CALL_SLOT_KEY = "hindsight.call_slot"


def max_calls_per_token() -> int:
    """`HINDSIGHT_MAX_CALLS_PER_TOKEN`, a whole number of at least 1 (anything else: the default)."""
    raw = os.environ.get("HINDSIGHT_MAX_CALLS_PER_TOKEN", "")
    return int(raw) if raw.strip().isdigit() and int(raw) >= 1 else DEFAULT_MAX_CALLS


class CallSlot:
    """One admitted call of `who`, held by its HTTP request (from admission) and by the work it started."""

    def __init__(self, cap: CallCap, who: str) -> None:
        self.cap, self.who, self.holders = cap, who, 1

    def hold(self) -> None:
        """The call's work starts: counted again if its request has already let go."""
        with self.cap.lock:
            if self.holders == 0:
                self.cap.count(self.who, 1)
            self.holders += 1

    def drop(self) -> None:
        """A holder is done; the call stops counting when the last one is."""
        with self.cap.lock:
            if self.holders > 0:
                self.holders -= 1
                if self.holders == 0:
                    self.cap.count(self.who, -1)


class CallCap:
    """Calls in flight per principal; `admit` before a call takes a worker thread."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit if limit is not None else max_calls_per_token()
        self.lock = threading.Lock()
        self._in_flight: dict[str, int] = {}

    def admit(self, who: str) -> CallSlot | None:
        """A slot for one more call of `who`, or None when it has `limit` in flight."""
        with self.lock:
            if self._in_flight.get(who, 0) >= self.limit:
                return None
            self.count(who, 1)
        return CallSlot(self, who)

    def count(self, who: str, step: int) -> None:
        """Add `step` to `who`'s calls in flight (the caller holds `lock`)."""
        left = self._in_flight.get(who, 0) + step
        if left > 0:
            self._in_flight[who] = left
        else:
            self._in_flight.pop(who, None)

    def in_flight(self, who: str) -> int:
        return self._in_flight.get(who, 0)

    def refusal(self, who: str) -> str:
        """The typed message of a refused call (`too_many_calls` is transient: retry the same call later)."""
        return (f"too_many_calls: {who} has {self.in_flight(who)} calls in flight, the most one token may have at "
                f"once (HINDSIGHT_MAX_CALLS_PER_TOKEN={self.limit}); retry after {RETRY_AFTER_S} s (Retry-After), "
                "when one of them has ended")


#: JSON-RPC methods that take no worker thread and are bounded elsewhere (`initialize`: the session cap)
UNCOUNTED_METHODS = frozenset({"initialize", "ping"})


def parsed_message(body: bytes) -> Any:
    """The JSON of an MCP POST body, or None when it is not JSON. Nested deeper than Python's parser goes (a 10 KB
    body of 5,000 brackets) is not JSON here either: `json.loads` raised RecursionError, which ended the request in
    a 500 with a traceback before the SDK could refuse it as a parse error (attack round 31); the SDK's own parser
    stops far shallower, so such a body is refused unread there."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def counts_as_call(body: bytes) -> bool:
    """Whether an MCP POST body is a JSON-RPC request that does work (a tool call, a resource read...): not a
    notification or response (answered 202 at once; refusing one would break its session), not `initialize` or
    `ping`, not a body the SDK refuses unread (malformed, too deep, a batch)."""
    message = parsed_message(body)
    return (isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str)
            and message["method"] not in UNCOUNTED_METHODS)


async def read_body(receive: Receive, most: int) -> tuple[bytes, Receive]:
    """The request body (read up to `most` bytes) and a `receive` that hands it on again, then what follows."""
    chunks: list[bytes] = []
    later: list[MutableMapping[str, Any]] = []
    size, more = 0, True
    while more and size <= most:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: the app reads that after the body
            later.append(message)
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = bool(message.get("more_body", False))
    first: list[MutableMapping[str, Any]] = [{"type": "http.request", "body": b"".join(chunks), "more_body": more},
                                             *later]

    async def replay() -> MutableMapping[str, Any]:
        return first.pop(0) if first else await receive()

    return bytes(first[0]["body"]), replay
