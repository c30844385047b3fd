"""A client that keeps an agent's memory usable when the server is not.

Writes that cannot reach the server go to a local SQLite queue (durable across
restarts) and are replayed in order by `flush()`; a search that cannot reach
the server degrades to the last semantic memories this client saw, flagged as
degraded, so the agent is not left with nothing (the seed's "local cache +
retry" advice). Everything else is a plain MCP call through FastMCP's client.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import httpx
from fastmcp import Client
from fastmcp.exceptions import ToolError

#: Failures that mean "the server is unreachable", as opposed to "the server said no".
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (httpx.TransportError, ConnectionError, OSError, TimeoutError,
                                                     RuntimeError)


class ResilientClient:
    """Synchronous MCP client for hindsight's HTTP transport with a write queue and a degraded search."""

    def __init__(self, url: str, queue_path: str | Path, token: str | None = None, timeout: float = 10.0,
                 cache_size: int = 10) -> None:
        self.url = url
        self.token = token
        self.timeout = timeout
        self.cache_size = cache_size
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(queue_path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS queue (id INTEGER PRIMARY KEY AUTOINCREMENT, tool TEXT NOT NULL, "
                         "arguments TEXT NOT NULL, queued_at REAL NOT NULL)")

    # ------------------------------------------------------------------ calls
    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """One MCP tool call; raises ToolError when the server refuses, a transport error when unreachable."""

        async def run() -> dict[str, Any]:
            async with Client(self.url, auth=self.token, timeout=self.timeout, init_timeout=self.timeout) as client:
                result = await client.call_tool(tool, arguments)
                return dict(result.data or result.structured_content or {})

        return asyncio.run(run())

    def store(self, content: str, **fields: Any) -> dict[str, Any]:
        """memory_store, or queue it locally when the server cannot be reached (`queued: true`)."""
        arguments = {"content": content, **fields}
        try:
            return self.call("memory_store", arguments)
        except ToolError:
            raise
        except TRANSPORT_ERRORS:
            with self._lock:
                cursor = self._db.execute("INSERT INTO queue(tool, arguments, queued_at) VALUES (?, ?, ?)",
                                          ("memory_store", json.dumps(arguments, default=str), time.time()))
            return {"queued": True, "queue_id": cursor.lastrowid}

    def search(self, query: str, **fields: Any) -> dict[str, Any]:
        """memory_search; when unreachable, the last semantic memories seen, marked `degraded`."""
        try:
            answer = self.call("memory_search", {"query": query, **fields})
        except ToolError:
            raise
        except TRANSPORT_ERRORS:
            with self._lock:
                cached = list(reversed(self._cache.values()))
            return {"degraded": True, "count": len(cached), "results": cached}
        self._remember(answer.get("results", []))
        return answer

    # ------------------------------------------------------------------ queue
    def pending(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM queue").fetchone()[0])

    def flush(self) -> int:
        """Replay queued writes in order; stops at the first that still cannot be delivered. Returns how many went."""
        sent = 0
        while True:
            with self._lock:
                row = self._db.execute("SELECT id, tool, arguments FROM queue ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return sent
            try:
                self.call(row[1], json.loads(row[2]))
            except ToolError:
                pass  # the server refused it (e.g. invalid): retrying will not help, drop it
            except TRANSPORT_ERRORS:
                return sent
            with self._lock:
                self._db.execute("DELETE FROM queue WHERE id = ?", (row[0],))
            sent += 1

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _remember(self, results: list[dict[str, Any]]) -> None:
        with self._lock:
            for memory in results:
                if memory.get("type") == "semantic" and memory.get("status") == "active":
                    self._cache[memory["id"]] = memory
                    self._cache.move_to_end(memory["id"])
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
