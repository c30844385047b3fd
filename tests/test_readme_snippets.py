"""The connection snippets in README.md, parsed from the file and started exactly as they say.

Only the placeholders change: /path/to/hindsight/.venv/bin/hindsight becomes the `hindsight` command of the
interpreter running the tests, /home/you a temporary home.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastmcp.client.transports import StdioTransport
from mcp_helpers import (
    ROOT,
    child_env,
    free_port,
    mcp_session,
    stop_process,
    wait_for_port,
)

PLACEHOLDER_COMMAND = "/path/to/hindsight/.venv/bin/hindsight"
HINDSIGHT = str(Path(sys.executable).parent / "hindsight")


def snippet(name: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\s*```\w*\n(.*?)```", readme, re.DOTALL)
    assert found, f"README.md has no snippet '{name}'"
    return found.group(1)


def localise(text: str, home: Path) -> str:
    return text.replace(PLACEHOLDER_COMMAND, HINDSIGHT).replace("/home/you", str(home))


def check_stdio(command: str, args: list[str], home: Path) -> None:
    transport = StdioTransport(command=command, args=args, env=child_env(), cwd=str(home),
                               log_file=home / "stdio.log", keep_alive=False)
    with mcp_session(transport) as client:
        assert "memory_store" in client.tool_names()
        assert client.call("memory_store", content="README snippets start the server.")["action"] == "created"
    assert (home / ".hindsight" / "memory.db").exists()  # the --db from the snippet


@pytest.mark.parametrize("name", ["claude-desktop", "cursor"])
def test_json_config_snippets_start_the_server(name: str, tmp_path: Path) -> None:
    assert Path(HINDSIGHT).exists(), "the hindsight command is not installed next to the interpreter"
    server = json.loads(localise(snippet(name), tmp_path))["mcpServers"]["hindsight"]
    check_stdio(server["command"], server["args"], tmp_path)


def test_claude_code_command_starts_the_server(tmp_path: Path) -> None:
    argv = shlex.split(localise(snippet("claude-code"), tmp_path))
    assert argv[:3] == ["claude", "mcp", "add"] and "hindsight" in argv
    command = argv[argv.index("--") + 1:]
    check_stdio(command[0], command[1:], tmp_path)


def test_http_snippets_serve_with_a_bearer_token(tmp_path: Path) -> None:
    create, serve = [shlex.split(line) for line in localise(snippet("http-server"), tmp_path).strip().splitlines()]
    made = subprocess.run(create, capture_output=True, text=True, env=child_env(), timeout=120, check=False)
    assert made.returncode == 0, made.stderr
    token = json.loads(made.stdout)["token"]
    port = free_port()
    serve[serve.index("--port") + 1] = str(port)  # a free port instead of 8765 (the machine is shared)
    log = tmp_path / "http.log"
    with log.open("wb") as handle:
        proc = subprocess.Popen(serve, stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                                env=child_env(), cwd=str(tmp_path))
    try:
        wait_for_port(port, proc, log)
        client_config = json.loads(snippet("http-client"))
        url = client_config["url"].replace("8765", str(port))
        header = client_config["headers"]["Authorization"]
        assert header.startswith("Bearer ")
        with mcp_session(url, auth=token) as client:
            assert client.call("memory_store", content="Reached over HTTP with a bearer token.")["action"] == "created"
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
        accept = {"Accept": "application/json, text/event-stream"}
        assert httpx.post(url, json=initialize, headers=accept, timeout=60).status_code == 401  # no header
        authorised = httpx.post(url, json=initialize, headers={**accept, "Authorization": header.replace(
            "<the token printed by token create>", token)}, timeout=60)
        assert authorised.status_code == 200
    finally:
        stop_process(proc)
