"""A client that keeps an agent's memory usable when the server is not.

Writes that cannot be delivered go to a local SQLite queue (durable across
restarts) and are replayed in order by `flush()`; a search that cannot reach
the server degrades to the last semantic memories this client saw, flagged as
degraded, so the agent is not left with nothing (the seed's "local cache +
retry" advice). Everything else is a plain MCP call through FastMCP's client.

What happens to a queued write when the server answers (see hindsight.errors):

* delivered: removed from the queue;
* refused for good (the error starts with a final code, ``invalid_input:``, or the
  tool schema rejected the arguments): moved to the ``dead_letters`` table with the
  server's message, listed by `dead_letters()`; never silently dropped;
* anything else (unreachable, timeout, HTTP 5xx, ``storage_busy:``, ``unavailable:``,
  an unexpected server error, or a refusal a person must fix such as
  ``permission_denied:``): it stays queued, its attempt count and last error are
  recorded, and it is retried with exponential backoff; the queue keeps its order
  (a later write is never sent before an earlier one that is still pending).

Queue file schema (plain SQLite, one file per client):

* ``queue(id INTEGER PRIMARY KEY AUTOINCREMENT, tool TEXT, arguments TEXT (JSON),
  queued_at REAL, attempts INTEGER, last_error TEXT, next_attempt_at REAL)``
* ``dead_letters(id INTEGER PRIMARY KEY AUTOINCREMENT, queue_id INTEGER, tool TEXT,
  arguments TEXT (JSON), queued_at REAL, failed_at REAL, attempts INTEGER, error TEXT)``

Times are Unix seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import httpx
from fastmcp import Client
from fastmcp.exceptions import ToolError

from hindsight.errors import FINAL_CODES

#: Failures that mean "the server is unreachable", as opposed to "the server said no".
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (httpx.TransportError, ConnectionError, OSError, TimeoutError,
                                                     RuntimeError)
#: A refusal by the tool's argument schema (before the engine runs): as final as invalid_input.
_SCHEMA_REFUSAL = re.compile(r"validation error", re.IGNORECASE)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS queue (id INTEGER PRIMARY KEY AUTOINCREMENT, tool TEXT NOT NULL,
    arguments TEXT NOT NULL, queued_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letters (id INTEGER PRIMARY KEY AUTOINCREMENT, queue_id INTEGER NOT NULL,
    tool TEXT NOT NULL, arguments TEXT NOT NULL, queued_at REAL NOT NULL, failed_at REAL NOT NULL,
    attempts INTEGER NOT NULL, error TEXT NOT NULL)
"""
_QUEUE_COLUMNS = {"attempts": "INTEGER NOT NULL DEFAULT 0", "last_error": "TEXT NOT NULL DEFAULT ''",
                  "next_attempt_at": "REAL NOT NULL DEFAULT 0"}


def is_final(error: BaseException) -> bool:
    """True when the server refused the request for good (retrying the same arguments cannot succeed)."""
    if not isinstance(error, ToolError):
        return False
    message = str(error).strip()
    code = message.split(":", 1)[0].strip()
    return code in FINAL_CODES or bool(_SCHEMA_REFUSAL.search(message.split("\n", 1)[0]))


class ResilientClient:
    """Synchronous MCP client for hindsight's HTTP transport with a write queue and a degraded search."""

    def __init__(self, url: str, queue_path: str | Path, token: str | None = None, timeout: float = 10.0,
                 cache_size: int = 10, backoff_base: float = 0.5, backoff_max: float = 60.0) -> None:
        """`backoff_base`/`backoff_max`: a write that failed n times waits min(base * 2**(n-1), max) seconds."""
        self.url = url
        self.token = token
        self.timeout = timeout
        self.cache_size = cache_size
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(queue_path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self._db.execute(statement)
        present = {row[1] for row in self._db.execute("PRAGMA table_info(queue)")}
        for column, declaration in _QUEUE_COLUMNS.items():  # queue files from before the retry columns
            if column not in present:
                self._db.execute(f"ALTER TABLE queue ADD COLUMN {column} {declaration}")

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
        if self.pending():  # keep the order: nothing overtakes a write that is still queued
            return self._enqueue("memory_store", arguments, "earlier writes are still queued")
        try:
            return self.call("memory_store", arguments)
        except Exception as exc:  # classified: a final refusal is raised, the rest is queued
            if is_final(exc):
                raise
            return self._enqueue("memory_store", arguments, _describe(exc))

    def _enqueue(self, tool: str, arguments: dict[str, Any], error: str) -> dict[str, Any]:
        with self._lock:
            cursor = self._db.execute("INSERT INTO queue(tool, arguments, queued_at, last_error) VALUES (?, ?, ?, ?)",
                                      (tool, json.dumps(arguments, default=str), time.time(), error))
        return {"queued": True, "queue_id": cursor.lastrowid, "reason": error}

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

    def flush(self, attempts: int = 3, wait: bool = True) -> int:
        """Replay queued writes in order; returns how many were delivered.

        A write that fails transiently is retried up to `attempts` times in this call, sleeping the backoff
        between tries (`wait=False`: no sleeping, a write still in its backoff window ends the flush); if it
        still fails it stays queued (attempts and last error recorded) and the flush stops, keeping the order.
        A final refusal moves the write to the dead-letter table and the flush goes on.
        """
        sent = 0
        while True:
            with self._lock:
                row = self._db.execute("SELECT id, tool, arguments, attempts, next_attempt_at, queued_at FROM queue "
                                       "ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return sent
            queue_id, tool, arguments, tried, next_at, queued_at = row
            delivered = False
            for _ in range(attempts):
                delay = next_at - time.time()
                if delay > 0:
                    if not wait:
                        return sent
                    time.sleep(delay)
                try:
                    self.call(tool, json.loads(arguments))
                    delivered = True
                    break
                except Exception as exc:  # every failure is classified, none is dropped
                    tried += 1
                    if is_final(exc):
                        self._dead_letter(queue_id, tool, arguments, queued_at, tried, _describe(exc))
                        break
                    next_at = time.time() + min(self.backoff_base * 2 ** (tried - 1), self.backoff_max)
                    with self._lock:
                        self._db.execute("UPDATE queue SET attempts = ?, last_error = ?, next_attempt_at = ? "
                                         "WHERE id = ?", (tried, _describe(exc), next_at, queue_id))
            else:
                return sent  # still failing after this call's attempts: stays queued, order kept
            if delivered:
                with self._lock:
                    self._db.execute("DELETE FROM queue WHERE id = ?", (queue_id,))
                sent += 1

    def _dead_letter(self, queue_id: int, tool: str, arguments: str, queued_at: float, tried: int,
                     error: str) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO dead_letters(queue_id, tool, arguments, queued_at, failed_at, attempts, "
                                 "error) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (queue_id, tool, arguments, queued_at, time.time(), tried, error))
                self._db.execute("DELETE FROM queue WHERE id = ?", (queue_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def dead_letters(self) -> list[dict[str, Any]]:
        """Writes the server refused for good, oldest first, with its message (kept until the user deletes them)."""
        with self._lock:
            rows = self._db.execute("SELECT id, queue_id, tool, arguments, queued_at, failed_at, attempts, error "
                                    "FROM dead_letters ORDER BY id").fetchall()
        keys = ("id", "queue_id", "tool", "arguments", "queued_at", "failed_at", "attempts", "error")
        return [{**dict(zip(keys, row)), "arguments": json.loads(row[3])} for row in rows]

    def queued(self) -> list[dict[str, Any]]:
        """The writes still waiting, in delivery order, with their attempts and last error."""
        with self._lock:
            rows = self._db.execute("SELECT id, tool, arguments, queued_at, attempts, last_error, next_attempt_at "
                                    "FROM queue ORDER BY id").fetchall()
        keys = ("id", "tool", "arguments", "queued_at", "attempts", "last_error", "next_attempt_at")
        return [{**dict(zip(keys, row)), "arguments": json.loads(row[2])} for row in rows]

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


def _describe(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return f"{type(error).__name__}: {text}"[:2000]
