"""The MCP tool list as an agent's model reads it (ux round 33): names, descriptions and parameter schemas must say
what a call needs and what its answer means, or the agent calls a tool its token cannot use, thresholds the wrong
number, or drops tags it meant to keep."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from fastmcp import Client

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("tools") / "memory.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder=BagEmbedder())

    async def listed() -> dict[str, Any]:
        async with Client(build_server(engine)) as client:
            return {t.name: {"description": t.description or "", "schema": t.input_schema}
                    for t in await client.list_tools()}

    try:
        yield asyncio.run(listed())
    finally:
        engine.close()


def test_delete_says_it_needs_admin(tools: dict[str, Any]) -> None:
    """A `write` token's agent read "Erase a memory for good" and called it: permission_denied, needs admin."""
    text = tools["memory_delete"]["description"]
    assert "admin" in text and "memory_forget" in text


def test_stats_says_what_leaving_the_namespace_out_needs(tools: dict[str, Any]) -> None:
    """memory_stats() with no arguments (what a model calls first) needs admin over '*', unlike every other tool,
    whose namespace defaults to 'default'; the parameter did not say so."""
    namespace = tools["memory_stats"]["schema"]["properties"]["namespace"]
    assert "admin" in namespace.get("description", "") and "'*'" in namespace["description"]


def test_search_says_score_orders_and_relevance_judges(tools: dict[str, Any]) -> None:
    """On a three-memory store an unrelated memory came back first with score 0.92 and relevance 0.08: an agent
    that thresholds `score` keeps it. The description must say which number to judge a hit by."""
    text = tools["memory_search"]["description"]
    assert "`score`" in text and "not comparable" in text
    assert "`relevance`" in text and "why.relevance" in text


def test_update_says_fields_replace_whole(tools: dict[str, Any]) -> None:
    """updates={'tags': ['js']} replaced ['preference'] (and metadata is replaced too): say so."""
    updates = tools["memory_update"]["schema"]["properties"]["updates"]
    assert "replaces" in updates["description"] and "full list" in updates["description"]


def test_no_schema_speaks_the_projects_internal_words(tools: dict[str, Any]) -> None:
    """The memory-type enum's docstring ("The tiers of the seed design") reached every schema that takes a type."""
    for name, tool in tools.items():
        assert "seed design" not in json.dumps(tool), name


def test_readme_names_relevance_in_the_search_row() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `memory_search`"))
    assert "`relevance`" in row


def test_every_search_filter_says_what_it_keeps(tools: dict[str, Any]) -> None:
    """time_from / time_to said nothing (inclusive? of event_time or of the time stored?), nor min_importance,
    session_id, source_task_id, types or sources."""
    filters = next(option for option in tools["memory_search"]["schema"]["properties"]["filters"]["anyOf"]
                   if option.get("type") == "object")
    undescribed = [name for name, field in filters["properties"].items() if not field.get("description")]
    assert undescribed == []
    assert "event_time" in filters["properties"]["time_from"]["description"]


def test_min_relevance_does_not_promise_an_empty_result_means_nothing_stored(tools: dict[str, Any]) -> None:
    """bench/ux_first_hour.py (round 33): on a four-memory store, min_relevance=0.5 returned nothing for 5 of 6
    queries whose memory was stored (3 of them ranked it first: relevance 0.08 - 0.38); the description told the
    agent that an empty result means nothing relevant is stored."""
    text = tools["memory_search"]["schema"]["properties"]["min_relevance"]["description"]
    assert "means nothing relevant is stored" not in text and "not proof" in text


def test_min_relevance_says_what_its_default_and_one_half_mean(tools: dict[str, Any]) -> None:
    """Issue 14 (round 43): the description names the default (every hit returned) and what 0.5 does on each
    side - a store asked about something else, and a store that holds the answer."""
    text = tools["memory_search"]["schema"]["properties"]["min_relevance"]["description"]
    assert "every hit is returned" in text
    assert "another conversation's questions" in text and "own questions" in text
    assert "one the query asks for" in text  # what `relevance` is a probability of


def test_store_says_how_to_read_its_answer(tools: dict[str, Any]) -> None:
    """mcpeq43 (blind sets read through MCP): `action: superseded` with `related_ids` [retired, linked] did not say
    which memory was retired, so an agent reading the answer alone counted a change where the write had retired
    another memory (r37: 3 distinct pairs). The description must name `supersedes`, what a duplicate's memory_id
    is, and that a quarantine is an answer, not a tool error; the README row too."""
    text = tools["memory_store"]["description"]
    assert "`supersedes`" in text and "deprecated" in text and "`related_ids`" in text
    assert "folded into the existing memory" in text and "not a tool error" in text
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `memory_store`"))
    assert "`supersedes`" in row
