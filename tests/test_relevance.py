"""Calibrated relevance, min_relevance, and time filters that say when they widened."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import FIXED_NOW

from hindsight import InvalidInputError
from hindsight.engine import MemoryEngine
from hindsight.present import hit_view
from hindsight.retrieval.relevance import ALL_FEATURES, model_for

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
    engine.settings.retrieval.result_depth = 3  # "enough" is the internal depth since round 20, not top_k
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
    assert model is not None and len(model.coef) == len(model.names) and set(model.names) <= set(ALL_FEATURES)


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


TURNS = [
    "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
    "Melanie: That's great! I took the kids to the museum last weekend.",
    "Caroline: I'm thinking about a career in counseling now.",
    "Melanie: I painted a lake at sunrise last year, it's my favourite.",
    "Caroline: My friends gave me a hand-made bowl for my birthday.",
    "Melanie: We went camping in the mountains with the family.",
    "Caroline: I've been reading a lot about adoption agencies.",
    "Melanie: Pottery class is my way to relax after work.",
    "Caroline: The parade last month was amazing, so many people.",
    "Melanie: My son loves dinosaurs, we visited the natural history museum.",
]


@pytest.mark.parametrize(("query", "answer"), [("Where did Melanie take the kids last weekend?", TURNS[1]),
                                               ("What is Caroline thinking about as a career?", TURNS[2]),
                                               ("What did Caroline's friends give her for her birthday?", TURNS[4]),
                                               ("How does Melanie relax after work?", TURNS[7])])
def test_a_turn_that_answers_a_question_about_its_speaker_is_likely_relevant(engine: MemoryEngine, query: str,
                                                                            answer: str) -> None:
    """Among turns of the same two speakers, the one that holds the question's words is over 0.5 (main's model,
    which read no word overlap, gave it 0.14-0.38) and the others stay low; asked of a person the store never
    mentions, nothing reaches 0.5."""
    engine.store_many([{"content": t, "event_time": FIXED_NOW - timedelta(days=30 - i)} for i, t in enumerate(TURNS)])
    hits = engine.search(query, top_k=5, now=FIXED_NOW)
    assert hits[0].memory.content == answer and hits[0].relevance >= 0.5, [(h.memory.content, h.relevance) for h in hits]
    assert all(h.relevance < 0.2 for h in hits[1:]), [(h.memory.content, h.relevance) for h in hits]
    stranger = query.replace("Melanie", "Jonathan").replace("Caroline", "Jonathan")
    assert all(h.relevance < 0.5 for h in engine.search(stranger, top_k=5, now=FIXED_NOW))


def test_relevance_is_a_label_not_a_ranker(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The calibrated model changes no hit's place: the order is the one the search makes without it."""
    from hindsight.retrieval import search as search_module

    engine.store_many([{"content": c} for c in COOKING + DEPLOY + TURNS])
    queries = ("why did the deploy fail", "How does Melanie relax after work?", "部署为什么失败")
    with_model = [[h.memory.id for h in engine.search(q, top_k=8, now=FIXED_NOW, record_access=False)] for q in queries]
    monkeypatch.setattr(search_module, "model_for", lambda name: None)
    without = [[h.memory.id for h in engine.search(q, top_k=8, now=FIXED_NOW, record_access=False)] for q in queries]
    assert with_model == without
