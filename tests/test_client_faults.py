"""The resilient client against a real server process that is down, killed mid-stream, frozen past the timeout
and restarted: every write is stored exactly once, reads during the outage come from the degraded cache."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

from mcp_helpers import (
    ROOT,
    child_env,
    free_port,
    mcp_session,
    serve_argv,
    stop_process,
    wait_for_port,
)

from hindsight.client import ResilientClient

#: hygiene off, so every distinct write must be exactly one row (nothing merged away that could hide a twin)
SERVER_ENV = {"HINDSIGHT_HYGIENE": "false"}


def _start(db: Path, port: int, log: Path) -> subprocess.Popen:
    handle = log.open("ab")
    proc = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=handle,
                            stderr=subprocess.STDOUT, env=child_env(**SERVER_ENV), cwd=str(ROOT))
    try:
        wait_for_port(port, proc, log)
    except BaseException:  # a server that did not listen in time must not outlive the test
        stop_process(proc)
        raise
    return proc


def _wait_drained(client: ResilientClient, limit_s: float = 120.0) -> None:
    deadline = time.monotonic() + limit_s
    while client.pending() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert client.pending() == 0, f"queue not drained: {client.status()}"


def test_every_write_lands_exactly_once_through_outages(tmp_path: Path) -> None:
    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    client = ResilientClient(url, tmp_path / "queue.db", timeout=3.0, backoff_base=0.2, backoff_max=1.5)
    sent: list[str] = []

    def write(text: str) -> dict:
        sent.append(text)
        return client.store(text, type="semantic", source="user")

    server: subprocess.Popen | None = None
    try:
        # 1. down before start: writes queue, the status says so, reads degrade (nothing cached yet)
        for i in range(3):
            assert write(f"Offline fact {i}: the build cache lives in /var/cache/build-{i}.")["queued"] is True
        status = client.status()
        assert status.degraded and status.queue_length == 3 and status.last_error
        assert client.search("build cache") == {"degraded": True, "count": 0, "results": []}

        # 2. the server comes up: the background worker delivers the queue on its own
        server = _start(db, port, log)
        _wait_drained(client)
        assert not client.status().degraded
        warm = client.search("where does the build cache live", top_k=3)
        assert warm["count"] >= 1 and "degraded" not in warm

        # 3. killed mid-stream: a writer keeps writing while the server is SIGKILLed
        stream_done = threading.Event()

        def stream() -> None:
            for i in range(12):
                write(f"Stream fact {i}: service s{i} listens on port {7000 + i}.")
            stream_done.set()

        writer = threading.Thread(target=stream)
        writer.start()
        time.sleep(1.5)
        server.kill()
        server.wait(timeout=15)
        writer.join(timeout=120)
        assert stream_done.is_set()
        during = client.search("build cache")
        assert during["degraded"] is True and during["count"] >= 1
        assert all(r["content"].startswith("Offline fact") for r in during["results"])
        server = _start(db, port, log)
        _wait_drained(client)

        # 4. slow past the timeout: the server is frozen (SIGSTOP) with the requests in its socket, then thaws;
        #    it processes the timed-out originals AND the client's retries: the key makes them one memory each
        os.kill(server.pid, signal.SIGSTOP)
        try:
            for i in range(3):
                assert write(f"Slow fact {i}: the nightly job {i} runs at 0{i}:30.")["queued"] is True
        finally:
            os.kill(server.pid, signal.SIGCONT)
        _wait_drained(client)

        # 5. restarted cleanly: everything is still there, once
        stop_process(server)
        server = _start(db, port, log)
        assert client.dead_letters() == []
        with mcp_session(url) as direct:
            listing = direct.call("memory_list", limit=500)
        stored = Counter(m["content"] for m in listing["memories"])
        assert stored == Counter(sent), f"missing {set(sent) - set(stored)}, twins {[c for c, n in stored.items() if n > 1]}"
        assert listing["total"] == len(sent) == 18
    finally:
        client.close()
        if server is not None:
            try:
                os.kill(server.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            stop_process(server)


def test_refused_write_goes_to_dead_letters_not_nowhere(tmp_path: Path) -> None:
    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    client = ResilientClient(f"http://127.0.0.1:{port}/mcp", tmp_path / "queue.db", timeout=3.0, auto_flush=False)
    server = None
    try:
        client.store("A valid memory about the staging cluster.")
        client.store("Another one", importance=7)  # the server will refuse this (importance must be <= 1)
        assert client.pending() == 2
        server = _start(db, port, log)
        assert client.flush() == 1 and client.pending() == 0
        [dead] = client.dead_letters()
        assert dead["tool"] == "memory_store" and dead["arguments"]["importance"] == 7 and dead["error"]
    finally:
        client.close()
        if server is not None:
            stop_process(server)
