"""Issue 10, round 17 (r17/81): a parsed time filter widens when it matches fewer *memories* than asked for.

The first pass widens a hard time filter that "matched too little" to the full scope. It used to count channel
entries (`sum(len(hits))`): three memories found by both the dense and the keyword channel made six entries, so a
top-5 search stayed inside the window with three hits, while the same question at top 10 widened and found the
answer stored outside it. The count is now of distinct memories. A deterministic bag-of-characters embedder (the
widening logic is what is tested, not the model); a real engine on a real SQLite file with hygiene off.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.retrieval.search import SearchOptions

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
IN_WINDOW = [
    "The deploy on Tuesday went out late because the runner was busy.",
    "Deploy of the billing service on Wednesday needed a second try.",
]
OUTSIDE = [
    "The deploy checklist says: refresh the staging token before make release.",
    "Deploy keys for the mirror are rotated every quarter.",
    "Deploy freeze starts the week before the holidays.",
]
QUERY = "what went wrong with the deploy last week"


@pytest.fixture
def deploys(tmp_path) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:  # type: ignore[no-untyped-def]
    db = tmp_path / "w.db"
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder())
    engine.writer.hygiene = None
    ids = {}
    for i, text in enumerate(IN_WINDOW):
        ids[text] = engine.store_memory({"content": text, "event_time": NOW - timedelta(days=7 + i)}).memory_id
    for i, text in enumerate(OUTSIDE):
        ids[text] = engine.store_memory({"content": text, "event_time": NOW - timedelta(days=90 + i)}).memory_id
    yield engine, ids
    engine.close()


def test_two_memories_in_two_channels_are_too_few_for_top_3(deploys: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = deploys
    scope = engine._scope("default", None)
    first, narrowed, widened = engine.retriever.first_pass(QUERY, scope, 3, NOW, SearchOptions())
    assert narrowed != scope, "the question parses a hard time window"
    assert widened, "two memories (four channel entries) are fewer than the three asked for"
    hits = engine.search(QUERY, top_k=3, now=NOW)
    assert len(hits) == 3
    assert all(h.why.time_filter_widened is True for h in hits)
    assert {ids[t] for t in IN_WINDOW} <= {h.memory.id for h in hits}


def test_a_window_with_enough_memories_stays_narrow(deploys: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = deploys
    # "enough" is the internal depth since round 20, not top_k (the head of a result must not depend on top_k,
    # tests/test_retrieval_round20.py): a depth of 2 makes this window of two enough
    engine.settings.retrieval.result_depth = 2
    hits = engine.search(QUERY, top_k=2, now=NOW)
    assert {h.memory.id for h in hits} == {ids[t] for t in IN_WINDOW}
    assert all(h.why.time_filter_widened is False for h in hits)

