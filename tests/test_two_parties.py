"""zhshort46 (issue 10): a merge of two short statements with no positive evidence of one fact is kept
(`two_parties`, switch `ON`, off as measured): another person named by a kinship word after a possessive, two
values of one closed class (allergens, roles). Own texts, EN + ZH; no embedder (the reading is text only)."""

from __future__ import annotations

import pytest

import hindsight.write.two_parties as two_parties
from hindsight.engine import MemoryEngine
from hindsight.write.conflict import Verdict

MERGED = Verdict("duplicate", "restates the existing memory (p(merge)=0.80)", 0.8)
#: two facts the judge can merge: another person, two allergens, two roles
APART = [
    ("老张今年六十岁。", "老张的儿子今年考上了大学。"),
    ("Tom has a bad knee and can't lift heavy things.", "Tom's wife had cataract surgery this year."),
    ("我对芒果过敏。", "我花生过敏。"),
    ("I'm allergic to penicillin.", "I have a mild allergy to aspirin."),
    ("小李是合唱团的创始会员。", "合唱团的账由小李管。"),
    ("Priya is the book club's treasurer.", "Priya is a founding member of the book club."),
]
#: one fact said twice: nothing fires
ONE = [
    ("我青霉素过敏。", "青霉素类的药我不能用，用了会过敏。"),
    ("老张的儿子今年考上了大学。", "老张家儿子今年上大学了。"),
    ("My wife is allergic to peanuts.", "My wife has a peanut allergy."),
    ("Priya keeps the book club's books as treasurer.", "The book club's treasurer is Priya."),
]


@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_parties, "ON", True)


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_merge_of_two_facts_is_kept(on: None, old: str, new: str) -> None:
    verdict = two_parties.kept(MERGED, old, new)
    assert verdict.label == "supplement"
    assert "not a restatement" in verdict.reason


@pytest.mark.parametrize(("old", "new"), ONE)
def test_one_fact_said_twice_stays_merged(on: None, old: str, new: str) -> None:
    assert two_parties.reason(old, new) is None
    assert two_parties.kept(MERGED, old, new) is MERGED


@pytest.mark.parametrize("label", ["override", "supplement", "unrelated"])
def test_other_verdicts_are_left_alone(on: None, label: str) -> None:
    verdict = Verdict(label, "x", 0.5)  # type: ignore[arg-type]
    assert two_parties.kept(verdict, *APART[0]) is verdict


def test_off_leaves_the_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_parties, "ON", False)
    assert two_parties.kept(MERGED, *APART[0]) is MERGED


@pytest.mark.parametrize(("old", "new"), [("我对芒果轻微过敏。", "我花生过敏。"), ("小李是合唱团的创始会员。", "合唱团的账由小李管。")])
def test_engine_keeps_two_values_apart(on: None, engine: MemoryEngine, old: str, new: str) -> None:
    """Through the write path with the real embedder: main merges both pairs ("duplicate"); with the reading on
    the new note is stored and linked, the old one stays active."""
    a = engine.store_memory({"content": old, "namespace": "s", "type": "semantic"})
    b = engine.store_memory({"content": new, "namespace": "s", "type": "semantic"})
    assert b.action != "duplicate"
    assert engine.get(a.memory_id, "s", record_access=False).status.value == "active"
