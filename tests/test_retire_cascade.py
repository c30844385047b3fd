"""Hygiene round 31e (issue 10): a vetoed change candidate keeps the write's one supersede. When the closest
candidate read as a change is protected by `retire_veto.veto`, the change cue belonged to that pair: a lower
candidate read as a change is linked, not retired in its place (main retired it: the cascade of round 31c). Own
texts; the verdicts are given, so no embedder is needed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.model import MemoryRecord
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write import verdict_fold
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds
from hindsight.write.retire_veto import veto

CASCADE = [  # (closest candidate: another attribute of the subject, a lower neighbour, the new note)
    ("Tomasz usually starts around 10:15 and stays online until 8pm; he prefers code reviews in the late afternoon.",
     "Tomasz uses a 27-inch monitor.",
     "Tomasz has moved to Gliwice now, so he commutes by train with his scooter, roughly fifty minutes each way "
     "from the main station to the office."),
    ("老陈周末喜欢去西湖边拍照，用的是一台老式胶片相机，每次都拍满两卷，冲洗在文三路那家店。",
     "老陈用的是27寸显示器。",
     "老陈搬家了，现在住在滨江区，离公司要坐四十分钟地铁，周一上午可能会晚到一些。"),
]


@pytest.fixture
def checker(tmp_path: Path) -> Iterator[HygieneChecker]:
    store = SQLiteStore(tmp_path / "cascade.db")
    yield HygieneChecker(store, None, thresholds=HygieneThresholds.for_model("fake"))
    store.close()


def _fold_both(checker: HygieneChecker, closest: str, lower: str, new: str) -> tuple[HygieneDecision, list[str],
                                                                                         MemoryRecord, MemoryRecord]:
    a, b, n = MemoryRecord(content=closest), MemoryRecord(content=lower), MemoryRecord(content=new)
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, n, Verdict("override", "changes the existing memory (p(change)=0.9)", 0.9))
    checker._fold(decision, reasons, b, n, Verdict("override", "changes the existing memory (p(change)=0.8)", 0.8))
    return decision, reasons, a, b


@pytest.mark.parametrize(("closest", "lower", "new"), CASCADE)
def test_the_texts_are_what_they_claim(closest: str, lower: str, new: str) -> None:
    assert veto(closest, new) and not veto(lower, new)


@pytest.mark.parametrize(("closest", "lower", "new"), CASCADE)
def test_a_vetoed_closest_candidate_keeps_the_one_supersede(checker: HygieneChecker, closest: str, lower: str,
                                                            new: str) -> None:
    """Fails on main: the veto linked the closest candidate and the lower neighbour was retired instead."""
    decision, reasons, a, b = _fold_both(checker, closest, lower, new)
    assert decision.supersedes == []
    assert decision.supplements == [a.id, b.id]
    assert decision.held_by == a.id
    assert "held by the vetoed" in reasons[1]


@pytest.mark.parametrize(("closest", "lower", "new"), CASCADE)
def test_off_the_lower_candidate_is_retired_as_before(checker: HygieneChecker, monkeypatch: pytest.MonkeyPatch,
                                                      closest: str, lower: str, new: str) -> None:
    monkeypatch.setattr(verdict_fold, "VETO_HOLDS", False)
    decision, _, _, b = _fold_both(checker, closest, lower, new)
    assert decision.supersedes == [b.id]


def test_without_a_veto_the_closest_is_retired_and_the_lower_linked(checker: HygieneChecker) -> None:
    closest, lower, new = ("Tomasz lives in Katowice.", "Tomasz uses a 27-inch monitor.", CASCADE[0][2])
    decision, _, a, b = _fold_both(checker, closest, lower, new)
    assert decision.supersedes == [a.id] and decision.supplements == [b.id] and decision.held_by is None
