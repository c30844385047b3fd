"""Idempotent writes: one memory per (namespace, key), a repeat answers the first result, across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_helpers import http_server, mcp_session

from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import IdempotencyConflictError, InvalidInputError
from hindsight.write import events


def test_same_key_stores_once_and_replays_first_result(engine: MemoryEngine) -> None:
    first = engine.store_memory({"content": "Deploys go through the blue-green switch.", "type": "semantic"},
                                idempotency_key="k-1")
    again = engine.store_memory({"content": "Deploys go through the blue-green switch.", "type": "semantic"},
                                idempotency_key="k-1")
    assert first.action == "created" and again.memory_id == first.memory_id
    assert engine.stats().total == 1
    other_ns = engine.store_memory({"content": "Deploys go through the blue-green switch.", "namespace": "team"},
                                   idempotency_key="k-1")
    assert other_ns.memory_id != first.memory_id  # keys are per namespace


def test_key_on_an_event_and_invalid_keys(engine: MemoryEngine) -> None:
    event = events.TaskFailed(goal="部署到生产环境", what_went_wrong="令牌过期", avoid_by="先刷新令牌")
    a = engine.record_event(event, idempotency_key="evt-7")
    b = engine.record_event(event, idempotency_key="evt-7")
    assert a.memory_id == b.memory_id and engine.stats().total == 1
    for bad in ("", "   ", "x" * 201, "a\x00b", "zero\u200bwidth"):
        with pytest.raises(InvalidInputError, match="idempotency_key"):
            engine.store_memory({"content": "never stored"}, idempotency_key=bad)
    assert engine.stats().total == 1


def test_a_crash_after_the_insert_is_still_one_memory(db_path: Path, embedder: Embedder) -> None:
    """The insert landed but the result was never recorded (killed in between): the retry collides, not twins."""
    eng = MemoryEngine.open(db_path, embedder=embedder)
    try:
        stored = eng.store_memory({"content": "The staging token expires every Monday."}, idempotency_key="crash")
        eng.store.inner._aux_exec("DELETE FROM idempotency")  # type: ignore[attr-defined]
    finally:
        eng.close()
    eng = MemoryEngine.open(db_path, embedder=embedder)
    try:
        # hygiene off would insert a twin without the id collision; the collision is what holds
        eng.hygiene = None
        eng.writer.hygiene = None
        retried = eng.store_memory({"content": "The staging token expires every Monday."}, idempotency_key="crash")
        assert retried.memory_id == stored.memory_id and eng.stats().total == 1
    finally:
        eng.close()


def test_same_key_across_a_server_restart_is_stored_once(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    args = {"content": "用户偏好用 pnpm 而不是 npm。", "type": "semantic", "source": "user", "idempotency_key": "retry-42"}
    with http_server(db, tmp_path / "a.log") as url, mcp_session(url) as client:
        first = client.call("memory_store", **args)
        assert first["action"] == "created"
        fail = {"task": {"goal": "migrate the db", "what_went_wrong": "lock timeout"}, "idempotency_key": "f-1"}
        failed = client.call("memory_task_failed", **fail)
    with http_server(db, tmp_path / "b.log") as url, mcp_session(url) as client:
        again = client.call("memory_store", **args)
        assert again["memory_id"] == first["memory_id"] and again["replayed"] is True
        assert client.call("memory_task_failed", **fail)["memory_id"] == failed["memory_id"]
        # a second server on the same file sees the same records
        with http_server(db, tmp_path / "c.log") as url2, mcp_session(url2) as other:
            assert other.call("memory_store", **args)["memory_id"] == first["memory_id"]
        assert client.call("memory_stats", namespace="default")["total"] == 2
        error = client.error("memory_store", {**args, "idempotency_key": ""})
        assert "idempotency_key" in error


def test_a_key_from_before_request_hashes_still_replays(db_path: Path, embedder: Embedder) -> None:
    """A v5 file (no request_hash) upgrades in place; its recorded keys replay as before, new keys are fingerprinted."""
    import sqlite3

    from hindsight.storage.migrations import MIGRATIONS, _statements

    old = sqlite3.connect(db_path, isolation_level=None)
    for version, script in enumerate(MIGRATIONS[:5]):
        for statement in _statements(script):
            old.execute(statement)
        old.execute(f"PRAGMA user_version = {version + 1}")
    old.execute("INSERT INTO idempotency(namespace, key, result, created_at) VALUES "
                "('default', 'old-key', '{\"memory_id\": \"mem_old\", \"action\": \"created\", \"status\": \"active\"}', 1.0)")
    old.close()
    eng = MemoryEngine.open(db_path, embedder=embedder)
    try:
        assert eng.store.get_idempotent("default", "old-key") == (
            '{"memory_id": "mem_old", "action": "created", "status": "active"}', "")
        replayed = eng.store_memory({"content": "whatever is sent now"}, idempotency_key="old-key")
        assert replayed.memory_id == "mem_old" and eng.stats().total == 0
        eng.store_memory({"content": "The VPN config is in the wiki."}, idempotency_key="new-key")
        with pytest.raises(IdempotencyConflictError, match="idempotency_key: 'new-key'"):
            eng.store_memory({"content": "The VPN config is on the share."}, idempotency_key="new-key")
        assert eng.stats().total == 1
    finally:
        eng.close()
