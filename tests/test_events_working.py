"""Event-driven writes and working memory, in English and Chinese."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from hindsight import InvalidInputError, MemoryType, Source
from hindsight.engine import MemoryEngine
from hindsight.write import events


@pytest.mark.parametrize("goal,steps", [
    ("Fix the PostgreSQL pool exhaustion", ["raised max_connections to 200", "restarted", "watched metrics", "extra"]),
    ("修复 PostgreSQL 连接池耗尽", ["max_connections 调到 200", "重启服务"]),
])
def test_task_completed_is_episodic_with_computed_importance(engine: MemoryEngine, goal: str, steps: list[str]) -> None:
    outcome = engine.record_event(events.TaskCompleted(goal=goal, steps=steps, problems=["pool full -> raise limit"],
                                                       outcome="ok", success=1, user_feedback=0.5, task_id="t1"))
    record = engine.get(outcome.memory_id)
    assert record.type == MemoryType.episodic and record.importance == 0.6 and record.source_task_id == "t1"
    assert goal in record.content and "extra" not in record.content  # at most 3 key steps


def test_task_failed_is_a_low_importance_warning(engine: MemoryEngine) -> None:
    outcome = engine.record_event(events.TaskFailed(goal="部署到生产环境", what_went_wrong="令牌过期", avoid_by="先刷新令牌"))
    record = engine.get(outcome.memory_id)
    assert record.type == MemoryType.warning and record.importance <= 0.4 and "failure" in record.tags
    hits = engine.search("部署踩过的坑", top_k=3)
    assert hits and hits[0].memory.id == record.id


@pytest.mark.parametrize("text", ["Use pnpm, not npm, in this repo", "不对，应该用 pnpm 而不是 npm"])
def test_user_correction_is_high_importance_semantic(engine: MemoryEngine, text: str) -> None:
    record = engine.get(engine.record_event(events.UserCorrection(correction=text, wrong="npm")).memory_id)
    assert record.type == MemoryType.semantic and record.source == Source.user and record.importance == 1.0


def test_tool_retry_is_a_pitfall(engine: MemoryEngine) -> None:
    outcome = engine.record_event(events.ToolRetrySucceeded(tool="kubectl", error="context deadline exceeded",
                                                            fix="pass --request-timeout=60s"))
    record = engine.get(outcome.memory_id)
    assert record.type == MemoryType.warning and "pitfall" in record.tags
    assert engine.search("kubectl pitfalls", top_k=1)[0].memory.id == record.id


def test_event_validation_names_the_field() -> None:
    with pytest.raises(ValidationError) as info:
        events.TaskCompleted(goal="", success=2)
    assert "goal" in str(info.value) and "success" in str(info.value)


def test_working_memory_keeps_last_n_and_session_end_extracts(engine: MemoryEngine) -> None:
    engine.working.turns_per_session = 4
    turns = [("user", "I always want answers in British English."), ("assistant", "Noted."),
             ("user", "帮我看一下登录接口的报错"), ("assistant", "是 token 过期导致的，已刷新。"),
             ("user", "以后部署前都先跑测试"), ("assistant", "好的")]
    for role, text in turns:
        engine.working_append("s1", role, text)
    held = engine.working_get("s1")
    assert [t.content for t in held] == [t for _, t in turns[-4:]]
    assert [t.content for t in engine.working_get("s1", last_n=2)] == [t for _, t in turns[-2:]]
    assert engine.working_get("other") == []
    result = engine.end_session("s1")
    assert result["turns"] == 4 and engine.working_get("s1") == []
    summary = engine.get(result["summary_id"])
    assert summary.type == MemoryType.episodic and summary.session_id == "s1"
    generalised = [engine.get(g["memory_id"]) for g in result["generalised"]]
    assert [g.content for g in generalised] == ["以后部署前都先跑测试"]
    assert generalised[0].type == MemoryType.semantic
    with pytest.raises(InvalidInputError):
        engine.end_session("s1")
