"""An agent's whole task through MCP, from outside: working memory, episodes, hindsight, warnings.

Three scripted tasks in English and Chinese, driven over the `mcp` client package against a real
`hindsight serve` (stdio; HTTP with per-user tokens when `--http` is given):
  (a) a coding task that fails, then its fix; a differently worded similar task must meet the trap as a `warning`;
  (b) a user's preferences told over several sessions, one changed later;
  (c) a multi-day project whose facts arrive as episodes.
Then a fresh session asks what a new agent would ask. Prints one JSON report of checks (true = held).

    PYTHONPATH=src .venv/bin/python examples/agent_tasks_mcp.py [--http]
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

SERVER = [sys.executable, "-m", "hindsight.cli"]


async def call(s: ClientSession, tool: str, **args: Any) -> dict[str, Any]:
    result = await s.call_tool(tool, args)
    text = "\n".join(getattr(c, "text", "") for c in result.content)
    if result.is_error:
        return {"error": text}
    data = result.structured_content
    return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else (data or {"text": text})


async def search(s: ClientSession, query: str, ns: str, **kw: Any) -> list[dict[str, Any]]:
    return list((await call(s, "memory_search", query=query, namespace=ns, top_k=5, **kw)).get("results", []))


async def session(s: ClientSession, ns: str, sid: str, turns: list[tuple[str, str]]) -> dict[str, Any]:
    for role, text in turns:
        await call(s, "memory_working_append", session_id=sid, role=role, content=text, namespace=ns)
    held = await call(s, "memory_working_get", session_id=sid, namespace=ns)
    ended = await call(s, "memory_session_end", session_id=sid, namespace=ns)
    after = await call(s, "memory_working_get", session_id=sid, namespace=ns)
    return {"held": len(held.get("turns", [])), "end": ended, "cleared": not after.get("turns")}


TASKS = {
    "en": {
        "fail": {"goal": "Upgrade the payments service to Python 3.12",
                 "what_went_wrong": "pip install broke: psycopg2 2.8 has no wheel for Python 3.12, the build failed",
                 "avoid_by": "pin psycopg2-binary>=2.9.9 before bumping the Python version"},
        "done": {"goal": "Upgrade the payments service to Python 3.12", "steps": ["pinned psycopg2-binary 2.9.9",
                 "bumped the base image"], "outcome": "payments runs on Python 3.12", "success": 1.0,
                 "user_feedback": 0.8},
        "similar": ["Move the billing API onto Python 3.12 - anything to watch out for?",
                    "把账单服务迁移到 Python 3.12，有什么要注意的？"],
        "prefs": [[("user", "I prefer pnpm over npm for JavaScript projects.")],
                  [("user", "Please always answer me in short bullet points.")],
                  [("user", "Actually I now prefer bun over pnpm; please use bun from now on.")]],
        "pref_q": "which package manager does the user prefer?", "pref_new": "bun", "pref_old": "pnpm",
        "days": ["Day 1: kickoff of Project Atlas with the client; the deadline is March 15.",
                 "Day 2: the Atlas team chose PostgreSQL and FastAPI for the backend.",
                 "Day 3: the client moved the Project Atlas deadline to April 2."],
        "deadline_q": "what is Project Atlas's current deadline?", "deadline_new": "April 2", "deadline_old": "March 15",
    },
    "zh": {
        "fail": {"goal": "给订单服务加 Redis 缓存",
                 "what_went_wrong": "缓存键没有带租户 ID，不同租户看到了彼此的订单",
                 "avoid_by": "缓存键必须包含 tenant_id"},
        "done": {"goal": "给订单服务加 Redis 缓存", "steps": ["缓存键加上 tenant_id", "加了租户隔离测试"],
                 "outcome": "订单服务缓存上线，租户隔离", "success": 1.0, "user_feedback": 0.8},
        "similar": ["给商品接口做缓存有什么坑？", "Adding a Redis cache to the orders API - any pitfalls?"],
        "prefs": [[("user", "我喜欢用 VS Code 写代码。")],
                  [("user", "以后回复我请用中文。")],
                  [("user", "我现在改用 Cursor 写代码了，不再用 VS Code。")]],
        "pref_q": "用户喜欢用什么编辑器？", "pref_new": "Cursor", "pref_old": "VS Code",
        "days": ["第一天：和客户启动了天穹项目，截止日期是 3 月 15 日。",
                 "第二天：天穹团队决定后端用 PostgreSQL 和 FastAPI。",
                 "第三天：客户把天穹项目的截止日期推迟到 4 月 2 日。"],
        "deadline_q": "天穹项目现在的截止日期是什么时候？", "deadline_new": "4 月 2 日", "deadline_old": "3 月 15 日",
    },
}


def brief(hit: dict[str, Any]) -> dict[str, Any]:
    return {"type": hit["type"], "status": hit.get("status"), "current": hit.get("current"),
            "relevance": hit.get("relevance"), "content": hit["content"][:120]}


async def walk(s: ClientSession, lang: str, ns: str) -> dict[str, Any]:
    t = TASKS[lang]
    out: dict[str, Any] = {}
    # (a) the coding task: working memory during it, a failure, then the fix
    sid = f"{lang}-code-1"
    for role, text in [("user", t["fail"]["goal"]), ("assistant", "trying pip install"),
                       ("tool", t["fail"]["what_went_wrong"])]:
        await call(s, "memory_working_append", session_id=sid, role=role, content=text, namespace=ns)
    failed = await call(s, "memory_task_failed", task={**t["fail"], "namespace": ns, "session_id": sid})
    done = await call(s, "memory_task_completed", task={**t["done"], "namespace": ns, "session_id": sid})
    out["a_failed"] = {k: failed.get(k) for k in ("action", "type", "error") if failed.get(k)}
    out["a_failed_type"] = (await call(s, "memory_get", memory_id=failed.get("memory_id", "x"), namespace=ns)).get("type")
    out["a_done_type"] = (await call(s, "memory_get", memory_id=done.get("memory_id", "x"), namespace=ns)).get("type")
    out["a_session_end"] = await call(s, "memory_session_end", session_id=sid, namespace=ns)
    out["a_next_task"] = {}
    for q in t["similar"]:  # a new session starts a similar task, worded differently (and in the other language)
        hits = await search(s, q, ns)
        warn = [i + 1 for i, h in enumerate(hits) if h["type"] == "warning"]
        out["a_next_task"][q] = {"warning_rank": warn[0] if warn else None, "top": [brief(h) for h in hits[:3]]}
    # (b) preferences over three sessions, the last one a change
    for i, turns in enumerate(t["prefs"]):
        out[f"b_session_{i}"] = await session(s, ns, f"{lang}-pref-{i}", turns)
    hits = await search(s, t["pref_q"], ns)
    out["b_pref"] = [brief(h) for h in hits[:4]]
    out["b_new_first_current"] = bool(hits) and t["pref_new"] in hits[0]["content"] and hits[0].get("current", True)
    out["b_old_active"] = [brief(h) for h in hits if t["pref_old"] in h["content"] and t["pref_new"] not in h["content"]
                           and h.get("status") == "active"]
    old = await search(s, t["pref_q"], ns, filters={"statuses": ["deprecated"]})
    out["b_old_in_history"] = [brief(h) for h in old]
    # (c) a project told as episodes over three days
    ids = []
    for day, text in enumerate(t["days"]):
        r = await call(s, "memory_store", content=text, type="episodic", namespace=ns, session_id=f"{lang}-atlas-{day}",
                       event_time=f"2026-11-0{day + 1}T10:00:00Z")
        ids.append(r.get("memory_id"))
        out[f"c_day{day}"] = {k: r.get(k) for k in ("action", "supersedes", "error") if r.get(k)}
    hits = await search(s, t["deadline_q"], ns)
    out["c_deadline"] = [brief(h) for h in hits[:3]]
    out["c_new_first"] = bool(hits) and t["deadline_new"] in hits[0]["content"]
    summ = await call(s, "memory_summarize", memory_ids=[i for i in ids if i], style="brief", namespace=ns)
    out["c_summary"] = summ.get("summary", summ)
    # hindsight: consolidate twice; no duplicate semantic memories
    out["consolidate_1"] = await call(s, "memory_consolidate", namespace=ns)
    out["consolidate_2"] = await call(s, "memory_consolidate", namespace=ns)
    listed = (await call(s, "memory_list", namespace=ns, filters={"types": ["semantic"]}, limit=200)).get("memories", [])
    active = [m for m in listed if m["status"] == "active"]
    contents = [m["content"] for m in active]
    out["semantic_active"] = contents
    out["semantic_retired"] = [f'{m["status"]}: {m["content"]}' for m in listed if m["status"] != "active"]
    out["semantic_duplicates"] = sorted({c for c in contents if contents.count(c) > 1})
    # the fresh agent's questions once hindsight has run
    hits = await search(s, t["pref_q"], ns)
    out["b_pref_after_consolidate"] = [brief(h) for h in hits[:4]]
    out["b_old_as_current_semantic"] = [h["content"] for h in hits if h["type"] == "semantic" and h.get("current", True)
                                        and t["pref_old"] in h["content"] and t["pref_new"] not in h["content"]]
    hits = await search(s, t["deadline_q"], ns)
    out["c_deadline_after_consolidate"] = [brief(h) for h in hits[:3]]
    return out


async def leak(s: ClientSession, lang: str, other: str) -> dict[str, Any]:
    t = TASKS[lang]
    hits = [h for q in [t["similar"][0], t["pref_q"], t["deadline_q"]] for h in await search(s, q, other)]
    wm = await call(s, "memory_working_get", session_id=f"{lang}-code-1", namespace=other)
    return {"hits_in_other_namespace": len(hits), "working_in_other": len(wm.get("turns", []))}


async def over_stdio(db: Path) -> dict[str, Any]:
    params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], "serve", "--transport", "stdio", "--db", str(db)],
                                   env={**os.environ})
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        report = {lang: await walk(s, lang, f"alice-{lang}") for lang in TASKS}
        report["leak"] = {lang: await leak(s, lang, "bob") for lang in TASKS}
        return report


async def over_http(url: str, token: str, fn: Any) -> Any:
    async with (httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
                streamable_http_client(url, http_client=http) as streams, ClientSession(streams[0], streams[1]) as s):
        await s.initialize()
        return await fn(s)


def http_report(db: Path) -> dict[str, Any]:
    def token(name: str, ns: str) -> str:
        out = subprocess.run([*SERVER, "token", "create", name, "--scope", "read", "--scope", "write", "--namespace", ns,
                              "--db", str(db)], capture_output=True, text=True, check=True).stdout
        return str(json.loads(out)["token"])
    alice, bob = token("alice-agent", "alice"), token("bob-agent", "bob")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([*SERVER, "serve", "--transport", "http", "--port", str(port), "--db", str(db)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        url = f"http://127.0.0.1:{port}/mcp"
        report = {"en": asyncio.run(over_http(url, alice, lambda s: walk(s, "en", "alice")))}

        async def bob_reads(s: ClientSession) -> dict[str, Any]:
            return {"own": await leak(s, "en", "bob"), "alice": await call(s, "memory_search", query="Python 3.12",
                                                                          namespace="alice")}
        report["bob"] = asyncio.run(over_http(url, bob, bob_reads))
        return report
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        report: dict[str, Any] = {"stdio": asyncio.run(over_stdio(Path(tmp) / "stdio.db"))}
        if "--http" in sys.argv:
            report["http"] = http_report(Path(tmp) / "http.db")
    print(json.dumps(report, ensure_ascii=False, indent=1, default=str))


if __name__ == "__main__":
    main()
