"""A stdio client that closes: the server stops without a traceback (ux33's finding 16, round 34).

Two ways a client closes: as the real `mcp` client does itself (stdin closed, the rest of stdout drained), and as a
client that goes away mid-session (a desktop app quitting: its end of the server's stdout closed while the server
has an answer to write; a hand-written client over the same pipes, since the `mcp` client always drains). On main
the second printed a `BrokenPipeError` traceback in an ExceptionGroup and exited with status 1; the server now stops
quietly and closes its store as on any other stop.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_helpers import START_TIMEOUT_S, child_env, serve_argv, stop_process

from hindsight.server.stdio_close import client_gone

#: time for the server to write its answer into the closed pipe before its stdin ends (not a timing check: a server
#: slower than this reads the end first, writes nothing, and the test passes on main too - it can miss, never fail)
ANSWER_S = 3.0


def _line(**message: Any) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode()


async def _plain(db: Path, log_file: Path) -> None:
    argv = serve_argv(db)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env())
    with open(log_file, "w", encoding="utf-8") as log:
        async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
            with anyio.fail_after(START_TIMEOUT_S):
                await session.initialize()
                assert (await session.list_tools()).tools


def test_the_mcp_client_closing_leaves_no_traceback(tmp_path: Path) -> None:
    log_file = tmp_path / "server.log"
    anyio.run(_plain, tmp_path / "memory.db", log_file)
    time.sleep(1.0)  # the client has stopped the server by now (stdin closed, then a kill after its grace period)
    text = log_file.read_text(encoding="utf-8")
    assert "Traceback" not in text and "BrokenPipe" not in text and "Exception ignored" not in text, text


def test_a_client_gone_mid_session_leaves_no_traceback(tmp_path: Path) -> None:
    """Failed on main: a BrokenPipeError traceback on stderr, exit status 1."""
    log_file = tmp_path / "server.log"
    with open(log_file, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(serve_argv(tmp_path / "memory.db"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=log, env=child_env())
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(_line(id=1, method="initialize", params={
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}))
        proc.stdin.write(_line(method="notifications/initialized"))
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1  # a bounded read: the server answers or exits
        proc.stdout.close()  # the client stops reading ...
        proc.stdin.write(_line(id=2, method="tools/list"))  # ... the server has one more answer to write ...
        proc.stdin.flush()
        time.sleep(ANSWER_S)
        proc.stdin.close()  # ... and the client is gone
        code = proc.wait(timeout=START_TIMEOUT_S)
    finally:
        stop_process(proc)
    text = log_file.read_text(encoding="utf-8")
    assert "Traceback" not in text and "BrokenPipe" not in text and "Exception ignored" not in text, text
    assert code == 0, text  # a client that left is the end of the session, not a failure


def test_only_a_closed_pipe_counts_as_the_client_gone() -> None:
    assert client_gone(BrokenPipeError(32, "Broken pipe"))
    assert client_gone(ExceptionGroup("unhandled errors in a TaskGroup", [BrokenPipeError(32, "Broken pipe")]))
    assert client_gone(BaseExceptionGroup("", [ExceptionGroup("", [ConnectionResetError()]), BrokenPipeError()]))
    assert not client_gone(ExceptionGroup("", [BrokenPipeError(), ValueError("a real failure")]))
    assert not client_gone(OSError(28, "No space left on device"))
    assert not client_gone(KeyboardInterrupt())
