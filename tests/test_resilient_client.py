"""The resilient client against a real HTTP server that goes away and comes back on the same port."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest
from fastmcp.exceptions import ToolError
from mcp_helpers import CALL_TIMEOUT_S, ROOT, child_env, free_port, serve_argv, stop_process, wait_for_port

from hindsight.client import ResilientClient


def _start(db: Path, port: int, log: Path, **env: str) -> subprocess.Popen:
    handle = log.open("ab")
    proc = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=handle,
                            stderr=subprocess.STDOUT, env=child_env(**env), cwd=str(ROOT))
    try:
        wait_for_port(port, proc, log)
    except BaseException:  # a server that did not listen in time must not outlive the test
        stop_process(proc)
        raise
    return proc


def test_queue_when_down_flush_when_back(tmp_path: Path) -> None:
    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    client = ResilientClient(f"http://127.0.0.1:{port}/mcp", tmp_path / "queue.db", timeout=CALL_TIMEOUT_S, auto_flush=False)
    server = _start(db, port, log)
    try:
        stored = client.store("The user prefers concise answers.", type="semantic", source="user")
        assert stored["action"] == "created"
        assert client.search("how should answers be written")["count"] >= 1
        with pytest.raises(ToolError):
            client.store("")  # refused by the server: an error, not a silent queue entry
    finally:
        stop_process(server)

    queued = client.store("部署前先刷新 staging 令牌。", type="warning")
    assert queued["queued"] is True and client.pending() == 1
    degraded = client.search("answers")
    assert degraded["degraded"] is True and degraded["results"][0]["content"] == "The user prefers concise answers."
    assert client.flush() == 0 and client.pending() == 1  # still down: nothing lost

    server = _start(db, port, log)
    try:
        assert client.flush() == 1 and client.pending() == 0
        found = client.search("staging 令牌")
        assert any("令牌" in r["content"] for r in found["results"])
    finally:
        stop_process(server)
        client.close()


def test_a_locked_database_loses_nothing_and_a_refused_write_is_a_dead_letter(tmp_path: Path) -> None:
    """Issue 9 item 1: a transient server error keeps the write queued; only a validation refusal is final."""
    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    client = ResilientClient(f"http://127.0.0.1:{port}/mcp", tmp_path / "queue.db", timeout=CALL_TIMEOUT_S, backoff_base=0.1,
                             auto_flush=False)
    facts = [f"Build cache number {i} lives in /var/cache/build-{i}." for i in range(4)]
    for fact in facts[:2]:
        assert client.store(fact)["queued"] is True  # the server is not there yet
    client.store("   \u00a0 ")  # the server will refuse it: content has no text
    for fact in facts[2:]:
        client.store(fact)
    assert client.pending() == 5
    server = _start(db, port, log, HINDSIGHT_BUSY_TIMEOUT="2")  # the server gives up on the lock before the client
    try:
        locker = sqlite3.connect(db, isolation_level=None)  # another process holds the write lock
        locker.execute("BEGIN IMMEDIATE")
        try:
            assert client.flush(attempts=1) == 0
            assert client.pending() == 5 and client.dead_letters() == []
            assert "storage_busy" in client.queued()[0]["last_error"]
            assert client.queued()[0]["attempts"] == 1
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert client.flush() == 4 and client.pending() == 0
        dead = client.dead_letters()
        assert len(dead) == 1 and dead[0]["error"].split(": ", 1)[1].startswith("invalid_input")
        assert dead[0]["arguments"]["content"] == "   \u00a0 "
        stored = client.call("memory_list", {"limit": 50})
        assert sorted(m["content"] for m in stored["memories"]) == sorted(facts)
    finally:
        stop_process(server)
        client.close()


def test_degraded_search_answers_only_from_the_namespace_and_filters_asked_for(tmp_path: Path) -> None:
    """Attack finding B: with the server gone, a search of one namespace returned another namespace's memories."""
    import asyncio

    from hindsight.client import AsyncResilientClient

    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    client = ResilientClient(url, tmp_path / "queue.db", timeout=CALL_TIMEOUT_S, auto_flush=False)
    aclient = AsyncResilientClient(url, tmp_path / "aqueue.db", timeout=CALL_TIMEOUT_S)
    server = _start(db, port, log)
    try:
        client.store("The vault code owner is Dana.", type="semantic", namespace="crash", tags=["vault"])
        client.store("Backups of the vault run nightly at 02:00.", type="semantic", namespace="crash", tags=["ops"])
        assert client.search("vault code owner", namespace="crash")["count"] == 2
        assert client.search("vault code owner", namespace="emptyns")["count"] == 0
        assert asyncio.run(aclient.search("vault code owner", namespace="crash"))["count"] == 2
    finally:
        stop_process(server)
    try:
        for search in (client.search, lambda q, **kw: asyncio.run(aclient.search(q, **kw))):
            empty = search("vault code owner", namespace="emptyns")
            assert empty["degraded"] is True and empty["results"] == []
            assert search("vault code owner")["results"] == []  # the default namespace is not 'crash' either
            own = search("vault code owner", namespace="crash")
            assert own["degraded"] is True and own["count"] == 2
            tagged = search("vault code owner", namespace="crash", filters={"tags": ["vault"]})
            assert [r["content"] for r in tagged["results"]] == ["The vault code owner is Dana."]
            assert search("vault", namespace="crash", filters={"types": ["episodic"]})["results"] == []
            assert search("vault", namespace="crash", top_k=1)["count"] == 1
    finally:
        client.close()
        asyncio.run(aclient.aclose())
