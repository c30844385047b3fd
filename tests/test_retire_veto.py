"""Retire round 24b (issue 10): a write never retires a memory about another topic - two long notes that share
almost no content term, the newer one stating no change - however sure the judge's pair model is. Own texts; the
`_fold` tests need no embedder (the verdict is given)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.model import MemoryRecord
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write import retire_veto
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds

OTHER_TOPIC = [
    ("Marek is left-handed and keeps his keyboard shifted to the right; please don't move the mouse on his desk.",
     "Marek is evaluating a switch from the STM32 controller to a GD32 part, which would save three dollars a unit."),
    ("Warehouse safety rule: forklifts stay under 8 km/h indoors and every pallet is wrapped before it is moved.",
     "Stocktake on 3 March found 14 missing cartons of oat milk at the Harbour Street store; Lina is checking CCTV."),
    ("老陈周末喜欢去西湖边拍照，用的是一台老式胶片相机，每次都拍满两卷。",
     "老陈负责华东区的代理合同，法务还在看条款，签字预计在下周三，返点三个点。"),
]

SAME_TOPIC = [  # a change the veto must leave to the judge
    ("Standup is at 9:30 in the small meeting room.", "Standup moves to 10:15 from Monday."),
    ("The Harbour Street store opens at 8am on weekdays and closes at 6pm, with the kitchen shut after 4.",
     "Harbour Street is staying open longer from 1 May: weekdays 7am to 8pm, kitchen until 6."),
    ("每天喝两杯咖啡。", "咖啡戒了。"),
]


@pytest.mark.parametrize(("old", "new"), OTHER_TOPIC)
def test_another_topic_is_read(old: str, new: str) -> None:
    assert retire_veto.other_topic(old, new).startswith("another topic")


@pytest.mark.parametrize(("old", "new"), SAME_TOPIC)
def test_a_change_of_one_slot_or_a_short_pair_is_not_read(old: str, new: str) -> None:
    assert retire_veto.other_topic(old, new) == ""


def test_a_stated_change_is_never_vetoed() -> None:
    old, new = OTHER_TOPIC[0]
    assert retire_veto.other_topic(old, new.replace("is evaluating a switch", "has switched")) == ""


def test_off_vetoes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retire_veto, "ON", False)
    assert retire_veto.other_topic(*OTHER_TOPIC[0]) == ""


@pytest.fixture
def checker(tmp_path: Path) -> Iterator[HygieneChecker]:
    store = SQLiteStore(tmp_path / "veto.db")
    yield HygieneChecker(store, None, thresholds=HygieneThresholds.for_model("fake"))
    store.close()


@pytest.mark.parametrize(("old", "new"), OTHER_TOPIC)
def test_a_change_verdict_on_another_topic_links_and_retires_nothing(checker: HygieneChecker, old: str,
                                                                     new: str) -> None:
    """Fails on main: the pair model's "changes the existing memory" retired the older note."""
    a, b = MemoryRecord(content=old), MemoryRecord(content=new)
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, b, Verdict("override", "changes the existing memory (p(change)=0.99)", 0.99))
    assert decision.supersedes == [] and decision.supplements == [a.id]
    assert "another topic" in reasons[0]


def test_a_change_verdict_on_the_same_slot_still_retires(checker: HygieneChecker) -> None:
    a, b = (MemoryRecord(content=t) for t in SAME_TOPIC[1])
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, b, Verdict("override", "changes the existing memory", 0.9))
    assert decision.supersedes == [a.id]
