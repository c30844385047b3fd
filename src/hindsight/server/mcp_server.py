"""MCP skin: FastMCP tools that translate arguments and errors, and call the engine.

No memory logic lives here. Argument types carry the validation rules, so a
malformed call is rejected by the schema before it reaches the engine; engine
errors become MCP tool errors with the engine's own message. This module builds the server and registers the
memory tools (store, search, get, list, update, forget, delete, summarize, history, stats, consolidate); the admin
tools (quarantine, review) are in `mcp_admin_tools`, the event and session tools in `mcp_event_tools`, and the
gate and shared argument types in `mcp_common`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from pydantic import Field, StrictBool

from hindsight._version import __version__
from hindsight.console import mount_web_console
from hindsight.engine import DEFAULT_MIN_RELEVANCE, MemoryEngine
from hindsight.field_rules import MAX_OFFSET
from hindsight.model import MAX_CONTENT_CHARS, MemoryPatch, MemoryType, Source
from hindsight.present import memory_view, result_view
from hindsight.read_model import RELEVANCE_MEANING, SearchFilters
from hindsight.review.console import mount_console
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.safety.withhold import withhold_history
from hindsight.security.audit import AuditLog
from hindsight.security.call_cap import CallCap
from hindsight.security.http_auth import HindsightTokenVerifier
from hindsight.security.http_guard import AuthPolicy, HTTPGuard
from hindsight.security.namespace_names import MAX_NAMESPACE_CHARS, NAMESPACE_PATTERN
from hindsight.security.principal import Scope
from hindsight.security.tokens import TokenStore
from hindsight.server.access_log import keep_queries_out_of_the_access_log
from hindsight.server.held_calls import HeldCalls
from hindsight.server.mcp_admin_tools import register_admin_tools
from hindsight.server.mcp_common import INSTRUCTIONS, Gate, IdempotencyKey, MemoryId, MemoryIds, Namespace, _call, told
from hindsight.server.mcp_event_tools import register_event_tools
from hindsight.server.observability import RequestObserver, mount_operations
from hindsight.server.schema_errors import TypedArgumentErrors
from hindsight.server.stdio_close import client_gone, silence_stdout

__all__ = ["Gate", "build_server", "serve"]


def build_server(engine: MemoryEngine, name: str = "hindsight", tokens: TokenStore | None = None,
                 audit: AuditLog | None = None, gate: Gate | None = None,
                 review: ReviewService | None = None, policy: AuthPolicy | None = None,
                 log_json: bool | None = None) -> FastMCP:
    """Create the FastMCP server with every memory tool bound to `engine`.

    With `tokens`, HTTP callers must present a bearer token; each tool checks its scope over the namespace.
    Writes go through `review` (default: the namespaces in settings.reviewed_namespaces wait for approval);
    the web console for reviewers is served at /review on the HTTP transport, with /healthz and /metrics.
    Every tool call is counted and timed by one middleware (and logged as JSON with `log_json`).
    """
    auth = HindsightTokenVerifier(tokens) if tokens is not None else None
    gate = gate or Gate(audit, auth_enabled=auth is not None)
    review = review or ReviewService(engine, ReviewQueue(engine.store),
                                     engine.settings.reviewed_namespaces)
    observer = RequestObserver(engine, review, engine.settings.log_json if log_json is None else log_json)
    # the observer is outermost, so it counts and logs the typed refusal TypedArgumentErrors makes of a schema one
    mcp = FastMCP(name, instructions=INSTRUCTIONS, auth=auth, version=__version__,
                  middleware=[HeldCalls(), observer, TypedArgumentErrors()])
    # the pages ask the same per-request question as the MCP endpoint (HTTPGuard's policy) when there is one
    page_tokens, required = (policy.tokens, policy.required) if policy is not None else (tokens, None)
    mount_console(mcp, review, page_tokens, required=required, audit=gate.audit)
    mount_operations(mcp, engine, observer, page_tokens, __version__, required=required)
    mount_web_console(mcp, engine, review, page_tokens, observer, required=required, audit=gate.audit)

    @mcp.tool
    def memory_store(
        content: Annotated[str, Field(description="What to remember: one fact, preference, fix or lesson.",
                                      min_length=1, max_length=MAX_CONTENT_CHARS)],
        type: Annotated[MemoryType, Field(description="working | episodic (one task/session) | semantic "
                                                      "(general knowledge) | warning (from a failure)")] = MemoryType.episodic,
        tags: Annotated[list[str] | None, Field(description="Keywords for filtering, e.g. ['database', 'postgresql'].")] = None,
        context: Annotated[str, Field(description="When this memory applies (conditions, project, environment).",
                                      max_length=4000)] = "",
        importance: Annotated[float | None, Field(ge=0, le=1, allow_inf_nan=False, description="0-1; default 0.5.")] = None,
        source: Annotated[Source, Field(description="Who asserted it: user (credibility 1.0; a token needs the "
                                                    "user_source grant or admin), agent (0.7), external document "
                                                    "(0.5).")] = Source.agent,
        event_time: Annotated[datetime | None, Field(description="When it happened (ISO 8601); default now.")] = None,
        metadata: Annotated[dict[str, Any] | None, Field(description="Free JSON metadata.")] = None,
        source_task_id: Annotated[str | None, Field(max_length=200)] = None,
        session_id: Annotated[str | None, Field(max_length=200)] = None,
        private: Annotated[bool, Field(description="Encrypt content at rest (AES-GCM); needs a server key.")] = False,
        namespace: Namespace = "default",
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Store one memory. Returns its memory_id and what happened (`action`): created; duplicate (a
        restatement, folded into the existing memory `memory_id`: nothing new is stored); superseded (a changed
        fact: `supersedes` lists the older memories it retired, now status deprecated); supplemented (linked to
        the older memories in `related_ids`, all stay active); quarantined (held back by the guard: an answer,
        not a tool error). `related_ids` names every older memory retired or linked. In a reviewed namespace
        the change waits for approval (status pending_review, with a proposal_id)."""
        actor = gate(Scope.write, namespace, "store")
        return told(actor, namespace, _call(review.store, {
            "content": content, "type": type, "tags": tags or [], "context": context, "importance": importance,
            "source": source, "event_time": event_time, "metadata": metadata or {}, "namespace": namespace,
            "source_task_id": source_task_id, "session_id": session_id, "private": private,
        }, actor, idempotency_key=idempotency_key))

    @mcp.tool
    def memory_search(
        query: Annotated[str, Field(description="Natural-language query, English or Chinese; time words like "
                                                "'last week' / '上周' become filters.", min_length=1, max_length=2000)],
        filters: Annotated[SearchFilters | None, Field(description="Structured filters: types, tags, statuses, "
                                                                   "time_from/time_to, min_importance...")] = None,
        top_k: Annotated[int, Field(ge=1, le=100, description="How many memories to return.")] = 5,
        namespace: Namespace = "default",
        now: Annotated[datetime | None, Field(description="Reference time for decay and relative dates; default now.")] = None,
        min_relevance: Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False, description=(
            "Drop hits whose `relevance` (the " + RELEVANCE_MEANING + ") is below this. Default "
            f"{DEFAULT_MIN_RELEVANCE}: every hit is returned, each with its relevance. 0.5 returns only likely "
            "matches: on LoCoMo test conversations a store asked another conversation's questions gave a hit "
            ">= 0.5 for 0.2% of them, and the answering turn reached 0.5 for 34% of a store's own questions "
            "(at 0.05: 2.8% and 77%). An empty result is not proof that nothing relevant is stored: on a small "
            "store, or across English and Chinese, a memory that answers the query can score under 0.5 (read the "
            "hits of a search without it)."
            ))] = DEFAULT_MIN_RELEVANCE,
    ) -> dict[str, Any]:
        """Hybrid search (vectors + keywords + filters, fused and weighted by recency, importance, credibility).
        Hits come best first by `score`, which only orders this result (it is high for the best hit even when
        nothing matches, and is not comparable across queries). Whether a hit is relevant is its calibrated
        `relevance` (a probability; or pass min_relevance); `why.relevance` is the text-match share of the
        score, not that probability. `time_filter_widened` is true when a time expression in the query
        ("last week", "上周") matched too few memories, or held none of the strong text matches, and memories
        outside it were returned (see each hit's `why.in_time_filter`).
        `current` is false on an older version of a fact: replaced by a newer memory (flag `superseded`), or
        restated by a newer hit of this result (flag `outdated` when the newer one states a change;
        `possibly_outdated` when it restates the same slot with another value but no change word, a reading
        off by default; `why.outdated_by` names it). Such a hit ranks right below the newer one: present the
        newer one as current, the older one only as history. The top-level `not_current` lists every such hit
        (id, `superseded_by`, `because`). Search reads active memories only unless filters.statuses says
        otherwise: a memory replaced on write (deprecated) or forgotten is found with statuses ['active',
        'deprecated'] (or 'forgotten'); memory_history on it says what replaced it. With min_relevance, an
        empty result carries `empty_because`."""
        who = gate(Scope.read, namespace, "search").principal
        hits = _call(engine.search, query, namespace=namespace, filters=filters, top_k=top_k, now=now,
                     min_relevance=min_relevance, record_access=who.allows(Scope.write, namespace))
        return result_view(hits, who.allows(Scope.admin, namespace), min_relevance)

    @mcp.tool
    def memory_get(memory_id: MemoryId, namespace: Namespace = "default") -> dict[str, Any]:
        """Fetch one memory by id."""
        who = gate(Scope.read, namespace, "get", memory_id).principal  # a reader's reads do not lift a memory
        return memory_view(_call(engine.get, memory_id, namespace, who.allows(Scope.write, namespace)),
                           who.allows(Scope.admin, namespace))

    @mcp.tool
    def memory_list(
        filters: Annotated[SearchFilters | None, Field(description="Same filters as memory_search.")] = None,
        limit: Annotated[int, Field(ge=1, le=500)] = 20,
        offset: Annotated[int, Field(ge=0, le=MAX_OFFSET)] = 0,
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """List memories newest first, paged; includes deprecated and forgotten ones unless filtered."""
        admin = gate(Scope.read, namespace, "list").principal.allows(Scope.admin, namespace)
        records, total = _call(engine.list, namespace, filters, limit, offset)
        return {"total": total, "offset": offset, "memories": [memory_view(r, admin) for r in records]}

    @mcp.tool
    def memory_update(
        memory_id: MemoryId,
        updates: Annotated[MemoryPatch, Field(description="Fields to change: content, type, tags, context, "
                                                          "importance, credibility, status, event_time, metadata. "
                                                          "Each field given replaces the old value whole (tags: "
                                                          "send the full list; metadata: the full object); "
                                                          "fields left out stay as they are.")],
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Update content (re-embedded) or weights of a memory; the previous version stays in history.
        In a reviewed namespace the change waits for approval (status pending_review)."""
        actor = gate(Scope.write, namespace, "update", memory_id)
        return told(actor, namespace, _call(review.update, memory_id, updates, namespace, actor))

    @mcp.tool
    def memory_forget(
        memory_id: MemoryId,
        reason: Annotated[str, Field(max_length=1000, description="Why it should be forgotten.")] = "",
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Soft-forget: the memory sinks out of search but stays in history (use memory_delete to erase).
        In a reviewed namespace the change waits for approval (status pending_review)."""
        actor = gate(Scope.write, namespace, "forget", memory_id)
        return told(actor, namespace, _call(review.forget, memory_id, reason, namespace, actor))

    @mcp.tool
    def memory_delete(
        memory_id: MemoryId,
        confirm: Annotated[StrictBool, Field(description="Must be true: hard delete cannot be undone.")],
        reason: Annotated[str, Field(max_length=1000)] = "",
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Erase a memory for good (the history keeps a record that it existed). Needs the `admin` scope on the
        namespace; an agent with `write` uses memory_forget (soft, reversible) instead. A memory the erased one had
        replaced points at that one's own successor, or is current (active) again when there is none."""
        if not confirm:
            raise ToolError("invalid_input: confirm: must be true to hard-delete; use memory_forget to soft-forget")
        actor = gate(Scope.admin, namespace, "delete", memory_id)
        record = gate.run(actor, "delete", namespace, memory_id, engine.delete, memory_id, namespace, actor, reason)
        return {"memory_id": record.id, "status": "deleted"}

    @mcp.tool
    def memory_summarize(
        memory_ids: MemoryIds,
        style: Annotated[Literal["brief", "detailed", "structured"], Field(
            description="brief (~150 chars), detailed, or structured (goal, steps, problem/fix, when it applies; "
                        "with an LLM configured - extractive, it adds the memories' contexts)")] = "brief",
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Summarise memories (LLM when configured, extractive otherwise). `not_active` names any of them that is
        not active (forgotten, deprecated, quarantined): summarised as asked, but no longer current."""
        admin = gate(Scope.read, namespace, "summarize").principal.allows(Scope.admin, namespace)
        return _call(engine.summarize, memory_ids, style, namespace, admin)

    @mcp.tool
    def memory_history(memory_id: MemoryId, namespace: Namespace = "default") -> dict[str, Any]:
        """Every change to a memory: who, when, before and after."""
        admin = gate(Scope.read, namespace, "history", memory_id).principal.allows(Scope.admin, namespace)
        entries = _call(engine.history, memory_id, namespace)
        entries = entries if admin else withhold_history(entries)  # quarantined text: admins only
        return {"memory_id": memory_id, "history": [e.model_dump(mode="json") for e in entries]}

    @mcp.tool
    def memory_stats(
        namespace: Annotated[str | None, Field(
            description="The namespace to count (needs `read` on it). Left out: every namespace, which needs "
                        "`admin` over '*'.", min_length=1, max_length=MAX_NAMESPACE_CHARS,
            pattern=NAMESPACE_PATTERN)] = None,
    ) -> dict[str, Any]:
        """Counts by status and type, and the embedding model in use."""
        gate(Scope.read if namespace else Scope.admin, namespace, "stats")
        stats = _call(engine.stats, namespace)
        return {"total": stats.total, "by_status": stats.by_status, "by_type": stats.by_type,
                "namespaces": stats.namespaces, "embedding_model": stats.embedding_model}

    @mcp.tool
    def memory_consolidate(namespace: Namespace = "default") -> dict[str, Any]:
        """Hindsight pass: promote what recurs across episodic memories to semantic memories (linked derived_from
        their sources) and merge near-duplicate semantic memories. Idempotent; safe to run periodically."""
        actor = gate(Scope.write, namespace, "consolidate")
        return told(actor, namespace, _call(review.consolidate, namespace, actor))

    register_admin_tools(mcp, engine, review, gate)
    register_event_tools(mcp, engine, review, gate)
    return mcp


def http_middleware(engine: MemoryEngine, policy: AuthPolicy, allowed_hosts: frozenset[str],
                    audit: AuditLog | None) -> list[Any]:
    """The HTTP transport's middleware, outermost first: the front door (`HTTPGuard`: Host/Origin, token, call cap),
    and, with an audit log, `FlushOnShutdown` (the denial counts it holds reach the store when uvicorn shuts down)."""
    from starlette.middleware import Middleware

    from hindsight.server.shutdown import FlushOnShutdown

    guard = Middleware(HTTPGuard, policy=policy, allowed_hosts=allowed_hosts,
                       calls=CallCap(engine.settings.max_calls_per_token))
    return [guard] if audit is None else [guard, Middleware(FlushOnShutdown, audit=audit)]


def serve(engine: MemoryEngine, transport: Literal["stdio", "http"] = "stdio", host: str = "127.0.0.1",
          port: int = 8765, audit: AuditLog | None = None, policy: AuthPolicy | None = None,
          allowed_hosts: frozenset[str] = frozenset(), log_json: bool | None = None) -> None:
    """Run the server until interrupted (stdio for desktop clients, streamable HTTP for remote agents).

    stdio always runs as the local owner. HTTP runs behind HTTPGuard: Host/Origin allow-list on every route,
    and `policy` decides per request whether a bearer token is needed.
    """
    server = build_server(engine, audit=audit, policy=policy if transport == "http" else None, log_json=log_json)
    from hindsight.retrieval.query_parser import warm_up as warm_query_parser
    from hindsight.text import warm_up as warm_tokenizer

    warm_tokenizer()  # load jieba and the date parsers now, not on the first request
    warm_query_parser()
    try:
        if transport == "stdio":
            try:
                server.run(transport="stdio", show_banner=False)
            except BaseException as exc:  # the SDK's task group raises a group: a closed pipe is not an error
                if not client_gone(exc):
                    raise
                silence_stdout()  # the client has gone: stop quietly (ux33's finding 16)
        else:
            assert policy is not None, "HTTP needs an auth policy"
            keep_queries_out_of_the_access_log()  # console search words stay out of the operator's log
            server.run(transport="http", host=host, port=port, show_banner=False,
                       middleware=http_middleware(engine, policy, allowed_hosts, audit))
    finally:
        if audit is not None:  # the denial counts still held in memory reach their rows (attack round 33)
            audit.close()
