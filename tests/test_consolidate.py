"""Consolidation: recurring episodes promote to semantic memories (idempotently); near-duplicates merge."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hindsight.consolidate import Consolidator
from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryInput, MemoryType, Status
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.hygiene import HygieneChecker
from hindsight.write.pipeline import WriteOutcome, WritePipeline

EPISODES = {
    "en": (
        [
            "Deploying to staging failed because the VPN was not connected.",
            "The staging deploy broke again: the VPN was disconnected, reconnecting fixed it.",
            "Staging deployment needs the VPN; without it the deploy fails.",
        ],
        "The user had a sandwich for lunch.",
        "Deploying to staging failed once more since the VPN had dropped.",
    ),
    "zh": (
        [
            "CI 上 npm install 超时，换成国内镜像后成功。",
            "CI 里 npm install 又超时了，切到国内镜像源就好了。",
        ],
        "用户今天问了天气。",
        "npm install 在 CI 中再次超时，改用国内镜像后恢复。",
    ),
}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "consolidate.db")
    yield s
    s.close()


def write_plain(store: SQLiteStore, embedder: Embedder, clock: Clock, texts: list[str],
                memory_type: MemoryType) -> list[str]:
    """Store without hygiene, as memories written before hygiene existed (or by another agent) would be."""
    pipeline = WritePipeline(store=store, embedder=embedder, clock=clock)
    return [o.memory_id for o in pipeline.write_many([MemoryInput(content=t, type=memory_type) for t in texts], "t")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_recurring_episodes_promote_once(store: SQLiteStore, embedder: Embedder, lang: str) -> None:
    clock = Clock()
    recurring, unrelated, later = EPISODES[lang]
    ids = write_plain(store, embedder, clock, recurring + [unrelated], MemoryType.episodic)
    seen: list[tuple[int, int]] = []
    consolidator = Consolidator(store, embedder, clock=clock)

    report = consolidator.run("default", progress=lambda done, total: seen.append((done, total)))

    assert report.clusters_found == 1 and sorted(report.clusters[0]) == sorted(ids[: len(recurring)])
    assert len(report.promoted_ids) == 1
    promoted = store.get(report.promoted_ids[0])
    assert promoted is not None and promoted.type == MemoryType.semantic and promoted.status == Status.active
    assert promoted.content in recurring  # extractive: the most central episode
    assert promoted.metadata["consolidated_from"] == report.clusters[0]
    derived = {(e.src, e.dst) for e in store.edges([promoted.id], ["derived_from"])}
    assert derived == {(promoted.id, i) for i in ids[: len(recurring)]}
    for source_id in ids:  # sources stay episodic and active
        source = store.get(source_id)
        assert source is not None and source.type == MemoryType.episodic and source.status == Status.active
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] >= 1

    again = consolidator.run("default")
    assert again.promoted_ids == [] and again.already_promoted == 1
    semantic = [r for r in store.iter_all("default") if r.type == MemoryType.semantic]
    assert [r.id for r in semantic] == [promoted.id]

    # a new episode of the same experience is linked to the existing semantic memory, not promoted anew
    new_id = write_plain(store, embedder, clock, [later], MemoryType.episodic)[0]
    third = consolidator.run("default")
    assert third.promoted_ids == [] and third.extended == {promoted.id: [new_id]}
    assert (promoted.id, new_id) in {(e.src, e.dst) for e in store.edges([new_id], ["derived_from"])}


@pytest.mark.parametrize(
    "texts",
    [
        ["The team deploys to production on Tuesdays.", "Production deployments happen every Tuesday."],
        ["用户住在上海。", "用户目前居住在上海。"],
    ],
    ids=["en", "zh"],
)
def test_near_duplicate_semantic_memories_merge(store: SQLiteStore, embedder: Embedder, texts: list[str]) -> None:
    clock = Clock()
    ids = write_plain(store, embedder, clock, texts, MemoryType.semantic)
    report = Consolidator(store, embedder, clock=clock).run("default")

    assert report.merge_groups == [sorted(ids, key=ids.index)] or sorted(report.merge_groups[0]) == sorted(ids)
    assert len(report.merged_ids) == 1 and sorted(report.deprecated_ids) == sorted(ids)
    merged = store.get(report.merged_ids[0])
    assert merged is not None and merged.status == Status.active and merged.type == MemoryType.semantic
    assert merged.content in texts and sorted(merged.metadata["merged_from"]) == sorted(ids)
    for old_id in ids:
        old = store.get(old_id)
        assert old is not None and old.status == Status.deprecated
        assert old.metadata["superseded_by"] == merged.id
        assert [e.action for e in store.history(old_id)][-1] == "deprecate"
    assert Consolidator(store, embedder, clock=clock).run("default").merged_ids == []


def test_new_memories_go_through_the_given_writer_and_llm(store: SQLiteStore, embedder: Embedder) -> None:
    clock = Clock()
    recurring = EPISODES["en"][0]
    write_plain(store, embedder, clock, recurring, MemoryType.episodic)
    pipeline = WritePipeline(store=store, embedder=embedder, clock=clock,
                             hygiene=HygieneChecker(store, embedder, clock=clock))
    calls: list[list[dict[str, Any]]] = []

    def writer(items: list[dict[str, Any]]) -> list[WriteOutcome]:
        calls.append(items)
        return pipeline.write_many([MemoryInput.model_validate(i) for i in items], "guarded")

    class LLM:
        def complete(self, system: str, user: str, max_tokens: int = 400) -> str | None:
            return "Connect the VPN before deploying to staging."

    report = Consolidator(store, embedder, llm=LLM(), clock=clock, write=writer).run("default")  # type: ignore[arg-type]
    assert len(calls) == 1 and calls[0][0]["type"] == "semantic"
    assert report.method == "llm" and len(report.promoted_ids) == 1
    promoted = store.get(report.promoted_ids[0])
    assert promoted is not None and promoted.content == "Connect the VPN before deploying to staging."
    assert promoted.created_by == "guarded"


def test_episodes_with_conflicting_values_do_not_cluster(store: SQLiteStore, embedder: Embedder) -> None:
    clock = Clock()
    write_plain(store, embedder, clock, ["The service listens on port 8080.", "The service listens on port 9090."],
                MemoryType.episodic)
    report = Consolidator(store, embedder, clock=clock).run("default")
    assert report.clusters_found == 0 and report.promoted_ids == []


def test_consolidate_via_engine_cli_and_mcp(tmp_path, embedder) -> None:
    """The skins reach the same engine method: CLI prints the report, MCP returns it."""
    import asyncio
    import json as _json

    from fastmcp import Client
    from typer.testing import CliRunner

    from hindsight.cli import app
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine
    from hindsight.server.mcp_server import build_server

    db = tmp_path / "c.db"
    # hygiene off: the three are restatements of one lesson, and whether write-time hygiene merges one of them (a
    # fresh-clone suite run did, a lone run did not) is not what this test is about: the skins reaching consolidation
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder)
    for text in ["Staging deploy failed until the VPN was connected.",
                 "Deploy to staging only worked after connecting the VPN.",
                 "Without the VPN the staging deployment fails."]:
        engine.store_memory({"content": text, "type": "episodic"})

    async def run() -> dict:
        async with Client(build_server(engine)) as client:
            return (await client.call_tool("memory_consolidate", {})).data

    report = asyncio.run(run())
    engine.close()
    assert report["promoted_ids"] or report["already_promoted"], report
    result = CliRunner().invoke(app, ["consolidate", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert _json.loads(result.stdout)["already_promoted"] >= 1
