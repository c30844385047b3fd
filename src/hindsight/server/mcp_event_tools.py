"""Event MCP tools: task outcomes, user corrections, tool pitfalls, conversation ingest, working memory and
session end. Every write takes the review door (`ReviewService`), like memory_store."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastmcp import FastMCP
from pydantic import Field

from hindsight.engine import MemoryEngine
from hindsight.model import MAX_CONTENT_CHARS
from hindsight.review.service import ReviewService
from hindsight.security.principal import Scope
from hindsight.server.mcp_common import Gate, IdempotencyKey, Namespace, _call, told
from hindsight.write.events import (
    TaskCompleted,
    TaskFailed,
    ToolRetrySucceeded,
    UserCorrection,
)
from hindsight.write.ingest import ChatMessage


def register_event_tools(mcp: FastMCP, engine: MemoryEngine, review: ReviewService, gate: Gate) -> None:
    """memory_task_completed/_failed, memory_user_correction, memory_tool_retry, memory_ingest,
    memory_working_append/_get and memory_session_end."""
    @mcp.tool
    def memory_task_completed(task: TaskCompleted, idempotency_key: IdempotencyKey = None) -> dict[str, Any]:
        """Record a finished task as one episodic memory (goal, up to 3 key steps, problems and fixes, outcome,
        context). Importance = 0.4*success + 0.4*user_feedback."""
        actor = gate(Scope.write, task.namespace, "event")
        return told(actor, task.namespace, _call(review.record_event, task, actor, idempotency_key))

    @mcp.tool
    def memory_task_failed(task: TaskFailed, idempotency_key: IdempotencyKey = None) -> dict[str, Any]:
        """Record a failed task as a `warning` memory (lower importance: its value is avoidance). Before a similar
        task, `memory_search` with `filters: {"types": ["warning"]}` asks for the traps alone (in a plain search the
        fix's episode can rank above it)."""
        actor = gate(Scope.write, task.namespace, "event")
        return told(actor, task.namespace, _call(review.record_event, task, actor, idempotency_key))

    @mcp.tool
    def memory_user_correction(correction: UserCorrection, idempotency_key: IdempotencyKey = None) -> dict[str, Any]:
        """Record a user correction at once, as high-importance semantic knowledge. The memory it corrects - the
        nearest active memory of the same slot - is deprecated (kept in history) and named in the answer's
        `corrected`; `corrected: null` with `correction_note` says why none was (nothing close enough, another
        subject, or a more credible memory)."""
        actor = gate(Scope.write, correction.namespace, "event")
        return told(actor, correction.namespace, _call(review.record_event, correction, actor, idempotency_key))

    @mcp.tool
    def memory_tool_retry(pitfall: ToolRetrySucceeded, idempotency_key: IdempotencyKey = None) -> dict[str, Any]:
        """Record a tool call that failed and then succeeded after a fix (a pitfall to avoid next time)."""
        actor = gate(Scope.write, pitfall.namespace, "event")
        return told(actor, pitfall.namespace, _call(review.record_event, pitfall, actor, idempotency_key))

    @mcp.tool
    def memory_ingest(
        messages: Annotated[list[ChatMessage], Field(min_length=1, max_length=500, description=(
            "The conversation, oldest first: [{role: user|assistant|system|tool, content, at?}]; at most "
            "100,000 characters of content per call (split a longer one, same session_id)."))],
        session_id: Annotated[str, Field(min_length=1, max_length=200)],
        namespace: Namespace = "default",
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Hand over a conversation; the memory decides what to keep (facts, preferences, decisions, lessons with
        their context when an LLM is configured; otherwise turns as episodes plus stated preferences, corrections
        and decisions) and reports what it kept and why. Everything passes the guard, redaction and hygiene."""
        actor = gate(Scope.write, namespace, "ingest")
        return told(actor, namespace, _call(review.ingest, messages, session_id, namespace, actor, idempotency_key))

    # ---------------------------------------------------- working memory
    @mcp.tool
    def memory_working_append(
        session_id: Annotated[str, Field(min_length=1, max_length=200)],
        content: Annotated[str, Field(min_length=1, max_length=MAX_CONTENT_CHARS)],
        role: Annotated[Literal["user", "assistant", "tool", "system"], Field()] = "user",
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Append a turn to the session's working memory (the last N turns, in process, not persisted)."""
        gate(Scope.write, namespace, "working_append")
        held = _call(engine.working_append, session_id, role, content, namespace)
        return {"session_id": session_id, "turns_held": held}

    @mcp.tool
    def memory_working_get(
        session_id: Annotated[str, Field(min_length=1, max_length=200)],
        last_n: Annotated[int | None, Field(ge=1, le=500)] = None,
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Read the session's working memory, oldest turn first."""
        gate(Scope.read, namespace, "working_get")
        turns = _call(engine.working_get, session_id, last_n, namespace)
        return {"session_id": session_id, "turns": [{"role": t.role, "content": t.content, "at": t.at.isoformat()}
                                                     for t in turns]}

    @mcp.tool
    def memory_session_end(
        session_id: Annotated[str, Field(min_length=1, max_length=200)],
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """End a session: summarise it into an episodic memory, keep as semantic memories the user turns phrased
        as a preference or standing rule ("I prefer", "always", "from now on", "我喜欢", "以后", "请用"), and clear
        its working memory. A change worded otherwise ("I now use bun", "我现在改用 Cursor") stays in the episode
        only: record it with `memory_user_correction`."""
        actor = gate(Scope.write, namespace, "session_end")
        return told(actor, namespace, _call(engine.end_session, session_id, namespace, actor,
                                            write=lambda items: review.store_many(items, actor, relayed=True)))
