"""Forgetting that sinks: old, unused, unimportant memories rank low and are flagged, never removed.

Real engine over a real SQLite file; `now` is passed to search so ages are exact.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight.config import DecaySettings, HindsightSettings, RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType
from hindsight.retrieval.scoring import SUNK, decay_score, is_sunk

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _engine(tmp_path: Path, embedder: Embedder, sink_below: float = 0.01) -> MemoryEngine:
    settings = HindsightSettings(db=tmp_path / "sink.db", retrieval=RetrievalSettings(sink_below=sink_below))
    return MemoryEngine.open(settings.db, settings=settings, embedder=embedder)


def _record(importance: float, age_days: float, access_count: int = 0,
            memory_type: MemoryType = MemoryType.episodic) -> MemoryRecord:
    when = NOW - timedelta(days=age_days)
    return MemoryRecord(content="x", type=memory_type, importance=importance, access_count=access_count,
                        created_at=when, updated_at=when, event_time=when)


def test_decay_score_is_the_seed_formula() -> None:
    decay = DecaySettings()
    # importance 0.8, one episodic half-life old, never recalled: 0.8 * 0.5 * 0.5
    assert decay_score(_record(0.8, 30), NOW, decay) == pytest.approx(0.2)
    # five recalls lift the access factor to 1.0; semantic memories halve over 90 days
    assert decay_score(_record(0.8, 90, 5, MemoryType.semantic), NOW, decay) == pytest.approx(0.4)


def test_a_memory_sinks_under_the_threshold_and_recall_lifts_it() -> None:
    decay = DecaySettings()
    assert not is_sunk(_record(0.5, 60), NOW, decay, 0.01)  # 0.5 * 0.25 * 0.5 = 0.0625
    assert is_sunk(_record(0.5, 200), NOW, decay, 0.01)  # ~0.0025
    assert not is_sunk(_record(0.5, 200), NOW, decay, 0.0)  # 0 turns sinking off
    assert not is_sunk(_record(0.5, 200, access_count=30), NOW, decay, 0.003)  # recalled memories resist


@pytest.mark.parametrize(
    ("old", "fresh", "query"),
    [
        ("The user went to a jazz concert in the park.", "The user went to a jazz concert downtown.",
         "jazz concert"),
        ("用户去公园听了一场爵士音乐会。", "用户去市中心听了一场爵士音乐会。", "爵士音乐会"),
    ],
    ids=["en", "zh"],
)
def test_sunk_memory_ranks_last_but_is_still_returned(tmp_path: Path, embedder: Embedder,
                                                      old: str, fresh: str, query: str) -> None:
    engine = _engine(tmp_path, embedder)
    try:
        stale = engine.store_memory({"content": old, "type": "episodic", "importance": 0.3,
                                     "event_time": (NOW - timedelta(days=365)).isoformat()})
        recent = engine.store_memory({"content": fresh, "type": "episodic", "importance": 0.3,
                                      "event_time": (NOW - timedelta(days=2)).isoformat(), "session_id": "s2"})
        assert stale.memory_id != recent.memory_id
        hits = engine.search(query, top_k=5, now=NOW)
        by_id = {h.memory.id: h for h in hits}
        assert set(by_id) >= {stale.memory_id, recent.memory_id}, "sinking never hides a memory"
        assert by_id[stale.memory_id].why.sunk and SUNK in by_id[stale.memory_id].flags
        assert not by_id[recent.memory_id].why.sunk and SUNK not in by_id[recent.memory_id].flags
        assert hits[0].memory.id == recent.memory_id
        assert by_id[stale.memory_id].why.status_factor == engine.settings.retrieval.sunk_factor
        assert engine.get(stale.memory_id).status.value == "active"  # a ranking state, not a status change
    finally:
        engine.close()


def test_sinking_can_be_turned_off(tmp_path: Path, embedder: Embedder) -> None:
    engine = _engine(tmp_path, embedder, sink_below=0.0)
    try:
        engine.store_memory({"content": "The user adopted a grey cat named Pixel.", "type": "episodic",
                             "importance": 0.2, "event_time": (NOW - timedelta(days=900)).isoformat()})
        hit = engine.search("cat named Pixel", now=NOW)[0]
        assert not hit.why.sunk and hit.flags == [] and hit.why.status_factor == 1.0
    finally:
        engine.close()
