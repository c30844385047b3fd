"""Calibrated relevance, min_relevance, and time filters that say when they widened."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import FIXED_NOW

from hindsight import InvalidInputError
from hindsight.engine import MemoryEngine
from hindsight.present import hit_view
from hindsight.retrieval.relevance import FEATURES, model_for

DEPLOY = [
    "Deploy failed because the staging token expired; refresh the token before make release.",
    "上周部署失败是因为预发环境的令牌过期了，发布前要先刷新令牌。",
    "The deploy script needs the VPN to reach the artifact registry.",
]
COOKING = [
    "Grandma's dumpling recipe uses pork, chives and a little sesame oil.",
    "我周末学会了做红烧肉，关键是先炒糖色。",
    "The sourdough starter needs feeding twice a day in summer.",
    "We hiked the coastal trail near Big Sur and saw whales.",
]


@pytest.fixture
def old_deploy(engine: MemoryEngine) -> MemoryEngine:
    """Deploy memories from two months ago: nothing happened 'last week'."""
    engine.store_many([{"content": c, "event_time": FIXED_NOW - timedelta(days=60 + i)} for i, c in enumerate(DEPLOY)])
    return engine


@pytest.mark.parametrize("query", ["what went wrong with the deploy last week", "上周部署出了什么问题"])
def test_a_time_filter_that_matches_nothing_says_it_widened(old_deploy: MemoryEngine, query: str) -> None:
    hits = old_deploy.search(query, top_k=3, now=FIXED_NOW)
    assert hits, "the search still answers from the whole store"
    for hit in hits:
        assert hit.why.time_filter and hit.why.time_filter_widened is True and hit.why.in_time_filter is False
        assert hit_view(hit)["why"]["time_filter_widened"] is True


def test_a_time_filter_that_matches_enough_is_not_widened(engine: MemoryEngine) -> None:
    engine.store_many([{"content": c, "event_time": FIXED_NOW - timedelta(days=7)} for c in DEPLOY])
    hits = engine.search("what went wrong with the deploy last week", top_k=3, now=FIXED_NOW)
    assert hits and all(h.why.time_filter_widened is False and h.why.in_time_filter for h in hits)


def test_no_time_expression_no_filter_notes(old_deploy: MemoryEngine) -> None:
    hits = old_deploy.search("deploy token", top_k=3, now=FIXED_NOW)
    assert hits and all(h.why.time_filter is None and h.why.time_filter_widened is None for h in hits)


def test_relevance_is_a_probability_and_min_relevance_filters(old_deploy: MemoryEngine) -> None:
    hits = old_deploy.search("deploy token expired", top_k=3, now=FIXED_NOW)
    assert all(0.0 <= h.relevance <= 1.0 for h in hits)
    cut = sorted(h.relevance for h in hits)[1]
    kept = old_deploy.search("deploy token expired", top_k=3, now=FIXED_NOW, min_relevance=cut)
    assert kept and {h.memory.id for h in kept} == {h.memory.id for h in hits if h.relevance >= cut}
    with pytest.raises(InvalidInputError, match="min_relevance"):
        old_deploy.search("deploy", min_relevance=1.5)


def test_calibration_ships_for_the_default_embedder(engine: MemoryEngine) -> None:
    model = model_for(engine.embedder.name)
    assert model is not None and len(model.coef) == len(FEATURES)


def test_an_unrelated_store_returns_nothing_above_one_half(engine: MemoryEngine) -> None:
    """The only candidates are unrelated: fused scores are high (relative), relevance must not be."""
    engine.store_many([{"content": c} for c in COOKING])
    for query in ("why did the deploy fail", "数据库连接池耗尽怎么处理"):
        hits = engine.search(query, top_k=5, now=FIXED_NOW)
        assert hits and hits[0].score > 0.5  # relative score: looks confident
        assert all(h.relevance < 0.5 for h in hits), [(h.memory.content, h.relevance) for h in hits]
        assert engine.search(query, top_k=5, now=FIXED_NOW, min_relevance=0.5) == []


@pytest.mark.parametrize(("query", "expected"), [("why did the deploy fail, token expired?", DEPLOY[0]),
                                                 ("部署为什么失败", DEPLOY[1]),
                                                 ("what did grandma put in the dumplings", COOKING[0])])
def test_the_matching_memory_is_far_more_relevant_than_the_rest(engine: MemoryEngine, query: str,
                                                                expected: str) -> None:
    engine.store_many([{"content": c} for c in COOKING + DEPLOY])
    hits = sorted(engine.search(query, top_k=5, now=FIXED_NOW), key=lambda h: -h.relevance)
    assert hits[0].memory.content == expected
    assert hits[0].relevance >= 5 * hits[1].relevance, [(h.memory.content, h.relevance) for h in hits]
