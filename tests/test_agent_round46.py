"""Agents, round 46: an agent's whole task through MCP, from outside (examples/agent_tasks_mcp.py walks it).

The walk's skin findings, each a test that failed on main: what an agent developer reads in the tool
descriptions and the README must say how a failed task's warning comes back and which turns a session end
keeps as semantic memory (a changed preference worded "我现在改用 Cursor" / "I now use bun" is not kept).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from fastmcp import Client

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server
from hindsight.write.events import states_general_rule

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    db = tmp_path_factory.mktemp("agent46") / "memory.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder=BagEmbedder())

    async def listed() -> dict[str, str]:
        async with Client(build_server(engine)) as client:
            return {t.name: t.description or "" for t in await client.list_tools()}

    try:
        yield asyncio.run(listed())
    finally:
        engine.close()


def readme_row(tool: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"^\| `{tool}` \|.*$", readme, re.MULTILINE)
    assert found, tool
    return found.group(0)


def test_task_failed_says_how_the_next_task_finds_the_warning(tools: dict[str, Any]) -> None:
    """The walk's EN trap came back second, under the fix's episode (relevance 0.042 for "Move the billing API onto
    Python 3.12 - anything to watch out for?"); nothing told the agent that a `types: ["warning"]` filter asks for
    the traps alone."""
    for text in (tools["memory_task_failed"], readme_row("memory_task_failed")):
        assert "memory_search" in text and '"warning"' in text


@pytest.mark.parametrize("changed", ["我现在改用 Cursor 写代码了，不再用 VS Code。", "I now use bun instead of pnpm."])
def test_session_end_says_which_turns_it_keeps(tools: dict[str, Any], changed: str) -> None:
    """A changed preference told in a session stayed episodic only (`generalised: []`): the session end keeps user
    turns phrased as a preference or standing rule, which neither the description nor the README said."""
    assert not states_general_rule(changed)  # the walk's turn: not kept as semantic memory
    for text in (tools["memory_session_end"], readme_row("memory_session_end")):
        assert "phrased" in text and "memory_user_correction" in text
