"""The second step re-orders relevance; what the first pass weighs after it (decay, sinking, priors) still holds.

recall4's pairwise model was used as the score itself: its probabilities are spread so far apart that the final
stage's factors (sunk x0.8, the prior blend) no longer moved anything, and a sunk, year-old memory ranked above a
two-day-old one. Real engine, real embedder, real SQLite file; the shipped model.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings, RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.scoring import SUNK
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import Scope

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TOPICS = [
    "my sourdough starter finally rose", "the new office chairs arrived", "our cat learned to open doors",
    "I started running before work", "the garden tomatoes are ripe", "we repainted the hallway blue",
    "my sister is moving to Denver", "the car needs new brakes", "I am reading a book about whales",
    "we adopted a puppy named Biscuit", "the printer jammed again", "I signed up for a pottery class",
]
STALE = "Caroline: I went to a jazz concert in the park."
FRESH = "Caroline: I went to a jazz concert downtown."


def _filler() -> list[dict[str, object]]:
    """Three dozen chat turns in six sessions of the last two months: a full first-pass pool, nothing on jazz."""
    out: list[dict[str, object]] = []
    for i in range(36):
        speaker = "Caroline" if i % 2 == 0 else "Melanie"
        out.append({"content": f"{speaker}: {TOPICS[i % len(TOPICS)]} ({i // len(TOPICS) + 1})",
                    "event_time": (NOW - timedelta(days=5 + 10 * (i // 6))).isoformat(), "session_id": f"s{i // 6}",
                    "importance": 0.5})
    return out


@pytest.fixture
def store(tmp_path: Path, embedder: Embedder) -> MemoryEngine:
    settings = HindsightSettings(db=tmp_path / "priors.db", retrieval=RetrievalSettings(record_access=False))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    engine.store_many(_filler())
    return engine


def _ids(engine: MemoryEngine) -> tuple[str, str]:
    stale = engine.store_memory({"content": STALE, "type": "episodic", "importance": 0.3,
                                 "event_time": (NOW - timedelta(days=365)).isoformat()})
    fresh = engine.store_memory({"content": FRESH, "type": "episodic", "importance": 0.3,
                                 "event_time": (NOW - timedelta(days=2)).isoformat(), "session_id": "s-recent"})
    return stale.memory_id, fresh.memory_id


@pytest.mark.parametrize("query", ["Where did Caroline go to a jazz concert?", "jazz concert"])
def test_a_sunk_memory_stays_below_a_fresh_twin_when_the_step_runs(store: MemoryEngine, query: str) -> None:
    try:
        stale, fresh = _ids(store)
        hits = store.search(query, top_k=10, now=NOW)
        by_id = {h.memory.id: h for h in hits}
        assert by_id[fresh].why.second_pass is not None, "a full conversation pool: the step ran"
        assert by_id[stale].why.sunk and SUNK in by_id[stale].flags
        order = [h.memory.id for h in hits]
        assert order.index(fresh) < order.index(stale), "sinking still costs the sunk memory its place"
    finally:
        store.close()


def test_the_step_keeps_the_first_pass_scale(store: MemoryEngine) -> None:
    """Whatever the model's probabilities, the scores the search ranks by are the first pass's fused values,
    re-assigned in the model's order (so the final stage's factors weigh as much as without the step)."""
    try:
        _ids(store)
        scope = Scope.from_filters("default", None, (Status.active,))
        first, _, _ = store.retriever.first_pass("jazz concert", scope, 10, NOW, SearchOptions())
        model = second_pass.model_for(store.embedder.name)
        assert model is not None
        r = store.settings.retrieval
        step = second_pass.rerank(first, store.store, model, r.second_pass_pool, r.second_pass_expand_top,
                                  r.second_pass_window, rrf_k=r.rrf_k)
        best = sorted(step.scores.values(), reverse=True)[: len(first.fused)]
        assert best == pytest.approx(sorted(first.fused.values(), reverse=True))
        order = sorted(step.scores, key=lambda mid: -step.scores[mid])
        pooled = [mid for mid in order if mid in step.learned]
        assert [step.learned[mid] for mid in pooled] == sorted(step.learned.values(), reverse=True), \
            "the model decides the order of its pool"
        assert max(step.scores.values()) == pytest.approx(max(first.fused.values()))
    finally:
        store.close()


def test_a_handful_of_memories_keeps_the_first_pass(tmp_path: Path, embedder: Embedder) -> None:
    """Under `second_pass_min_candidates` first-pass candidates the model (fitted on full pools) does not run."""
    settings = HindsightSettings(db=tmp_path / "small.db", retrieval=RetrievalSettings(record_access=False))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    try:
        engine.store_many(_filler()[:6])
        stale, fresh = _ids(engine)
        hits = engine.search("jazz concert", top_k=10, now=NOW)
        off = engine.search("jazz concert", top_k=10, now=NOW, options=SearchOptions(second_pass=False))
        assert all(h.why.second_pass is None for h in hits)
        assert [h.memory.id for h in hits] == [h.memory.id for h in off]
        assert hits[0].memory.id == fresh
    finally:
        engine.close()
