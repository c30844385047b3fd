"""A client that keeps an agent's memory usable when the server is not.

Every write carries an idempotency key (generated unless given, kept with the
queued item), so a write that was sent but not confirmed (a timeout, a killed
server) can be retried without a twin: the server stores one memory per key.
Writes that cannot be confirmed go to a local SQLite queue (durable across
restarts); a background worker replays them in order (nothing overtakes a
queued write) with exponential backoff and jitter. Errors are typed (hindsight.errors.error_kind, read by
client/failures.py): a refusal of
the request itself (`invalid_input:`, `idempotency_conflict:`, a schema error; also the front door's JSON-RPC refusal
of a body past its limit, attack round 20) is final: that write moves to a dead-letter table at once; no answer, busy, timeouts and other transient codes stay queued without limit; an
ambiguous answer (a generic `storage_error`, `permission_denied`, `not_found`, `encryption_unavailable`, an
unknown code) is retried `max_refusals` times with backoff, then set aside as a dead letter, so one poison write
does not block the writes behind it. Dead letters can be listed and replayed (`replay`, `hindsight client-queue`)
with their first idempotency key, so nothing is lost or stored twice. A call refused because the token has its most
calls in flight (`too_many_calls`, HTTP 429) is transient: the write stays queued and is sent again no sooner than
the server's Retry-After (attack round 30b). A search that cannot reach the server degrades to the last semantic
memories this client saw in the namespace asked for that pass the query's filters (client/degraded.py),
flagged `degraded` (the seed's "local cache + retry" advice). Timeouts default to 10 s.

`AsyncResilientClient` is the asyncio client; `ResilientClient` runs one on a
private event-loop thread for synchronous code.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

from fastmcp import Client
from fastmcp.exceptions import ToolError
from mcp.shared.exceptions import MCPError

from hindsight.client.degraded import degraded_results
from hindsight.client.failures import (
    Unreachable,
    describe,
    is_final,
    is_transient,
    retry_after,
)
from hindsight.client.queue import WriteQueue, new_key
from hindsight.security.crypto import MemoryCipher, load_cipher

T = TypeVar("T")


@dataclass
class ClientStatus:
    """What the client knows about the server right now."""

    queue_length: int
    dead_letters: int
    degraded: bool
    last_error: str
    last_success_at: float | None
    next_retry_in: float | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class AsyncResilientClient:
    """asyncio MCP client for hindsight's HTTP transport with a write queue, a flush worker and a degraded search."""

    def __init__(self, url: str, queue_path: str | Path, token: str | None = None, timeout: float = 10.0,
                 cache_size: int = 10, backoff_base: float = 0.5, backoff_max: float = 30.0,
                 cipher: MemoryCipher | None = None, max_refusals: int = 5) -> None:
        """`cipher` seals queued private writes (default: the key in HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE,
        if any; see client/queue.py). `max_refusals`: tries of a write the server answers with an ambiguous error
        before it is set aside as a dead letter (no answer and transient errors are retried without limit)."""
        self.max_refusals = max(1, max_refusals)
        self.url = url
        self.token = token
        self.timeout = timeout
        self.cache_size = cache_size
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.queue = WriteQueue(queue_path, cipher if cipher is not None else load_cipher())
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._degraded = False
        self._last_error = ""
        self._last_success: float | None = None
        self._next_retry: float | None = None
        self._flush_lock: asyncio.Lock | None = None
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ calls
    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """One MCP tool call within `timeout`; ToolError when refused, Unreachable when no answer came."""
        async def run() -> dict[str, Any]:
            async with Client(self.url, auth=self.token, timeout=self.timeout, init_timeout=self.timeout) as client:
                result = await client.call_tool(tool, arguments)
                return dict(result.structured_content or result.data or {})

        try:
            answer = await asyncio.wait_for(run(), self.timeout)
        except (ToolError, MCPError) as exc:
            if is_final(exc):
                self._reached()
                raise
            self._unreachable(exc)
            raise Unreachable(describe(exc), refused=not is_transient(exc), wait=retry_after(exc)) from exc
        except Exception as exc:  # connection refused/reset, timeout, protocol failure: no answer
            self._unreachable(exc)
            raise Unreachable(describe(exc)) from exc
        self._reached()
        return answer

    async def write(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Any writing tool: sent with an idempotency key; queued (`queued: true`) when not confirmed, or when
        earlier writes are still queued (nothing overtakes a queued write)."""
        arguments = {**arguments, "idempotency_key": arguments.get("idempotency_key") or new_key()}
        if len(self.queue):
            return self._enqueue(tool, arguments, "earlier writes are still queued")
        try:
            return await self.call(tool, arguments)
        except Unreachable as exc:
            return self._enqueue(tool, arguments, str(exc), exc.wait)

    def _enqueue(self, tool: str, arguments: dict[str, Any], reason: str, wait: float = 0.0) -> dict[str, Any]:
        queue_id = self.queue.add(tool, arguments, reason, not_before=time.time() + wait if wait else 0.0)
        self._nudge()
        return {"queued": True, "queue_id": queue_id, "idempotency_key": arguments["idempotency_key"],
                "reason": reason}

    async def store(self, content: str, **fields: Any) -> dict[str, Any]:
        """memory_store (fields as the tool's: type, tags, context, idempotency_key...)."""
        return await self.write("memory_store", {"content": content, **fields})

    async def search(self, query: str, **fields: Any) -> dict[str, Any]:
        """memory_search; when unreachable, the last semantic memories seen, marked `degraded`."""
        try:
            answer = await self.call("memory_search", {"query": query, **fields})
        except Unreachable:
            cached = degraded_results(reversed(self._cache.values()), fields)  # this namespace, these filters
            return {"degraded": True, "count": len(cached), "results": cached}
        self._remember(answer.get("results", []))
        return answer

    # ------------------------------------------------------------------ queue
    def pending(self) -> int:
        return len(self.queue)

    def dead_letters(self) -> list[dict[str, Any]]:
        return self.queue.dead_letters()

    def replay(self, dead_id: int) -> int:
        """Put a dead letter back at the end of the queue (same idempotency key: a write the server did store is
        answered `replayed`, not stored twice); returns its queue id."""
        queue_id = self.queue.replay(dead_id)
        self._nudge()
        return queue_id

    def status(self) -> ClientStatus:
        next_retry = None if self._next_retry is None else max(0.0, self._next_retry - time.monotonic())
        return ClientStatus(len(self.queue), len(self.queue.dead_letters()), self._degraded, self._last_error,
                            self._last_success, next_retry)

    def queued(self) -> list[dict[str, Any]]:
        return self.queue.queued()

    async def flush(self, attempts: int = 3, wait: bool = True) -> int:
        """Replay queued writes in order (each with the key it was first sent with); returns how many went.

        A write that gets no answer is retried up to `attempts` times in this call, waiting its backoff between
        tries (`wait=False`: a write still in its backoff window ends the flush); if it still fails it stays
        queued (attempts and last error recorded) and the flush stops, keeping the order. A final refusal moves
        the write to the dead letters and the flush goes on.
        """
        if self._flush_lock is None:
            self._flush_lock = asyncio.Lock()
        sent = 0
        async with self._flush_lock:
            while (item := self.queue.head()) is not None:
                tried, next_at, refusals = item.attempts, item.next_attempt_at, item.refusals
                for _ in range(attempts):
                    delay = next_at - time.time()
                    if delay > 0:
                        if not wait:
                            return sent
                        await asyncio.sleep(delay)
                    try:
                        await self.call(item.tool, item.arguments)
                    except (ToolError, MCPError) as exc:  # final (call() turns the others into Unreachable)
                        self.queue.dead_letter(item.id, describe(exc))
                        break
                    except Unreachable as exc:
                        tried += 1
                        refusals += exc.refused
                        if refusals >= self.max_refusals:  # a poison write must not block the queue forever
                            self.queue.dead_letter(item.id, f"refused {refusals} times, set aside: {exc}")
                            break
                        next_at = time.time() + max(self.backoff(tried - 1), exc.wait)  # a 429's Retry-After
                        self.queue.failed(item.id, str(exc), next_at, refused=exc.refused)
                        continue
                    self.queue.done(item.id)
                    sent += 1
                    break
                else:
                    return sent  # still failing after this call's attempts: stays queued, order kept
        return sent

    def start(self) -> None:
        """Start the background worker on the running loop (idempotent)."""
        if self._worker is None or self._worker.done():
            self._wake = asyncio.Event()
            self._worker = asyncio.get_running_loop().create_task(self._run_worker())

    async def aclose(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
            self._worker = None
        self.queue.close()

    async def __aenter__(self) -> Self:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---------------------------------------------------------------- helpers
    def backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: half the capped delay fixed, half random."""
        delay = min(self.backoff_max, self.backoff_base * (2 ** min(attempt, 30)))
        return delay / 2 + random.uniform(0, delay / 2)

    async def _run_worker(self) -> None:
        assert self._wake is not None
        while True:
            try:
                if len(self.queue):
                    await self.flush(attempts=1, wait=False)
                head = self.queue.head()
            except Exception as exc:  # noqa: BLE001 - the worker must outlive any one failure; status() says it
                # (attack round 17: a damaged queue file's first read, outside this guard, ended the worker)
                self._unreachable(exc)
                head = None
            delay = self.backoff_max if head is None else max(0.05, head.next_attempt_at - time.time())
            self._next_retry = None if head is None else time.monotonic() + delay
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass

    def _nudge(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _reached(self) -> None:
        self._degraded, self._last_success = False, time.time()

    def _unreachable(self, exc: BaseException) -> None:
        self._degraded, self._last_error = True, f"{type(exc).__name__}: {exc}"[:500]

    def _remember(self, results: list[dict[str, Any]]) -> None:
        for memory in results:
            if memory.get("type") == "semantic" and memory.get("status") == "active":
                self._cache[memory["id"]] = memory
                self._cache.move_to_end(memory["id"])
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)


class ResilientClient:
    """Synchronous face of AsyncResilientClient: its loop (and the flush worker) run on a private thread.

    `auto_flush=False` leaves flushing to explicit `flush()` calls.
    """

    def __init__(self, url: str, queue_path: str | Path, token: str | None = None, timeout: float = 10.0,
                 cache_size: int = 10, auto_flush: bool = True, backoff_base: float = 0.5,
                 backoff_max: float = 30.0, cipher: MemoryCipher | None = None, max_refusals: int = 5) -> None:
        self._async = AsyncResilientClient(url, queue_path, token, timeout, cache_size, backoff_base, backoff_max,
                                           cipher, max_refusals)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hindsight-client", daemon=True)
        self._thread.start()
        if auto_flush:
            self._run(self._start())

    async def _start(self) -> None:
        self._async.start()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def url(self) -> str:
        return self._async.url

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self._run(self._async.call(tool, arguments))

    def write(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self._run(self._async.write(tool, arguments))

    def store(self, content: str, **fields: Any) -> dict[str, Any]:
        return self._run(self._async.store(content, **fields))

    def search(self, query: str, **fields: Any) -> dict[str, Any]:
        return self._run(self._async.search(query, **fields))

    def flush(self, attempts: int = 3, wait: bool = True) -> int:
        return self._run(self._async.flush(attempts, wait))

    def queued(self) -> list[dict[str, Any]]:
        return self._async.queued()

    def pending(self) -> int:
        return self._async.pending()

    def dead_letters(self) -> list[dict[str, Any]]:
        return self._async.dead_letters()

    def replay(self, dead_id: int) -> int:
        return self._run(self._replay(dead_id))

    async def _replay(self, dead_id: int) -> int:
        return self._async.replay(dead_id)

    def status(self) -> ClientStatus:
        return self._async.status()

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._run(self._async.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
