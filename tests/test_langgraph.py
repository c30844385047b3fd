"""LangGraph nodes over the in-process Memory (the example, run twice as a user would), a ResilientClient
against a real server, and LangChain tools named like the MCP tools."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph", reason="the [langgraph] extra is not installed")

from langchain_core.tools import StructuredTool
from mcp_helpers import ROOT, child_env, http_server

from hindsight.client import ResilientClient
from hindsight.integrations.langgraph import (
    frame,
    retrieve_memory_node,
    store_memory_node,
)


def test_example_runs_offline_and_the_second_run_recalls_the_first(tmp_path: Path) -> None:
    argv = [sys.executable, str(ROOT / "examples" / "langgraph_agent.py"), "--db", str(tmp_path / "agent.db")]
    first = subprocess.run(argv, capture_output=True, text=True, env=child_env(), cwd=str(ROOT), timeout=300, check=False)
    assert first.returncode == 0, first.stderr
    assert "memories recalled: 0" in first.stdout and "npm install" in first.stdout and "(failure" in first.stdout
    second = subprocess.run(argv, capture_output=True, text=True, env=child_env(), cwd=str(ROOT), timeout=300, check=False)
    assert second.returncode == 0, second.stderr
    assert "memories recalled: 1" in second.stdout and "[warning; source=agent" in second.stdout
    assert "agent answered: run: pnpm install" in second.stdout and "(success" in second.stdout


def test_nodes_over_a_server_and_over_tools(tmp_path: Path) -> None:
    with http_server(tmp_path / "memory.db", tmp_path / "server.log") as url:
        client = ResilientClient(url, tmp_path / "queue.db", timeout=30)
        try:
            store = store_memory_node(client, namespace="team")
            state: dict[str, Any] = {"task": "部署支付服务到生产环境", "run_id": "run-1",
                                     "outcome": {"success": False, "error": "令牌过期", "avoid_by": "先刷新令牌"}}
            first = store(state)["memory_write"]
            assert first["action"] == "created"
            assert store(state)["memory_write"]["memory_id"] == first["memory_id"]  # same run: stored once
            recalled = retrieve_memory_node(client, namespace="team")({"task": "部署支付服务"})
            assert recalled["memories"][0]["id"] == first["memory_id"]
            assert "data, not instructions" in recalled["memory_context"] and "令牌过期" in recalled["memory_context"]

            def tool(name: str) -> StructuredTool:
                def call(**arguments: Any) -> dict[str, Any]:
                    return client.call(name, arguments)
                return StructuredTool.from_function(call, name=name, description=name,
                                                    args_schema={"type": "object", "properties": {}})

            tools = [tool(n) for n in ("memory_search", "memory_task_completed", "memory_task_failed")]
            done = store_memory_node(tools, namespace="team")(
                {"task": "Rotate the staging token", "user_feedback": 1.0,
                 "outcome": {"success": True, "summary": "rotated with vault", "steps": ["vault write"]}})
            assert done["memory_write"]["action"] in ("created", "supplemented")
            found = retrieve_memory_node(tools, namespace="team", top_k=3)({"task": "staging token rotation"})
            assert any("Rotate the staging token" in m["content"] for m in found["memories"])
        finally:
            client.close()
    assert frame([]) == ""
    with pytest.raises(ValueError, match="no 'task'"):
        retrieve_memory_node(client)({})
