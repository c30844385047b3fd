"""Consolidation joins episodes by what they are about, not by the template they share (attack round 17).

32 failure notes of one template over 8 topics became one cluster on main (English; Chinese: 3 mixed clusters)
and a semantic memory mixing the VPN fix with the cron timezone. The frame unit tests need no embedder; the
integration test runs the real one on bench/consolidation_template.py's set.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hindsight.consolidate import Consolidator
from hindsight.consolidate_frame import FRAME_MIN, Frame, about_the_same
from hindsight.embeddings.base import Embedder
from hindsight.field_rules import utcnow
from hindsight.model import MemoryInput, MemoryType, Status
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.pipeline import WritePipeline

_SPEC = importlib.util.spec_from_file_location(
    "consolidation_template", Path(__file__).resolve().parents[1] / "bench" / "consolidation_template.py")
assert _SPEC is not None and _SPEC.loader is not None
BENCH = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(BENCH)

EN = [text for texts in BENCH.TOPICS.values() for text in texts]
ZH = [text for texts in BENCH.TOPICS_ZH.values() for text in texts]


@pytest.mark.parametrize("texts", [EN, ZH], ids=["en", "zh"])
def test_frame_is_the_template_not_the_topic(texts: list[str]) -> None:
    frame = Frame.of(texts)
    vpn, cron = texts[0], texts[4]
    assert frame.words and frame.framed(vpn)
    assert frame.agree(vpn, texts[1])  # the same cause and fix, told again
    assert not frame.agree(vpn, cron)  # only the template in common
    assert "VPN" in frame.content(vpn) and "VPN" not in frame.content(cron)


def test_few_episodes_of_one_topic_have_no_frame() -> None:
    texts = [
        "Deploying to staging failed because the VPN was not connected.",
        "The staging deploy broke again: the VPN was disconnected, reconnecting fixed it.",
        "Staging deployment needs the VPN; without it the deploy fails.",
        "The user had a sandwich for lunch.",
    ]
    assert len(texts) < FRAME_MIN
    frame = Frame.of(texts)
    assert not frame.words and frame.agree(texts[0], texts[3]) and frame.content(texts[0]) == texts[0]


def test_one_recurring_topic_among_many_is_not_a_frame() -> None:
    texts = [f"Deploying to staging failed since the VPN dropped, day {i}." for i in range(3)] + [
        "The user had a sandwich for lunch.", "The user booked a flight to Lisbon.", "用户让我把README翻译成英文。",
        "The user prefers dark mode.", "Weekly report is due on Friday.", "The laptop runs macOS."]
    frame = Frame.of(texts)
    assert not frame.words
    assert frame.agree(texts[0], texts[1])


def _all_pairs(n: int) -> set[tuple[int, int]]:
    return {(i, j) for i in range(n) for j in range(i + 1, n)}


@pytest.mark.parametrize("hollow", [True, False])
def test_links_that_share_only_a_hollow_frame_are_dropped(hollow: bool) -> None:
    """Fake vectors (non-model logic): a frame whose removal keeps each text's meaning is a template over several
    topics, and links agreeing on it alone go; a frame that carries the meaning is the topic, and links stay."""
    texts = EN
    vectors = np.eye(len(texts))  # each text its own direction; its content (frame removed) the same one, or none
    frame = Frame.of(texts)
    row = {frame.content(t): i for i, t in enumerate(texts)}

    def embed(batch: list[str]) -> np.ndarray:
        return np.stack([vectors[row[t]] if hollow else np.zeros(len(texts)) for t in batch])

    edges = _all_pairs(len(texts))
    kept = about_the_same(texts, edges, vectors, embed)
    if hollow:
        topic = {i: i // 4 for i in range(len(texts))}
        assert kept and all(topic[a] == topic[b] for a, b in kept)
        assert {(0, 1), (4, 5)} <= kept
    else:
        assert kept == edges


@pytest.mark.parametrize("lang", ["en", "zh", "recurring"])
def test_same_template_episodes_cluster_by_topic(tmp_path: Path, embedder: Embedder, lang: str) -> None:
    """Fails on main (en one cluster of all 32, zh 3 clusters, each mixing topics); one pitfall told eight times
    stays one cluster."""
    topics = BENCH.SETS[lang]
    store = SQLiteStore(tmp_path / "c.db")
    try:
        items = [(topic, text) for topic, texts in topics.items() for text in texts]
        outcomes = WritePipeline(store=store, embedder=embedder, clock=utcnow).write_many(
            [MemoryInput(content=t, type=MemoryType.episodic) for _, t in items], "t")
        topic_of = {o.memory_id: topic for o, (topic, _) in zip(outcomes, items, strict=True)}
        report = Consolidator(store, embedder).run("default")
        kinds = [Counter(topic_of[i] for i in cluster) for cluster in report.clusters]
        assert all(len(kind) == 1 for kind in kinds), kinds  # no cluster mixes topics
        assert len({next(iter(kind)) for kind in kinds}) == len(kinds) >= max(1, len(topics) - 1)  # one per topic
        if lang == "recurring":
            assert [sum(kind.values()) for kind in kinds] == [len(items)]
        for promoted_id in report.promoted_ids:  # each semantic memory states one topic's facts
            promoted = store.get(promoted_id)
            assert promoted is not None and promoted.status == Status.active
            sources = promoted.metadata["consolidated_from"]
            topic = topic_of[sources[0]]
            others = [t for name, texts in topics.items() if name != topic for t in texts]
            assert not any(sentence in promoted.content for t in others for sentence in [t])
            assert {e.dst for e in store.edges([promoted_id], ["derived_from"])} == set(sources)
        for memory_id in topic_of:  # nothing lost: every episode stays, active
            record = store.get(memory_id)
            assert record is not None and record.status == Status.active
    finally:
        store.close()
