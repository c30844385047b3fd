"""Operations: Prometheus metrics and structured request logs, as one FastMCP middleware around every tool call,
plus the `/healthz` and `/metrics` routes of the HTTP transport.

Nothing here is in a tool body: `RequestObserver.on_call_tool` times each call, counts it by tool and outcome,
counts write actions from the tool's own result, and (with `--log-json` / HINDSIGHT_LOG_JSON) writes one JSON
line per call to stderr. Gauges that describe the store (queue sizes, index size, embedder cache) are read at
scrape time, so they are never stale.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_access_token, get_http_request
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError
from hindsight.review.service import ReviewService
from hindsight.security.http_guard import PRINCIPAL_KEY
from hindsight.security.namespace_names import MAX_NAMESPACE_CHARS, NAMESPACE_PATTERN
from hindsight.security.principal import Principal, Scope
from hindsight.security.tokens import TokenStore

WRITE_ACTIONS = ("created", "duplicate", "quarantined", "superseded", "supplemented")
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
REQUEST_LOG = "hindsight.requests"


def _namespace(arguments: dict[str, Any]) -> str | None:
    """The namespace a call addresses: a top-level argument, or inside an event object (task, correction...)."""
    if isinstance(arguments.get("namespace"), str):
        return str(arguments["namespace"])
    for value in arguments.values():
        if isinstance(value, dict) and isinstance(value.get("namespace"), str):
            return str(value["namespace"])
    return "default" if arguments else None


#: characters a line-oriented log reader may take for a line break (U+2028/2029, NEL) or that hide or reorder what
#: it shows (C1 controls, bidi and zero-width characters); `json.dumps(ensure_ascii=False)` keeps them as they are
_LOG_UNSAFE = re.compile("[\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def log_line(record: dict[str, Any]) -> str:
    """One request-log line: JSON with those characters escaped, so no caller text breaks or forges a line
    (attack round 13: a namespace or memory id holding U+2028 split the line in two for such a reader)."""
    return _LOG_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(record, ensure_ascii=False))


def _logged_namespace(arguments: dict[str, Any]) -> str | None:
    """The namespace for the log: a name as the schema allows it, else only that it was none (the argument is
    logged before the schema is checked: main wrote a 3,000-character "namespace" whole)."""
    name = _namespace(arguments)
    if name is None or (len(name) <= MAX_NAMESPACE_CHARS and re.fullmatch(NAMESPACE_PATTERN, name)):
        return name
    return f"[invalid namespace, {len(name)} characters]"


def _principal() -> str:
    """Who made the call: the principal the HTTP front door decided (security/http_guard.py puts it in the ASGI
    scope), else the verified access token's client, else (stdio, auth off) the local owner."""
    try:
        decided = get_http_request().scope.get(PRINCIPAL_KEY)
    except RuntimeError:  # stdio or in-process: no HTTP request
        decided = None
    if isinstance(decided, Principal):
        return decided.name
    try:
        access = get_access_token()
    except (RuntimeError, LookupError):
        access = None
    return access.client_id if access is not None else "local"


def _write_action(result: Any) -> str | None:
    data = getattr(result, "structured_content", None)
    if not isinstance(data, dict):
        return None
    for candidate in (data, data.get("result")):
        if isinstance(candidate, dict) and candidate.get("action") in WRITE_ACTIONS:
            return str(candidate["action"])
    return None


class _StoreCollector(Collector):
    """Gauges read from the engine and review queue at scrape time."""

    def __init__(self, engine: MemoryEngine, review: ReviewService) -> None:
        self.engine = engine
        self.review = review

    def collect(self) -> Iterator[GaugeMetricFamily]:
        stats = self.engine.stats()
        queue = GaugeMetricFamily("hindsight_queue_size", "Items waiting for a person", labels=["queue"])
        queue.add_metric(["review"], self.review.queue.count(None, "pending"))
        queue.add_metric(["quarantine"], stats.by_status.get("quarantined", 0))
        yield queue
        memories = GaugeMetricFamily("hindsight_memories", "Stored memories by status", labels=["status"])
        for status, count in sorted(stats.by_status.items()):
            memories.add_metric([status], count)
        yield memories
        index_size = getattr(self.engine.store, "index_size", None)
        yield GaugeMetricFamily("hindsight_index_size", "Vectors in the dense index",
                                value=float(index_size if index_size is not None else stats.total))
        cache = GaugeMetricFamily("hindsight_embedder_cache", "Query-embedding cache lookups since start",
                                  labels=["result"])
        cache.add_metric(["hit"], float(getattr(self.engine.embedder, "hits", 0)))
        cache.add_metric(["miss"], float(getattr(self.engine.embedder, "misses", 0)))
        yield cache


class RequestObserver(Middleware):
    """Counts, times and (optionally) logs every tool call; one instance per server, with its own registry."""

    def __init__(self, engine: MemoryEngine, review: ReviewService, log_json: bool = False,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("hindsight_tool_requests", "Tool calls by tool and outcome",
                                ["tool", "outcome"], registry=self.registry)
        self.latency = Histogram("hindsight_tool_latency_seconds", "Tool call latency", ["tool"],
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.writes = Counter("hindsight_write_actions", "What stores did: created, duplicate, quarantined, "
                              "superseded, supplemented", ["action"], registry=self.registry)
        for action in WRITE_ACTIONS:
            self.writes.labels(action)  # every action is present from the first scrape, at 0
        self.registry.register(_StoreCollector(engine, review))
        self.clock = clock
        self.log = logging.getLogger(REQUEST_LOG)
        if log_json and not self.log.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(message)s"))
            self.log.addHandler(handler)
            self.log.setLevel(logging.INFO)
            self.log.propagate = False
        self.log_json = log_json
        self._recent: deque[tuple[float, str]] = deque(maxlen=200_000)  # (wall time, tool) for the console plots
        self._tools: frozenset[str] | None = None  # the server's registered tools, read on the first call

    def note(self, tool: str) -> None:
        """Remember one call of `tool` now (tool calls do this themselves; the console notes its own searches)."""
        self._recent.append((time.time(), tool))

    def per_hour(self, tool: str, hours: int = 24, now: float | None = None) -> list[int]:
        """Calls of `tool` in each of the last `hours` hours, oldest first (since this process started)."""
        end = time.time() if now is None else now
        counts = [0] * hours
        for at, name in list(self._recent):
            age = int((end - at) // 3600)
            if name == tool and 0 <= age < hours:
                counts[hours - 1 - age] += 1
        return counts

    async def _label(self, context: MiddlewareContext[Any], name: str) -> str:
        """A registered tool's name, else "unknown": a caller's made-up names never become label values (each
        would be a new series kept for the life of the process; attack round 5 sent 300 of 50 KB)."""
        if self._tools is None and context.fastmcp_context is not None:
            server = context.fastmcp_context.fastmcp
            self._tools = frozenset(t.name for t in await server.list_tools(run_middleware=False))
        return name if self._tools is not None and name in self._tools else "unknown"

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]) -> Any:
        tool = await self._label(context, str(getattr(context.message, "name", "unknown")))
        arguments = getattr(context.message, "arguments", None) or {}
        started = self.clock()
        outcome, error = "ok", ""
        try:
            result = await call_next(context)
            if getattr(result, "is_error", False):
                outcome = "error"
            elif (action := _write_action(result)) is not None:
                self.writes.labels(action).inc()
            return result
        except ToolError as exc:
            error = str(exc)
            outcome = "denied" if error.startswith("permission_denied") else "error"
            raise
        except Exception as exc:
            outcome, error = "error", f"{type(exc).__name__}: {exc}"
            raise
        finally:
            elapsed = self.clock() - started
            self.requests.labels(tool, outcome).inc()
            self.note(tool)
            self.latency.labels(tool).observe(elapsed)
            if self.log_json:
                self.log.info(log_line({
                    "ts": time.time(), "tool": tool, "namespace": _logged_namespace(arguments),
                    "principal": _principal(), "latency_ms": round(elapsed * 1000, 2), "outcome": outcome,
                    **({"error": loggable_error(error)[:300]} if error else {}),
                }))


#: a schema refusal quotes what the caller sent (`input_value='My diary: ...'`, a private memory's text too)
_INPUT_VALUE = re.compile(r"input_value=.*?(?=, input_type=|\]$|\]\n|$)", re.S | re.M)
_MORE_INFO = re.compile(r"\n\s*For further information visit \S+")


def loggable_error(error: str) -> str:
    """An error as the request log keeps it: the field and the rule, never the value the caller sent (attack
    round 6: a refused private write left its first words in the log)."""
    return _MORE_INFO.sub("", _INPUT_VALUE.sub("input_value=[not logged]", error))


def mount_operations(mcp: Any, engine: MemoryEngine, observer: RequestObserver, tokens: TokenStore | None,
                     version: str, required: Callable[[], bool] | None = None) -> None:
    """`GET /healthz` (open: liveness and store reachability) and `GET /metrics` (when auth is on, a token with the
    `metrics` scope or admin, over namespace '*': the gauges count the whole store)."""

    @mcp.custom_route("/healthz", methods=["GET"], include_in_schema=False)
    async def healthz(request: Request) -> Response:
        try:
            engine.stats()
            store = "ok"
        except (HindsightError, sqlite3.Error, OSError) as exc:  # unreachable store: report it, keep the probe up
            store = f"error: {type(exc).__name__}"
        healthy = store == "ok"
        return JSONResponse({"status": "ok" if healthy else "degraded", "store": store, "version": version},
                            status_code=200 if healthy else 503, headers={"Cache-Control": "no-store"})

    @mcp.custom_route("/metrics", methods=["GET"], include_in_schema=False)
    async def metrics(request: Request) -> Response:
        if tokens is not None and (required is None or required()):
            header = request.headers.get("authorization", "")
            token = header[7:].strip() if header.lower().startswith("bearer ") else ""
            principal = tokens.verify(token) if token else None
            if principal is None:
                return JSONResponse({"error": "a bearer token is required for /metrics"}, status_code=401,
                                    headers={"WWW-Authenticate": "Bearer"})
            if not principal.allows(Scope.metrics, None):  # store-wide counts: a metrics token, or admin over '*'
                return JSONResponse({"error": "permission_denied: /metrics needs a token with the 'metrics' scope "
                                              "(or admin) on namespace '*': hindsight token create prometheus "
                                              "--scope metrics --namespace '*'"}, status_code=403)
        return Response(generate_latest(observer.registry), media_type=CONTENT_TYPE_LATEST,
                        headers={"Cache-Control": "no-store"})
