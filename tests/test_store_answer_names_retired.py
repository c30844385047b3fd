"""memory_store's answer names the memories a write retired (mcpeq43, issue 10's outside view).

Read from outside, `action: superseded` with `related_ids` [retired, linked] did not say which of them the write
deprecated: on blind r37 an agent reading the answer alone scored three distinct pairs as changes whose write had
retired another memory of the namespace, not the pair's own. The answer now carries `supersedes` (the ids it
deprecated); `related_ids` is unchanged. Fake word-bag embedder: the pair readings are the point, not the model."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from fastmcp import Client

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server
from hindsight.write.idempotency import outcome_from_dict

OLD = "The gate code for the north warehouse is 4471."
LINKED = "The gate code for the north warehouse is 4471, Mike said."
NEW = "The gate code for the north warehouse is now 5582."


@pytest.fixture
def hygiene_engine(tmp_path: Path) -> Iterator[MemoryEngine]:
    settings = HindsightSettings(db=tmp_path / "m.db")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    yield engine
    engine.close()


def _calls(engine: MemoryEngine, texts: list[str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    async def run() -> tuple[list[dict[str, Any]], dict[str, str]]:
        async with Client(build_server(engine)) as client:
            answers = [(await client.call_tool("memory_store", {"content": t, "namespace": "n", "type": "semantic"})).data
                       for t in texts]
            statuses = {a["memory_id"]: (await client.call_tool(
                "memory_get", {"memory_id": a["memory_id"], "namespace": "n"})).data["status"] for a in answers}
            return answers, statuses

    return asyncio.run(run())


def test_a_superseding_write_names_the_memory_it_retired_apart_from_the_one_it_linked(
        hygiene_engine: MemoryEngine) -> None:
    answers, status = _calls(hygiene_engine, [OLD, LINKED, NEW])
    old, linked, new = answers
    assert new["action"] == "superseded" and new["related_ids"] == [old["memory_id"], linked["memory_id"]]
    assert new["supersedes"] == [old["memory_id"]]
    assert status[old["memory_id"]] == "deprecated" and status[linked["memory_id"]] == "active"
    assert old["supersedes"] == [] and linked["supersedes"] == []


def test_a_recorded_answer_keeps_supersedes_and_an_older_record_without_it_reads_empty(
        hygiene_engine: MemoryEngine) -> None:
    first = hygiene_engine.store_memory({"content": OLD, "namespace": "n", "type": "semantic"})
    second = hygiene_engine.store_memory({"content": NEW, "namespace": "n", "type": "semantic"},
                                         idempotency_key="k1")
    again = hygiene_engine.store_memory({"content": NEW, "namespace": "n", "type": "semantic"},
                                        idempotency_key="k1")
    assert second.supersedes == again.supersedes == [first.memory_id]
    assert outcome_from_dict({"memory_id": "mem_x", "action": "created"}).supersedes == []
