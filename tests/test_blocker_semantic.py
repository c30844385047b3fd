"""Hygiene round 40b: hyg40's change side over a merge blocker limited to semantic pairs
(`keep_decision.BLOCKER_SEMANTIC_ONLY`, its point fixed at `BLOCKER_SEMANTIC_T` 0.77): it fires only where the stored
memory and the write are both semantic (the types `HygieneChecker.judge` hands to `judge.classify`); off, an episodic
or a mixed pair, or a pair whose types are not given, nothing moves."""
from __future__ import annotations

import numpy as np
import pytest

from hindsight.write import keep_decision
from hindsight.write.conflict import Verdict
from tests.test_blocker_head import FixedBounds, unread_pair

BLOCKED = "kept and linked, not a restatement: another person (gomez) (cosine 0.902)"
SEM, EPI = ("semantic", "semantic"), ("episodic", "episodic")


class _Ensemble:
    t_merge, t_change = 0.94, 1.01

    def __init__(self, p_change: float) -> None:
        self.q = np.asarray([0.99 - p_change, 0.01, p_change])

    def decide(self, row: np.ndarray, changes: bool = True) -> tuple[str, np.ndarray]:
        return "keep", self.q


@pytest.fixture()
def decide(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    unread_pair(monkeypatch)
    monkeypatch.setattr(keep_decision, "BLOCKER_T_CHANGE", None)
    monkeypatch.setattr(keep_decision, "BLOCKER_T_MERGE", None)

    def run(p_change: float, on: bool, types: tuple[str, str] | None, reason: str = BLOCKED) -> Verdict | None:
        monkeypatch.setattr(keep_decision, "shipped", lambda: _Ensemble(p_change))
        monkeypatch.setattr(keep_decision, "BLOCKER_SEMANTIC_ONLY", on)
        old, new = "Our family dentist is Dr. Patel.", "Dr. Patel retired; Dr. Gomez sees us now."
        return keep_decision.decide(None, (old, new), old, new, np.zeros(3),  # type: ignore[arg-type]
                                    Verdict("supplement", reason), np.asarray([0.5, 0.2, 0.3]), 0.9, None, types)
    return run


def test_off_by_default_and_at_the_fixed_point() -> None:
    assert keep_decision.BLOCKER_SEMANTIC_ONLY is False
    assert keep_decision.BLOCKER_SEMANTIC_T == 0.77


def test_a_semantic_pair_over_a_blocker_is_a_change_only_with_the_switch(decide) -> None:  # type: ignore[no-untyped-def]
    assert decide(0.80, False, SEM) is None
    verdict = decide(0.80, True, SEM)
    assert verdict is not None and verdict.label == "override" and "over a merge blocker" in verdict.reason
    assert decide(0.76, True, SEM) is None  # under the point


def test_an_episodic_mixed_or_untyped_pair_is_never_read(decide) -> None:  # type: ignore[no-untyped-def]
    assert decide(0.99, True, EPI) is None
    assert decide(0.99, True, ("semantic", "episodic")) is None
    assert decide(0.99, True, ("episodic", "semantic")) is None
    assert decide(0.99, True, None) is None


def test_only_a_blockers_keep_is_read(decide) -> None:  # type: ignore[no-untyped-def]
    assert decide(0.99, True, SEM, "adds detail (gomez) (cosine 0.902)") is None


def test_the_point_per_type_and_the_back_reading_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """`blocker_t_change`: hyg40's point for every pair, the semantic point for semantic pairs (the lower of the two);
    `_back_can_count` counts the semantic point only for a semantic pair."""
    monkeypatch.setattr(keep_decision, "BLOCKER_T_CHANGE", None)
    monkeypatch.setattr(keep_decision, "BLOCKER_SEMANTIC_ONLY", True)
    assert keep_decision.blocker_t_change(SEM) == 0.77
    assert keep_decision.blocker_t_change(EPI) is None
    monkeypatch.setattr(keep_decision, "BLOCKER_T_CHANGE", 0.9)
    assert keep_decision.blocker_t_change(SEM) == 0.77 and keep_decision.blocker_t_change(EPI) == 0.9
    monkeypatch.setattr(keep_decision, "BLOCKER_T_CHANGE", None)
    bounds = FixedBounds(1.5)  # p(change) bounded near 0.80, p(merge) far under t_merge
    row = np.zeros(len(keep_decision.FEATURES))
    monkeypatch.setattr(keep_decision, "SLOT_CHANGES", False)
    monkeypatch.setattr(keep_decision, "BLOCKER_T_MERGE", None)
    assert keep_decision._back_can_count(bounds, row, SEM)  # type: ignore[arg-type]
    assert not keep_decision._back_can_count(bounds, row, EPI)  # type: ignore[arg-type]
    monkeypatch.setattr(keep_decision, "BLOCKER_SEMANTIC_ONLY", False)
    assert not keep_decision._back_can_count(bounds, row, SEM)  # type: ignore[arg-type]


#: Own texts (none from bench/data): a change told with a second person beside it, which the rules keep behind a
#: merge blocker and the shipped ensemble reads as a change at p(change) >= 0.77.
BLOCKED_CHANGES = [
    ("My brother Owen lives in Leeds.", "Owen moved to Cardiff last spring."),
    ("Our family dentist is Dr. Patel.", "Dr. Patel retired, so her colleague Dr. Gomez sees us now."),
    ("年会的主持人是小林。", "小林出差来不了，年会改由他同事阿梅主持。"),
    ("家里的保姆是王阿姨。", "王阿姨回老家了，现在换成她表妹李阿姨来帮忙。"),
]


def _old_after(engine, ns: str, old: str, new: str, types: tuple[str, str]) -> str:  # type: ignore[no-untyped-def]
    first = engine.store_memory({"content": old, "namespace": ns, "type": types[0]})
    engine.store_memory({"content": new, "namespace": ns, "type": types[1]})
    return str(engine.get(first.memory_id, ns, record_access=False).status.value)


@pytest.mark.parametrize(("old", "new"), BLOCKED_CHANGES)
def test_through_the_engine_a_semantic_pair_is_retired_an_episodic_one_kept(  # type: ignore[no-untyped-def]
        old: str, new: str, engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off (as shipped) the semantic pair is kept; on, it is retired, while the same texts as episodic memories (and
    a semantic memory with an episodic write) stay kept."""
    assert _old_after(engine, "off", old, new, SEM) == "active"
    monkeypatch.setattr(keep_decision, "BLOCKER_SEMANTIC_ONLY", True)
    assert _old_after(engine, "sem", old, new, SEM) == "deprecated"
    assert _old_after(engine, "epi", old, new, EPI) == "active"
    assert _old_after(engine, "mixed", old, new, ("semantic", "episodic")) == "active"
