"""A new user's MCP walk (tidy35 item 2): the real `mcp` client over stdio and streamable HTTP.

Usage: PYTHONPATH=src .venv/bin/python bench/ux35_mcp_walk.py CHECKOUT stdio|http|http-token DB [PORT]
(CHECKOUT: the tree whose src/ the server runs; http-token creates a read/write/admin token on default and kb first).
Prints every call and its answer; a reviewed namespace `kb` is set for the server.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(sys.argv[1])
MODE = sys.argv[2]
DB = Path(sys.argv[3])
ENV = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
ENV.update(PYTHONPATH=str(ROOT / "src"), OMP_WAIT_POLICY="PASSIVE", PYTHONUNBUFFERED="1",
           HINDSIGHT_REVIEWED_NAMESPACES="kb")
HS = [sys.executable, "-m", "hindsight.cli"]


def out(label: str, value: object) -> None:
    print(f"--- {label}: {json.dumps(value, ensure_ascii=False, default=str)[:1500]}", flush=True)


async def call(s: ClientSession, name: str, **args: object) -> object:
    r = await s.call_tool(name, args)
    text = "".join(getattr(c, "text", "") for c in r.content)
    try:
        val = json.loads(text)
    except ValueError:
        val = text
    out(f"{name}{' ERROR' if r.is_error else ''} {json.dumps(args, ensure_ascii=False)[:200]}", val)
    return val


async def walk(s: ClientSession) -> None:
    with anyio.fail_after(400):
        await s.initialize()
        tools = await s.list_tools()
        out("tools", [t.name for t in tools.tools])
        a = await call(s, "memory_store", content="The user prefers pnpm over npm for JavaScript projects",
                       type="semantic", tags=["tooling"])
        b = await call(s, "memory_store", content="部署前必须先在 staging 环境跑一遍集成测试", type="semantic")
        await call(s, "memory_store", content="The user prefers pnpm over npm for JavaScript projects")
        await call(s, "memory_search", query="which package manager does the user like?")
        await call(s, "memory_search", query="部署之前要做什么")
        await call(s, "memory_search", query="deploy checklist", top_k=3)
        mid = a.get("memory_id") if isinstance(a, dict) else None
        bid = b.get("memory_id") if isinstance(b, dict) else None
        if mid:
            await call(s, "memory_get", memory_id=mid[:12])
            await call(s, "memory_update", memory_id=mid, updates={"content": "The user prefers bun over pnpm now"})
            await call(s, "memory_history", memory_id=mid)
            await call(s, "memory_summarize", memory_ids=[mid, bid] if bid else [mid])
            await call(s, "memory_forget", memory_id=mid, reason="wrong")
            await call(s, "memory_get", memory_id=mid)
        await call(s, "memory_get", memory_id="mem_doesnotexist")
        await call(s, "memory_search", query="")
        await call(s, "memory_search", query="x", top_k=0)
        await call(s, "memory_store", content="")
        p = await call(s, "memory_store", content="Release notes live in the wiki under /releases", namespace="kb")
        await call(s, "memory_review_list", namespace="kb")
        pid = p.get("proposal_id") if isinstance(p, dict) else None
        if pid:
            await call(s, "memory_review_decide", proposal_id=pid, decision="approve")
            await call(s, "memory_review_decide", proposal_id=pid[:12], decision="approve")
        await call(s, "memory_quarantine_list")
        await call(s, "memory_stats")


async def stdio() -> None:
    params = StdioServerParameters(command=HS[0], args=[*HS[1:], "serve", "--transport", "stdio", "--db", str(DB)],
                                   env=ENV)
    with open(DB.with_suffix(".stdio.log"), "w") as log:
        async with stdio_client(params, errlog=log) as (r, w), ClientSession(r, w) as s:
            await walk(s)


async def http(port: int, token: str | None) -> None:
    import httpx
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(headers=headers, timeout=120) as hc, \
            streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=hc) as streams:
        r, w = streams[0], streams[1]
        async with ClientSession(r, w) as s:
            await walk(s)


if MODE == "stdio":
    anyio.run(stdio)
else:
    port = int(sys.argv[4])
    tok = None
    if MODE == "http-token":
        made = subprocess.run([*HS, "token", "create", "agent", "-s", "read", "-s", "write", "-s", "admin", "-n", "default", "-n", "kb",
                               "--db", str(DB)], env=ENV, capture_output=True, text=True, check=True)
        tok = json.loads(made.stdout)["token"]
    log = open(DB.with_suffix(".http.log"), "w")
    srv = subprocess.Popen([*HS, "serve", "--transport", "http", "--port", str(port), "--db", str(DB)], env=ENV,
                           stdout=log, stderr=log)
    try:
        import socket
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                time.sleep(1)
        anyio.run(http, port, tok)
    finally:
        srv.terminate()
        srv.wait(30)
