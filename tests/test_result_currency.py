"""The MCP search result names, at its top level, every hit that is an older version of a fact (`not_current`:
`present.result_view`, issue 10 round 30). Examples written for this test, English and Chinese."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bag_embedder import BagEmbedder
from currency_hits import hit
from fastmcp import Client

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.present import result_view
from hindsight.server.mcp_server import build_server
from hindsight.write.hygiene import deprecate

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def test_the_top_level_lists_a_read_time_outdated_hit_and_a_retired_one() -> None:
    new = hit("new", "The studio's door code is 5521 from Monday.", 9)
    old = hit("old", "The studio's door code is 4410.", 0)
    old.current, old.why.outdated_by = False, "new"
    gone = hit("gone", "The studio's door code is 3307.", 0)
    gone.memory.status, gone.memory.metadata = Status.deprecated, {"superseded_by": "old"}
    view = result_view([new, old, gone])
    assert view["count"] == 3 and [r["id"] for r in view["results"]] == ["new", "old", "gone"]
    listed = {x["id"]: x for x in view["not_current"]}
    assert set(listed) == {"old", "gone"}
    assert listed["old"]["superseded_by"] == "new" and "newer hit" in listed["old"]["because"]
    assert listed["gone"]["superseded_by"] == "old" and "replaced on write" in listed["gone"]["because"]
    assert result_view([new])["not_current"] == [] and result_view([])["count"] == 0


def test_a_chinese_result_lists_its_older_version_too() -> None:
    new = hit("new", "合唱团排练改到每周二晚上了，地点还是社区礼堂。", 9)
    old = hit("old", "合唱团每周四晚上在社区礼堂排练。", 0)
    old.current, old.why.outdated_by = False, "new"
    view = result_view([new, old])
    assert view["not_current"] == [{"id": "old", "superseded_by": "new",
                                    "because": "a newer hit in this result states a change of the same fact "
                                               "(superseded_by)"}]
    assert [r["current"] for r in view["results"]] == [True, False]


PAIRS = [  # (old, new, question)
    ("The allotment committee meets in the library annex.", "The allotment committee now meets at the bowls club.",
     "where does the allotment committee meet"),
    ("The choir rehearses on Thursday evenings.", "Choir rehearsals have moved to Tuesday evenings.",
     "when does the choir rehearse"),
]


def test_mcp_search_names_the_older_version_at_the_top_level(tmp_path: Path) -> None:
    """Fails on main: the MCP result had no top-level `not_current`; a client had to read every hit's `current`."""
    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        pairs = []
        for k, (old_text, new_text, query) in enumerate(PAIRS):  # each pair in a namespace of its own
            old = engine.store_memory({"content": old_text, "namespace": f"n{k}"}).memory_id
            new = engine.store_memory({"content": new_text, "namespace": f"n{k}"}).memory_id
            assert deprecate(engine.store, old, new, "changed", "test", NOW)
            pairs.append((old, new, query, f"n{k}"))

        async def run() -> list[dict]:
            async with Client(build_server(engine)) as client:
                return [(await client.call_tool("memory_search", {
                    "query": query, "namespace": ns, "now": NOW.isoformat(), "top_k": 2,
                    "filters": {"statuses": ["active", "deprecated"]}})).data for _, _, query, ns in pairs]

        for (old, new, _, _), found in zip(pairs, asyncio.run(run()), strict=True):
            assert [r["id"] for r in found["results"]] == [new, old]  # the replacement ranks first
            assert found["not_current"] == [{"id": old, "superseded_by": new,
                                             "because": "replaced on write by a newer memory (superseded_by)"}]
    finally:
        engine.close()
