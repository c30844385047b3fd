"""A new user's first hour, from outside (ux round 33): the README's connection snippets started as written, a real
`mcp` client over stdio and over HTTP, store / search / update / forget / summarize in English and Chinese, tokens
with lower scopes, and what an agent would read off a search (the expected memory's rank, `score`, `relevance`).

    .venv/bin/python bench/ux_first_hour.py > bench/results/ux33_first_hour.json

Everything runs in a temporary HOME with the `hindsight` command next to this interpreter; nothing is mocked.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
HINDSIGHT = str(Path(sys.executable).parent / "hindsight")
MEMORIES = [
    {"content": "The user prefers pnpm over npm for every JavaScript project", "type": "semantic", "source": "user"},
    {"content": "生产环境的数据库每天凌晨三点自动备份，保留十四天", "type": "semantic"},
    {"content": "Redis 连接超时时，把 timeout 从 2 秒调到 5 秒就好了"},
    {"content": "用户的笔记本是 ThinkPad X1，系统是 Arch Linux", "type": "semantic", "source": "user"},
]
#: (query, the memory an agent wants: an index into MEMORIES)
PROBES = [("which package manager should I use?", 0), ("how long are database backups kept?", 1),
          ("数据库多久备份一次", 1), ("Redis 超时", 2), ("用户用什么操作系统", 3), ("what OS does the user run?", 3)]


def snippet(name: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\s*```\w*\n(.*?)```", readme, re.DOTALL)
    assert found, name
    return found.group(1)


def localise(text: str, home: Path) -> str:
    return text.replace("/path/to/hindsight/.venv/bin/hindsight", HINDSIGHT).replace("/home/you", str(home))


async def call(session: ClientSession, tool: str, **args: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, args)
    text = "\n".join(getattr(c, "text", "") for c in result.content)
    if result.is_error:
        return {"error": text}
    data = result.structured_content
    return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else (data or {"text": text})


async def walk(session: ClientSession) -> dict[str, Any]:
    """The first-hour steps on one connection; each step's answer kept short."""
    steps: dict[str, Any] = {}
    ids = []
    for i, memory in enumerate(MEMORIES):
        out = await call(session, "memory_store", **memory)
        steps[f"store_{i}"] = {k: out.get(k) for k in ("action", "status", "error") if out.get(k)}
        ids.append(out.get("memory_id"))
    probes = []
    for query, want in PROBES:
        hits = (await call(session, "memory_search", query=query, top_k=4)).get("results", [])
        order = [h["id"] for h in hits]
        rank = order.index(ids[want]) + 1 if ids[want] in order else None
        probes.append({"query": query, "wanted": MEMORIES[want]["content"], "rank": rank,
                       "wanted_score": round(hits[rank - 1]["score"], 3) if rank else None,
                       "wanted_relevance": hits[rank - 1]["relevance"] if rank else None,
                       "top": hits[0]["content"] if hits else None, "top_score": round(hits[0]["score"], 3) if hits else None,
                       "top_relevance": hits[0]["relevance"] if hits else None,
                       "kept_at_min_relevance_0.5": len((await call(session, "memory_search", query=query,
                                                                    min_relevance=0.5)).get("results", []))})
    steps["probes"] = probes
    updated = await call(session, "memory_update", memory_id=ids[0], updates={"tags": ["js"]})
    steps["update_tags"] = updated.get("memory", {}).get("tags", updated)
    steps["forget"] = (await call(session, "memory_forget", memory_id=ids[2], reason="fixed upstream")).get("status")
    summary = await call(session, "memory_summarize", memory_ids=[i for i in ids if i], style="brief")
    steps["summarize"] = {k: summary.get(k) for k in ("method", "error") if summary.get(k)} | {
        "chars": len(summary.get("summary", ""))}
    steps["private_without_key"] = (await call(session, "memory_store", content="x", private=True)).get("error", "stored")
    return steps


async def over_stdio(home: Path, fn: Any = None) -> dict[str, Any]:
    """The README's Claude Desktop snippet started as written; `fn(session)` walks it (default: this round's walk)."""
    config = json.loads(localise(snippet("claude-desktop"), home))["mcpServers"]["hindsight"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}  # a desktop app's bare environment
    if os.environ.get("PYTHONPATH"):  # a worktree run: the server imports this checkout's code
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in os.environ["PYTHONPATH"].split(os.pathsep))
    params = StdioServerParameters(command=config["command"], args=config["args"], env=env)
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        tools = await session.list_tools()
        return {"initialize_s": round(ready, 1), "tools": len(tools.tools), **await (fn or walk)(session)}


async def over_http(url: str, token: str | None, fn: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (httpx2.AsyncClient(headers=headers, timeout=120) as http,
                streamable_http_client(url, http_client=http) as streams,
                ClientSession(streams[0], streams[1]) as session):
        await session.initialize()
        return await fn(session)


async def scopes(session: ClientSession) -> dict[str, Any]:
    return {"store_as_user": await call(session, "memory_store", content="The user's timezone is UTC+8", source="user"),
            "delete": await call(session, "memory_delete", memory_id="mem_none", confirm=True),
            "stats_no_namespace": await call(session, "memory_stats")}


async def as_reader(session: ClientSession) -> dict[str, Any]:
    return {"search": len((await call(session, "memory_search", query="pnpm")).get("results", [])),
            "store": await call(session, "memory_store", content="a reader writes")}


def server_env(home: Path) -> dict[str, str]:
    """This process's environment with HOME moved and PYTHONPATH made absolute (a worktree run)."""
    env = {**os.environ, "HOME": str(home)}
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep))
    return env


@contextmanager
def http_server(db: Path, env: dict[str, str]) -> Iterator[str]:
    """`hindsight serve --transport http` on a free port over `db`; yields the MCP URL once it listens."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([HINDSIGHT, "serve", "--transport", "http", "--port", str(port), "--db", str(db)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = time.perf_counter()
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.perf_counter() - started > 300:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)


def readme_token(home: Path, db: Path, env: dict[str, str]) -> str:
    """The token the README's `http-server` snippet creates, run as written against `db`."""
    line = next(line for line in snippet("http-server").splitlines() if " token create " in line)
    argv = shlex.split(localise(line, home).replace(str(home / ".hindsight/memory.db"), str(db)))
    return str(json.loads(subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout)["token"])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        report: dict[str, Any] = {"stdio": asyncio.run(over_stdio(home))}
        db = home / "http.db"
        env = server_env(home)
        with http_server(db, env) as url:
            report["http_open"] = asyncio.run(over_http(url, None, walk))
            made = {"agent": readme_token(home, db, env)}
            made["reader"] = json.loads(subprocess.run(
                [HINDSIGHT, "token", "create", "reader", "-s", "read", "-n", "default", "--db", str(db)], env=env,
                capture_output=True, text=True, check=True).stdout)["token"]
            report["http_agent_token_from_readme"] = asyncio.run(over_http(url, made["agent"], scopes))
            report["http_reader_token"] = asyncio.run(over_http(url, made["reader"], as_reader))
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
