"""What the engine does with conversations: events, conversation ingestion, working memory, session end.

A mixin of `MemoryEngine` (engine.py), kept apart so each module has one job; every write still goes
through the engine's `store_memory` / `store_many` (one write path).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hindsight.embeddings.cache_scope import cache_scope
from hindsight.errors import InvalidInputError
from hindsight.field_rules import has_visible_text
from hindsight.model import MAX_CONTEXT_CHARS, MemoryInput, MemoryRecord
from hindsight.turn_labels import said_in
from hindsight.working import Turn
from hindsight.write import events, ingest
from hindsight.write.importance import compute_importance
from hindsight.write.pipeline import WriteOutcome
from hindsight.write.screening import guarded_turn
from hindsight.write.text_rules import check_identifier, check_text

if TYPE_CHECKING:
    from datetime import datetime

    from hindsight.llm import LLMClient
    from hindsight.summarize import Summarizer
    from hindsight.working import WorkingMemory
    from hindsight.write.idempotency import Fingerprint
    from hindsight.write.pipeline import WritePipeline


class ConversationsMixin:
    """Needs the engine's `working`, `writer`, `summarizer`, `llm`, `clock`, `store_memory`, `store_many`, `idempotent` and `fingerprint`."""

    if TYPE_CHECKING:
        working: WorkingMemory
        writer: WritePipeline
        summarizer: Summarizer
        llm: LLMClient | None

        clock: Callable[[], datetime]

        def store_memory(self, data: MemoryInput | dict[str, Any], actor: str = "local",
                         idempotency_key: str | None = None) -> WriteOutcome: ...
        def store_many(self, items: Sequence[MemoryInput | dict[str, Any]], actor: str = "local",
                       ids: Sequence[str | None] | None = None, relayed: bool = False) -> builtins.list[WriteOutcome]: ...
        def idempotent(self, namespace: str, key: str | None, write: Callable[[str | None], dict[str, Any]],
                       request: object = None) -> dict[str, Any]: ...
        def fingerprint(self, request: object) -> Fingerprint: ...

    # ----------------------------------------------------------------- events
    def record_event(self, event: events.Event, actor: str = "local",
                     idempotency_key: str | None = None) -> WriteOutcome:
        """Store the memory an event calls for (see write/events.py for what each event becomes)."""
        return self.store_memory(events.to_input(event), actor, idempotency_key)

    def ingest(self, messages: Sequence[Any], session_id: str, namespace: str = "default", actor: str = "local",
               idempotency_key: str | None = None,
               write: Callable[[MemoryInput, str | None, object], dict[str, Any]] | None = None) -> dict[str, Any]:
        """Keep what matters from a conversation, and say what was kept and why (see write/ingest.py).

        `write(item, key, request)` is the door each memory takes (default: this engine's write path; the MCP skin
        passes review). Every kept memory's key (`KEY#n`) is tied to the conversation as the request, not to what
        the model extracted from it, so a retry replays even when a model would extract differently.
        """
        parsed = ingest.validate_messages(messages)
        planned = ingest.plan(parsed, session_id, namespace, self.llm)
        # taken once per conversation (redaction reads every turn), not once per kept memory
        request: object = None if idempotency_key is None else self.fingerprint(
            {"ingest": [m.model_dump(mode="json") for m in parsed], "session_id": session_id, "namespace": namespace})

        def direct(item: MemoryInput, key: str | None, request: object) -> dict[str, Any]:
            return self.idempotent(item.namespace, key,
                                   lambda memory_id: self.store_many([item], actor, [memory_id])[0].as_dict(), request)

        door = write or direct
        return ingest.run(planned, lambda item, key: door(item, key, request), session_id, idempotency_key)

    @staticmethod
    def event_input(event: events.Event) -> MemoryInput:
        """The memory input an event becomes (the review door stores or proposes it)."""
        return events.to_input(event)

    # --------------------------------------------------------- working memory
    def working_append(self, session_id: str, role: str, content: str, namespace: str = "default") -> int:
        """Append a turn to the session's working memory; returns the number of turns held."""
        if not session_id.strip():
            raise InvalidInputError("session_id: must be non-empty")
        if not has_visible_text(content):
            raise InvalidInputError("content: must contain visible text")
        check_identifier(session_id, "session_id")
        check_text(content, "content")
        with cache_scope(namespace):  # the guard's vectors: this namespace's own cache (round 34)
            turn = guarded_turn(self.writer.screener, self.writer.redactor, content)
        return self.working.append(namespace, session_id, role, turn, self.clock())

    def working_get(self, session_id: str, last_n: int | None = None, namespace: str = "default") -> builtins.list[Turn]:
        check_identifier(session_id, "session_id")  # as append: never echoed back holding NUL or a bidi override
        return self.working.recent(namespace, session_id, last_n)

    def end_session(self, session_id: str, namespace: str = "default", actor: str = "local",
                    write: Callable[[builtins.list[dict[str, Any]]], builtins.list[dict[str, Any]]] | None = None,
                    ) -> dict[str, Any]:
        """Summarise the session into one episodic memory, keep what generalises as semantic, clear working memory.

        What generalises, without an LLM: user turns that state a preference or a standing rule
        ("I prefer...", "always...", "以后...", "我喜欢..."); they still pass the write guard.
        """
        check_identifier(session_id, "session_id")  # the refusal below repeats it (attack round 26)
        turns = self.working.recent(namespace, session_id)
        if not turns:
            raise InvalidInputError(f"session_id: session '{session_id}' has no working memory to end")
        said = said_in(" ".join(t.content for t in turns))
        transcript = [MemoryRecord(content=f"{said(t.role)}{t.content}", namespace=namespace) for t in turns]
        summary, method = self.summarizer.summarize(transcript, "structured")
        items: builtins.list[dict[str, Any]] = [{
            "content": summary, "type": "episodic", "session_id": session_id, "namespace": namespace,
            "tags": ["session-summary"], "metadata": {"event": "session_end", "turns": len(turns), "method": method},
        }]
        # a preference is a piece of the session: when the guard holds the session as a whole (an order split
        # across turns, each harmless alone), each piece is judged with it as its context, so it is held too
        # (attack round 13: the summary was quarantined, its pieces stored active)
        verdict = self.writer.screen(summary, "", ["session-summary"]) if len(turns) > 1 else None
        held = {"context": summary[:MAX_CONTEXT_CHARS]} if verdict is not None and verdict.suspicious else {}
        items += [
            {"content": t.content, "type": "semantic", "source": "user", "session_id": session_id,
             "namespace": namespace, "importance": compute_importance(1.0, 1.0, False),
             "metadata": {"event": "session_end", "extracted": "preference"}, **held}
            for t in turns if t.role == "user" and events.states_general_rule(t.content)
        ]
        # `write` is the caller's door (the review service proposes instead of storing in a reviewed namespace)
        outcomes = write(items) if write else [o.as_dict() for o in self.store_many(items, actor)]
        self.working.clear(namespace, session_id)
        return {"session_id": session_id, "turns": len(turns), "summary_id": outcomes[0].get("memory_id"),
                "summary_result": outcomes[0], "summary": summary, "method": method, "generalised": outcomes[1:]}
