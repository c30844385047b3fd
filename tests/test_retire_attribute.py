"""Retire round 25 (issue 10): a change verdict must be about the same attribute. Two long notes of one subject
that share nothing but its name and their dates are linked, not retired, even when the new one carries a change
word about its own attribute; a change of the same attribute (a shared word), or a short pair, is left to the judge.
Own texts; the `_fold` tests need no embedder (the verdict is given)."""

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
from hindsight.write.shared_attribute import shared

OTHER_ATTRIBUTE = [  # one subject, another attribute: the new note's change word is about its own attribute
    ("Dorota usually starts around 9:45 and stays online until 7pm; she prefers reviews in the late afternoon.",
     "Dorota has moved to Gdynia now, so she commutes by train with her bike, roughly forty minutes each way "
     "from the central station to the office."),
    ("赵明远喜欢深色胡桃木书桌,不要玻璃台面,说反光看屏幕累眼睛。书房灯要暖光。",
     "赵明远最近又提出阳台要改成洗衣区加晾衣架,设计那边正在改平面。"),
    ("Harbour Street café: the La Marzocco gets descaled every second Monday, and the grinder burrs last about 600 kg.",
     "Harbour Street roof leak fixed on 4 June by Kestrel Roofing, invoice NZ$1,900; the storeroom is dry again."),
]

SAME_ATTRIBUTE = [  # a change of the same attribute: a shared word besides the subject's name and the dates
    ("Dorota usually starts around 9:45 and stays online until 7pm; she prefers reviews in the late afternoon.",
     "Dorota now starts at 8:30 and logs off at 5pm since her daughter began school; reviews before lunch please."),
    ("赵明远喜欢深色胡桃木书桌,不要玻璃台面,说反光看屏幕累眼睛。书房灯要暖光。",
     "赵明远改主意了,书桌换成浅色橡木,书房灯也改成中性光,他说深色胡桃木显得太压抑。"),
    ("Opening hours at Harbour Street: 8:00 to 18:00 every day, kitchen closes at four on weekdays.",
     "Harbour Street is staying open longer from 1 May, 7:00 to 20:00 daily, to catch the after-work crowd."),
]

SHORT = [  # one attribute each: sharing the subject is enough, never read
    ("Aunt Ilse lives at 14 Birch Lane, flat 2.", "Aunt Ilse's address: 90 Quarry Road, unit 7."),
    ("刘建华的手机号是 139-5550-1234。", "刘建华换号了,新号码 186-5550-9876。"),
]


@pytest.mark.parametrize(("old", "new"), OTHER_ATTRIBUTE)
def test_another_attribute_of_one_subject_is_read(old: str, new: str) -> None:
    assert not shared(old, new)
    assert retire_veto.other_attribute(old, new).startswith("another attribute")


@pytest.mark.parametrize(("old", "new"), SAME_ATTRIBUTE)
def test_the_same_attribute_changed_is_not_read(old: str, new: str) -> None:
    assert shared(old, new)
    assert retire_veto.other_attribute(old, new) == ""


@pytest.mark.parametrize(("old", "new"), SHORT)
def test_a_short_pair_is_never_read(old: str, new: str) -> None:
    assert retire_veto.other_attribute(old, new) == ""


def test_a_name_is_the_subject_but_a_sentence_start_is_not() -> None:
    """"Clearance has been tested" is a word, not a name: "frame clearance" shares it; "Dorota" in both is a name."""
    assert "clearance" in shared("Spec: the frame ships with 32 mm tyres. Clearance has been tested up to 38 mm.",
                                 "Spec change: 35 mm tyres as standard now; frame clearance is unchanged.")
    assert "dorota" not in shared(*OTHER_ATTRIBUTE[0])


def test_off_vetoes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retire_veto, "ATTRIBUTE_ON", False)
    assert retire_veto.other_attribute(*OTHER_ATTRIBUTE[0]) == ""


@pytest.fixture
def checker(tmp_path: Path) -> Iterator[HygieneChecker]:
    store = SQLiteStore(tmp_path / "veto.db")
    yield HygieneChecker(store, None, thresholds=HygieneThresholds.for_model("fake"))
    store.close()


def _fold(checker: HygieneChecker, old: str, new: str) -> tuple[HygieneDecision, list[str], MemoryRecord]:
    a, b = MemoryRecord(content=old), MemoryRecord(content=new)
    decision, reasons = HygieneDecision(), []  # type: ignore[var-annotated]
    checker._fold(decision, reasons, a, b, Verdict("override", "changes the existing memory (p(change)=0.97)", 0.97))
    return decision, reasons, a


@pytest.mark.parametrize(("old", "new"), OTHER_ATTRIBUTE)
def test_a_change_verdict_on_another_attribute_links_and_retires_nothing(checker: HygieneChecker, old: str,
                                                                         new: str) -> None:
    """Fails on main: the pair model's "changes the existing memory" retired the older note."""
    decision, reasons, a = _fold(checker, old, new)
    assert decision.supersedes == [] and decision.supplements == [a.id]
    assert "another attribute" in reasons[0]


@pytest.mark.parametrize(("old", "new"), SAME_ATTRIBUTE + SHORT)
def test_a_change_verdict_on_the_same_attribute_still_retires(checker: HygieneChecker, old: str, new: str) -> None:
    decision, _, a = _fold(checker, old, new)
    assert decision.supersedes == [a.id]
