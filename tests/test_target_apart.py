"""A target, goal, budget, limit or plan is not the current value: a change verdict between them retires nothing
(issue 10, hygiene round 31c, `write/target_apart.py`)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.model import MemoryRecord
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write import target_apart
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds

APART = [  # one side a target / goal / budget / limit / plan, the other the current value: both stay true
    ("Target weight is 75 kg by the end of the year.", "Current weight: 82 kg."),
    ("The monthly grocery budget is $600.", "We spent $710 on groceries in March."),
    ("Daily screen-time limit for Theo is two hours.", "Theo was on his tablet for three hours yesterday."),
    ("My goal is to read 30 books this year.", "I've read 12 books so far this year."),
    ("这个月的餐饮预算是3000元。", "这个月餐饮实际花了3400元。"),
    ("今年的销售目标是500万。", "截至九月，销售额是320万。"),
    ("服务器的内存上限设为16G。", "服务器内存占用12G。"),  # "现在用了" reads as a stated change (v2 guard)
    ("We plan to move the launch to Q3.", "The launch is in Q2."),
]

BOTH_OR_NEITHER = [  # a change of one attribute: left to the judge
    ("Target weight is 75 kg.", "New target weight: 72 kg."),
    ("月度预算是3000元。", "月度预算调到了3500元。"),
    ("Standup is at 9:30.", "Standup moves to 10:15 from Monday."),
    ("My phone plan is with Vodafone.", "I switched my phone to Three."),  # a subscription, not an intention
]


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading ships OFF (measured, not shipped: docs/benchmarks.md "Hygiene, round 31c"); tested switched on."""
    monkeypatch.setattr(target_apart, "ON", True)


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_target_beside_a_current_value_is_read_either_way(old: str, new: str) -> None:
    assert target_apart.target_apart(old, new).startswith("another attribute")
    assert target_apart.target_apart(new, old).startswith("another attribute")


@pytest.mark.parametrize(("old", "new"), BOTH_OR_NEITHER)
def test_a_change_of_the_target_or_of_the_value_is_not_read(old: str, new: str) -> None:
    assert target_apart.target_apart(old, new) == ""


def test_it_ships_off() -> None:
    import importlib
    assert importlib.reload(target_apart).ON is False


def test_a_stated_change_is_left_to_the_judge() -> None:
    """v2: the new note says the value changed (上限提高到了, "slipped to") - left to the judge, as `other_topic` does."""
    assert target_apart.target_apart("上传文件限制为 10MB。", "上传上限提高到了 50MB。") == ""
    assert target_apart.target_apart("Project Falcon is targeting a GA release on June 30.",
                                     "Falcon GA slipped to August 15.") == ""


def test_off_reads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(target_apart, "ON", False)
    assert target_apart.target_apart(*APART[0]) == ""


@pytest.fixture
def checker(tmp_path: Path) -> Iterator[HygieneChecker]:
    store = SQLiteStore(tmp_path / "target.db")
    yield HygieneChecker(store, None, thresholds=HygieneThresholds.for_model("fake"))
    store.close()


@pytest.mark.parametrize(("old", "new"), APART[:2] + APART[4:6])
def test_a_change_verdict_between_a_target_and_a_current_value_retires_nothing(checker: HygieneChecker, old: str,
                                                                                new: str) -> None:
    """Fails on main: writing "Current weight: 82 kg" retired "Target weight is 75 kg" (blind r29's others)."""
    a, b = MemoryRecord(content=old), MemoryRecord(content=new)
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, b, Verdict("override", "changes the existing memory (p(change)=0.99)", 0.99))
    assert decision.supersedes == [] and decision.supplements == [a.id]
    assert "target" in reasons[0]


@pytest.mark.parametrize(("old", "new"), BOTH_OR_NEITHER[:2])
def test_a_change_of_the_target_still_retires(checker: HygieneChecker, old: str, new: str) -> None:
    a, b = MemoryRecord(content=old), MemoryRecord(content=new)
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, b, Verdict("override", "changes the existing memory", 0.9))
    assert decision.supersedes == [a.id]
