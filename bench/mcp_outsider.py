"""A hindsight MCP server started and called the way the README tells an outsider to (no import of `hindsight`).

`outsider(db, transport)` is an async context manager yielding an `Outsider`: over stdio it runs
`.venv/bin/hindsight serve --transport stdio --db DB` (the Claude Desktop / Cursor snippet); over HTTP it first mints a
token with `hindsight token create ... --scope read --scope write --namespace '*'`, runs `hindsight serve --transport
http --host 127.0.0.1 --port P --db DB` and sends `Authorization: Bearer <token>` (the "Any HTTP client" snippet).
`Outsider.call(tool, args)` returns `(ok, payload)`: ok is False for an MCP tool error (payload: its text), else the
tool's JSON answer as a dict - only what any MCP client sees on the wire.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

HINDSIGHT = str(Path(sys.executable).with_name("hindsight"))  # the checkout's .venv/bin/hindsight


class Outsider:
    """One client session; counts calls and tool errors per tool."""

    def __init__(self, session: ClientSession) -> None:
        self.s = session
        self.calls: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()

    async def call(self, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
        self.calls[tool] += 1
        res = await self.s.call_tool(tool, args)
        text = "".join(getattr(c, "text", "") for c in res.content)
        if res.is_error:
            self.errors[tool] += 1
            return False, text
        try:
            return True, json.loads(text)
        except ValueError:
            return True, res.structured_content or {"text": text}

    def tally(self) -> dict[str, Any]:
        return {"calls": dict(self.calls), "tool_errors": dict(self.errors)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def outsider(db: Path, transport: str = "stdio") -> AsyncIterator[Outsider]:
    log = open(db.with_suffix(".server.log"), "w")
    env = {**os.environ, "HINDSIGHT_LOG_JSON": "0"}
    if transport == "stdio":
        params = StdioServerParameters(command=HINDSIGHT, args=["serve", "--transport", "stdio", "--db", str(db)],
                                       env=env)
        async with stdio_client(params, errlog=log) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            yield Outsider(s)
        return
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    made = subprocess.run([HINDSIGHT, "token", "create", "blind-eval", "--scope", "read", "--scope", "write",
                           "--namespace", "*", "--db", str(db)], capture_output=True, text=True, env=env, check=True)
    token = json.loads(made.stdout)["token"]  # `token create` prints the new token once, as JSON
    port = _free_port()
    srv = subprocess.Popen([HINDSIGHT, "serve", "--transport", "http", "--host", "127.0.0.1", "--port", str(port),
                            "--db", str(db)], stdout=log, stderr=log, env=env)
    try:
        for _ in range(600):  # the model loads before the port opens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=600) as hc, \
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=hc) as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                yield Outsider(s)
    finally:
        srv.terminate()
        srv.wait(30)
