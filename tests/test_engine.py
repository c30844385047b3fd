"""Engine behaviour through the Python API surface: the write path, the search path, lifecycle."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import FIXED_NOW

from hindsight import InvalidInputError, Memory, MemoryNotFoundError, Status
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine

CORPUS = [
    ("The user prefers TypeScript over JavaScript for frontend work.", "semantic", ["preference"]),
    ("处理 PostgreSQL 连接池耗尽问题时，将 max_connections 从 100 调到 200 并重启服务解决。", "episodic", ["database"]),
    ("Deploy failed because the staging token expired; refresh the token before make release.", "warning", ["deploy"]),
    ("用户喜欢简洁的回答，不要太长的解释。", "semantic", ["preference"]),
    ("Fixed the login bug by clearing the stale session cookie on logout.", "episodic", ["auth", "bug"]),
]


@pytest.fixture(params=["sqlite", "postgres"])
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Every engine test runs on the SQLite file and on PostgreSQL (a real server, see conftest.pg_server)."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return tmp_path / "memory.db"


@pytest.fixture
def filled(engine: MemoryEngine) -> dict[str, str]:
    outcomes = engine.store_many(
        [{"content": c, "type": t, "tags": tags, "event_time": FIXED_NOW - timedelta(days=i)} for i, (c, t, tags) in enumerate(CORPUS)]
    )
    return {c: o.memory_id for (c, _, _), o in zip(CORPUS, outcomes)}


def test_store_returns_id_and_defaults(engine: MemoryEngine) -> None:
    outcome = engine.store_memory({"content": "  remember me  ", "source": "user"})
    assert outcome.action == "created" and outcome.memory_id.startswith("mem_")
    record = engine.get(outcome.memory_id)
    assert record.content == "remember me" and record.credibility == 1.0 and record.status == Status.active


@pytest.mark.parametrize(
    "query,expected",
    [
        ("what language does the user like for frontend", 0),
        ("数据库连接池满了怎么办", 1),
        ("max_connections", 1),
        ("staging token expired", 2),
        ("用户喜欢什么样的回答", 3),
        ("login bug cookie", 4),
    ],
)
def test_search_finds_the_right_memory_in_both_languages(engine: MemoryEngine, filled: dict[str, str], query: str,
                                                         expected: int) -> None:
    hits = engine.search(query, top_k=3, now=FIXED_NOW)
    assert hits[0].memory.id == filled[CORPUS[expected][0]], [h.memory.content for h in hits]
    why = hits[0].why
    assert why.final == hits[0].score and (why.dense_rank or why.keyword_rank)


def test_filters_apply_inside_channels(engine: MemoryEngine, filled: dict[str, str]) -> None:
    hits = engine.search("user preference", filters={"types": ["semantic"]}, top_k=10, now=FIXED_NOW)
    assert hits and all(h.memory.type.value == "semantic" for h in hits)
    hits = engine.search("anything at all", filters={"tags": ["deploy"]}, top_k=10, now=FIXED_NOW)
    assert [h.memory.id for h in hits] == [filled[CORPUS[2][0]]]
    hits = engine.search("bug", filters={"time_from": FIXED_NOW - timedelta(days=1, hours=1)}, top_k=10, now=FIXED_NOW)
    assert {h.memory.id for h in hits} <= {filled[CORPUS[0][0]], filled[CORPUS[1][0]]}


def test_update_reembeds_and_keeps_history(engine: MemoryEngine, filled: dict[str, str]) -> None:
    mid = filled[CORPUS[0][0]]
    engine.update(mid, {"content": "The user now prefers Rust for backend services.", "importance": 0.9})
    assert engine.search("Rust backend", top_k=1, now=FIXED_NOW)[0].memory.id == mid
    history = engine.history(mid)
    assert [h.action for h in history] == ["create", "update"]
    assert "TypeScript" in history[1].before["content"] and "Rust" in history[1].after["content"]


def test_forget_sinks_and_is_retrievable_when_asked(engine: MemoryEngine, filled: dict[str, str]) -> None:
    mid = filled[CORPUS[4][0]]
    engine.forget(mid, reason="obsolete")
    assert mid not in [h.memory.id for h in engine.search("login bug cookie", top_k=5, now=FIXED_NOW)]
    asked = engine.search("login bug cookie", filters={"statuses": ["active", "forgotten"]}, top_k=5, now=FIXED_NOW)
    hit = next(h for h in asked if h.memory.id == mid)
    assert hit.memory.status == Status.forgotten and hit.why.status_factor < 1
    assert engine.get(mid).status_reason == "obsolete"


def test_hard_delete_is_separate_and_final(engine: MemoryEngine, filled: dict[str, str]) -> None:
    mid = filled[CORPUS[2][0]]
    engine.delete(mid)
    with pytest.raises(MemoryNotFoundError):
        engine.get(mid)
    assert [h.action for h in engine.history(mid)] == ["create", "delete"]


def test_namespaces_do_not_cross(engine: MemoryEngine) -> None:
    mine = engine.store_memory({"content": "secret plan for project alpha", "namespace": "alice"}).memory_id
    assert engine.search("project alpha", namespace="bob", top_k=5) == []
    for op in (lambda: engine.get(mine, "bob"), lambda: engine.forget(mine, "x", "bob"),
               lambda: engine.update(mine, {"importance": 0.1}, "bob"), lambda: engine.delete(mine, "bob")):
        with pytest.raises(MemoryNotFoundError):
            op()
    assert engine.get(mine, "alice").status == Status.active


def test_summarize_extractive(engine: MemoryEngine, filled: dict[str, str]) -> None:
    ids = list(filled.values())[:3]
    result = engine.summarize(ids, "brief")
    assert result["method"] == "extractive" and 0 < len(result["summary"]) <= 150


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"content": ""},
        {"content": "   "},
        {"content": "x" * 20_001},
        {"content": "ok", "importance": 1.5},
        {"content": "ok", "type": "dream"},
        {"content": "ok", "unknown": 1},
        {"content": "ok", "namespace": "has space"},
        {"content": "ok", "tags": "notalist"},
    ],
)
def test_bad_store_input_is_typed_and_changes_nothing(engine: MemoryEngine, filled: dict[str, str], bad: dict) -> None:
    before = engine.stats().total
    with pytest.raises(InvalidInputError) as info:
        engine.store_memory(bad)
    # `FIELD: RULE`, the field the caller sent (or left out) first (mend22: was "invalid memory: FIELD: ...")
    field = str(info.value).split(": ", 1)[0]
    assert field == (list(bad)[-1] if bad else "content"), info.value  # each case's bad field is its last
    assert engine.stats().total == before


def test_batch_is_all_or_nothing_on_validation(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInputError):
        engine.store_many([{"content": "fine"}, {"content": ""}])
    assert engine.stats().total == 0


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda e: e.search(""), "query"),
        (lambda e: e.search("x", top_k=0), "top_k"),
        (lambda e: e.search("x", filters={"bogus": 1}), "bogus"),
        (lambda e: e.search("x", filters={"time_from": "2026-02-01", "time_to": "2026-01-01"}), "time_from"),
        (lambda e: e.search("x", filters={"statuses": ["quarantined"]}), "quarantined"),
        (lambda e: e.update("mem_x", {}), "at least one field"),
        (lambda e: e.update("mem_x", {"colour": "red"}), "colour"),
        (lambda e: e.summarize([]), "memory_ids"),
        (lambda e: e.list(limit=0), "limit"),
    ],
)
def test_bad_calls_raise_clear_errors(engine: MemoryEngine, call, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        call(engine)
    assert message in str(info.value)


def test_unknown_id_is_not_found(engine: MemoryEngine) -> None:
    for call in (lambda: engine.get("mem_nope"), lambda: engine.update("mem_nope", {"importance": 0.2}),
                 lambda: engine.forget("mem_nope"), lambda: engine.summarize(["mem_nope"]), lambda: engine.history("mem_nope")):
        with pytest.raises(MemoryNotFoundError) as info:
            call()
        assert "mem_nope" in str(info.value)


def test_export_import_roundtrip(engine: MemoryEngine, filled: dict[str, str], tmp_path: Path, embedder: Embedder) -> None:
    buffer = io.StringIO()
    assert engine.export_jsonl(buffer) == len(CORPUS)
    with Memory(tmp_path / "copy.db", embedder=embedder) as other:
        outcomes = other.import_(buffer.getvalue().splitlines())
        assert len(outcomes) == len(CORPUS)
        assert {r.content for r in other.list(limit=50)[0]} == {c for c, _, _ in CORPUS}
    with pytest.raises(InvalidInputError) as info:
        engine.import_jsonl(['{"content": "ok"}', "not json"])
    assert "line 2" in str(info.value)


def test_reopen_keeps_everything(db_path: Path, embedder: Embedder) -> None:
    with Memory(db_path, embedder=embedder) as mem:
        mid = mem.add("重启之后还在 survives restart", type="semantic").memory_id
    with Memory(db_path, embedder=embedder) as mem:
        assert mem.get(mid).content == "重启之后还在 survives restart"
        assert mem.search("survives restart", top_k=1)[0].memory.id == mid
        assert mem.search("重启之后", top_k=1)[0].memory.id == mid


def test_decay_prefers_recent_among_equals(engine: MemoryEngine) -> None:
    engine.writer.hygiene = None  # this test is about decay; near-identical writes would otherwise be merged
    old = engine.store_memory({"content": "the deploy checklist for the web app",
                               "event_time": FIXED_NOW - timedelta(days=200)}).memory_id
    new = engine.store_memory({"content": "the deploy checklist for the mobile app",
                               "event_time": FIXED_NOW - timedelta(days=1)}).memory_id
    hits = engine.search("deploy checklist", top_k=2, now=FIXED_NOW)
    by_id = {h.memory.id: h for h in hits}
    assert by_id[new].why.decay > by_id[old].why.decay


def test_an_update_that_changes_nothing_writes_no_history(engine: MemoryEngine, filled: dict[str, str]) -> None:
    """Re-sending a memory's own values (an agent retrying, a console form saved untouched) is not a change: no
    history entry, no new `updated_at`, the record returned as it is (EN and ZH content alike)."""
    for content in ("The billing service deploys on Tuesdays at 10:00 UTC.", "用户喜欢在周五下午开周会。"):
        mid = engine.store_memory({"content": content, "importance": 0.4, "tags": ["pref"]}).memory_id or ""
        before = engine.get(mid, record_access=False)
        same = engine.update(mid, {"content": before.content, "importance": before.importance, "tags": before.tags})
        assert [h.action for h in engine.history(mid)] == ["create"]
        assert same.updated_at == before.updated_at and same.content == before.content
        engine.update(mid, {"importance": 0.9})  # a real change still writes history
        assert [h.action for h in engine.history(mid)] == ["create", "update"]
