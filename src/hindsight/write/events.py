"""Event-driven writes: the moments the seed says are worth remembering, turned into memory inputs.

Writing on events rather than on every turn keeps the store small and each
memory self-contained (what, why, how, and the context where it applies).
Importance is computed from explicit inputs, never guessed:
    importance = 0.4 * success + 0.4 * user_feedback + 0.2 * is_correction
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from hindsight.model import MemoryInput, MemoryType, Source
from hindsight.text.script import has_han
from hindsight.write.importance import compute_importance


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    context: str = Field(default="", max_length=4000, description="When this applies.")
    tags: list[str] = Field(default_factory=list)
    session_id: str | None = Field(default=None, max_length=200)
    task_id: str | None = Field(default=None, max_length=200)
    namespace: str = Field(default="default", min_length=1, max_length=128, pattern=r"^[\w.\-:/@]+$")


class TaskCompleted(_Event):
    """A task closed successfully: goal, key steps, problems and fixes, outcome."""

    goal: str = Field(min_length=1, max_length=2000)
    steps: list[str] = Field(default_factory=list, max_length=20)
    problems: list[str] = Field(default_factory=list, max_length=20, description="'problem -> fix' lines")
    outcome: str = Field(default="", max_length=2000)
    success: float = Field(default=1.0, ge=0, le=1)
    user_feedback: float = Field(default=0.0, ge=0, le=1)


class TaskFailed(_Event):
    """A task that failed: kept as a warning, for avoidance rather than reuse."""

    goal: str = Field(min_length=1, max_length=2000)
    what_went_wrong: str = Field(min_length=1, max_length=4000)
    avoid_by: str = Field(default="", max_length=2000)
    user_feedback: float = Field(default=0.0, ge=0, le=1)


class UserCorrection(_Event):
    """The user said "no, use X rather than Y": stored at once, as semantic, with high importance."""

    correction: str = Field(min_length=1, max_length=4000)
    wrong: str = Field(default="", max_length=2000, description="What was wrong, if stated.")


class ToolRetrySucceeded(_Event):
    """A tool call failed, then succeeded after a change: the classic pitfall record."""

    tool: str = Field(min_length=1, max_length=200)
    error: str = Field(min_length=1, max_length=4000)
    fix: str = Field(min_length=1, max_length=4000)


def _join(label: str, items: list[str], sep: str = "; ") -> str:
    cleaned = [i.strip() for i in items if i and i.strip()]
    return f"{label}: {sep.join(cleaned)}" if cleaned else ""


def _is_chinese(text: str) -> bool:
    return has_han(text)


def _base(event: _Event, extra_tags: tuple[str, ...] = (), **fields: Any) -> MemoryInput:
    return MemoryInput(
        context=event.context, tags=[*event.tags, *extra_tags], session_id=event.session_id,
        source_task_id=event.task_id, namespace=event.namespace, **fields,
    )


def task_completed(event: TaskCompleted) -> MemoryInput:
    zh = _is_chinese(event.goal)
    parts = [
        ("目标" if zh else "Goal") + f": {event.goal.strip()}",
        _join("关键步骤" if zh else "Steps", event.steps[:3]),
        _join("问题与解决" if zh else "Problems and fixes", event.problems),
        (("结果" if zh else "Outcome") + f": {event.outcome.strip()}") if event.outcome.strip() else "",
    ]
    return _base(event, content="\n".join(p for p in parts if p), type=MemoryType.episodic, source=Source.agent,
                 importance=compute_importance(event.success, event.user_feedback, False),
                 metadata={"event": "task_completed"})


def task_failed(event: TaskFailed) -> MemoryInput:
    zh = _is_chinese(event.goal)
    parts = [
        ("失败的任务" if zh else "Failed task") + f": {event.goal.strip()}",
        ("原因" if zh else "What went wrong") + f": {event.what_went_wrong.strip()}",
        (("避免方法" if zh else "Avoid by") + f": {event.avoid_by.strip()}") if event.avoid_by.strip() else "",
    ]
    return _base(event, content="\n".join(p for p in parts if p), type=MemoryType.warning, source=Source.agent,
                 importance=compute_importance(0.0, event.user_feedback, False) or 0.2,
                 extra_tags=("failure",), metadata={"event": "task_failed"})


def user_correction(event: UserCorrection) -> MemoryInput:
    zh = _is_chinese(event.correction)
    content = event.correction.strip()
    if event.wrong.strip():
        content += (f"（而不是：{event.wrong.strip()}）" if zh else f" (not: {event.wrong.strip()})")
    return _base(event, content=content, type=MemoryType.semantic, source=Source.user,
                 importance=compute_importance(1.0, 1.0, True), extra_tags=("correction",),
                 metadata={"event": "user_correction"})


def tool_retry_succeeded(event: ToolRetrySucceeded) -> MemoryInput:
    zh = _is_chinese(event.error + event.fix)
    content = (f"踩坑：调用 {event.tool} 失败（{event.error.strip()}），解决：{event.fix.strip()}" if zh
               else f"Pitfall: {event.tool} failed ({event.error.strip()}); fixed by: {event.fix.strip()}")
    return _base(event, content=content, type=MemoryType.warning, source=Source.agent,
                 importance=compute_importance(1.0, 0.0, True), extra_tags=("pitfall", event.tool.lower()[:60]),
                 metadata={"event": "tool_retry_succeeded", "tool": event.tool})


_GENERAL_RULE = re.compile(
    r"\b(i (?:always|never|prefer|like|love|hate|don't like|usually)|always|never|from now on|please (?:always|use|don't)"
    r"|my (?:favou?rite|preference))\b"
    r"|我(?:喜欢|偏好|习惯|讨厌|不喜欢|一般|通常|总是)|以后|总是|每次都|请(?:用|使用|不要)|不要再|记住",
    re.IGNORECASE,
)


def states_general_rule(text: str) -> bool:
    """A user turn that states a preference or standing rule (worth keeping beyond this session)."""
    return bool(_GENERAL_RULE.search(text))


Event = TaskCompleted | TaskFailed | UserCorrection | ToolRetrySucceeded


def to_input(event: Event) -> MemoryInput:
    """The memory input an event becomes."""
    if isinstance(event, TaskCompleted):
        return task_completed(event)
    if isinstance(event, TaskFailed):
        return task_failed(event)
    if isinstance(event, UserCorrection):
        return user_correction(event)
    return tool_retry_succeeded(event)
