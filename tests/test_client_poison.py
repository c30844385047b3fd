"""A write the server keeps refusing no longer blocks the resilient client's queue (attack round 5 left it open).

A real server process that refuses one queued write (a private memory sent to a server without an encryption
key: `encryption_unavailable`, an ambiguous error a person must fix), killed and restarted with the key: the
writes behind the poison are delivered, the poison is set aside as a dead letter after a few tries with backoff,
listed and replayed with `hindsight client-queue` (same idempotency key), and every write is stored exactly once.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from mcp_helpers import ROOT, child_env, free_port, hindsight_argv, serve_argv, stop_process, wait_for_port

from hindsight.client import ResilientClient
from hindsight.errors import error_kind
from hindsight.security.crypto import cipher_from_text, generate_key

FACTS = ["The build cache lives in /var/cache/build-a.", "发布窗口是每周二下午两点。",
         "The staging database runs PostgreSQL 16 on port 5433."]
PRIVATE = "My therapist appointment is every Thursday at 17:00."


def _start(db: Path, port: int, log: Path, **env: str) -> subprocess.Popen:
    proc = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=log.open("ab"),
                            stderr=subprocess.STDOUT, env=child_env(HINDSIGHT_HYGIENE="false", **env), cwd=str(ROOT))
    try:
        wait_for_port(port, proc, log)
    except BaseException:  # a server that did not listen in time must not outlive the test
        stop_process(proc)
        raise
    return proc


def _wait(condition, what: str, limit_s: float = 240.0) -> None:  # type: ignore[no-untyped-def]
    # A liveness bound (under pytest's 300 s per test), not a timing check: it only stops a hung test sooner.
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def _queue_cli(*args: str, key: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(hindsight_argv("client-queue", *args), capture_output=True, text=True, timeout=120,
                          env=child_env(HINDSIGHT_ENCRYPTION_KEY=key), cwd=str(ROOT))


@pytest.mark.parametrize(("code", "kind"), [("invalid_input", "final"), ("idempotency_conflict", "final"),
                                            ("storage_busy", "transient"), ("storage_unavailable", "transient"),
                                            ("timeout", "transient"), ("unavailable", "transient"),
                                            ("storage_error", "ambiguous"), ("permission_denied", "ambiguous"),
                                            ("encryption_unavailable", "ambiguous"), ("whatever_new", "ambiguous")])
def test_error_codes_are_typed_final_transient_or_ambiguous(code: str, kind: str) -> None:
    assert error_kind(code) == kind


def test_a_poison_write_is_set_aside_and_replayed_once_the_server_is_fixed(tmp_path: Path) -> None:
    db, log, port, queue = tmp_path / "memory.db", tmp_path / "server.log", free_port(), tmp_path / "queue.db"
    key = generate_key()
    client = ResilientClient(f"http://127.0.0.1:{port}/mcp", queue, timeout=10, backoff_base=0.05, backoff_max=0.3,
                             cipher=cipher_from_text(key, "key"))
    server = None
    try:
        assert client.store(FACTS[0], type="semantic")["queued"] is True  # the server is not there yet
        poison = client.store(PRIVATE, type="semantic", private=True)
        for fact in FACTS[1:]:
            client.store(fact, type="semantic")
        assert client.pending() == 4

        server = _start(db, port, log)  # no encryption key: it refuses the private write every time
        _wait(lambda: client.pending() == 0, "the writes behind the poison")
        dead = client.dead_letters()
        assert len(dead) == 1 and "encryption_unavailable" in dead[0]["error"]
        assert dead[0]["arguments"]["idempotency_key"] == poison["idempotency_key"]
        listed = _queue_cli("dead", "--queue", str(queue), key=key)
        assert listed.returncode == 0 and PRIVATE in listed.stdout  # readable with the client's key
        assert PRIVATE.encode() not in queue.read_bytes()  # sealed at rest

        server.send_signal(signal.SIGKILL)  # killed, then restarted with the key the operator forgot
        server.wait(timeout=30)
        server = _start(db, port, log, HINDSIGHT_ENCRYPTION_KEY=key)
        replayed = _queue_cli("replay", "all", "--queue", str(queue), key=key)
        assert replayed.returncode == 0, replayed.stderr
        assert list(json.loads(replayed.stdout)["replayed"]) == [str(dead[0]["id"])]
        again = _queue_cli("replay", str(dead[0]["id"]), "--queue", str(queue), key=key)
        assert again.returncode == 2 and "no dead letter" in again.stderr  # a dead letter replays once
        _wait(lambda: client.pending() == 0 and client.status().queue_length == 0, "the replayed write")
        client.flush()
        assert client.dead_letters() == []
        # the same key sent once more (a replay of a write the server did store) stores nothing new
        twice = client.call("memory_store", {"content": PRIVATE, "type": "semantic", "private": True,
                                             "idempotency_key": poison["idempotency_key"]})
        assert twice.get("replayed") is True
        stored = client.call("memory_list", {"limit": 50})["memories"]
        contents = sorted(m["content"] for m in stored)
        assert contents == sorted([*FACTS, PRIVATE])  # each exactly once
    finally:
        if server is not None:
            stop_process(server)
        client.close()
