"""Hygiene round 29 (issue 10): distinct facts the judge lost, by kind.

* a switch or contrast ("X, not Y", "rather ... than", 不是, 而不是) said of another part of an owner the old memory
  names ("Harbor Dental's billing desk", 老李的电动车) or under a condition the old memory does not name ("For client
  questions", 对于家里的事) is no change of the old memory (`said_of.said_of_another`);
* the same attribute read at two periods ("cholesterol in March" / "in September", 5月份 / 6月份) with a value each is
  two readings, not a value replaced (`said_of.other_period`);
* one value bounded the other way ("under 6 hours" / "over 6 hours", 以内 / 超过) opens neither same-fact gate
  (`value_canon.bounded_apart`).

Texts written for these tests (not from any evaluation set). The distinct cases fail on main 12414b8 (the judge's rules
read a change; the same-fact gates open on the bounded pairs); the controls are changes on main and on the branch.
"""

from __future__ import annotations

import pytest

from hindsight.write import judge, said_of, same_fact
from hindsight.write.value_canon import bounded_apart

#: a switch or contrast said of another part or under another condition: two facts, kept and linked
SAID_OF_ANOTHER = [
    ("Dr. Osei at Harbor Dental does implants; his extension is 214.",
     "Harbor Dental's billing desk is extension 300 — call it for invoices, not Dr. Osei's extension."),
    ("老李的车是白色的丰田。", "老李的电动车是黑色的，不是白色。"),
    ("公司官网托管在阿里云上。", "公司的邮件系统用的是腾讯企业邮，不是阿里云。"),
    ("Tom prefers Slack for team updates.", "For client questions, Tom would rather get an email than a Slack ping."),
    ("老王工作上的事喜欢用微信沟通。", "对于家里的事，老王习惯打电话而不是发微信。"),
]

#: the same attribute dated to two periods, a value each
TWO_PERIODS = [
    ("Dad's cholesterol in March was 5.8 mmol/L.", "Dad's cholesterol in September: 5.1 mmol/L."),
    ("5月份水费 96 元。", "6月份水费 110 元。"),
]

#: changes the readings leave alone: the same part or condition, "now", a change's onset
STILL_CHANGES = [
    ("Standup is at 9:30.", "Standup is at 10 now, not 9:30."),
    ("项目用 PostgreSQL。", "项目的数据库现在是 MySQL，不是 PostgreSQL。"),
    ("For work, Tom prefers Slack.", "For work, Tom would rather get an email than a Slack ping."),
    ("Rent is $1,200 a month.", "Rent is $1,300 a month from January."),
    ("The gym fee is $40 a month.", "The gym fee is $45 a month now."),
]

#: one value bounded the other way
BOUNDED = [
    ("Economy class for flights under 6 hours.", "Flights over 6 hours can be booked in premium economy."),
    ("报销金额在 500 元以内由组长审批。", "报销金额超过 500 元要由组长审批。"),
]


@pytest.mark.parametrize(("old", "new"), SAID_OF_ANOTHER + TWO_PERIODS)
def test_a_distinct_fact_is_no_change(old: str, new: str) -> None:
    assert judge.classify_rules(old, new, 0.93).label != "override"


@pytest.mark.parametrize(("old", "new"), SAID_OF_ANOTHER)
def test_what_the_contrast_is_said_of(old: str, new: str) -> None:
    assert said_of.said_of_another(old, new)


@pytest.mark.parametrize(("old", "new"), TWO_PERIODS)
def test_two_readings_at_two_times(old: str, new: str) -> None:
    assert said_of.other_period(old, new)


@pytest.mark.parametrize(("old", "new"), STILL_CHANGES)
def test_changes_stay_changes(old: str, new: str) -> None:
    assert not said_of.said_of_another(old, new)
    assert not said_of.other_period(old, new)
    assert judge.classify_rules(old, new, 0.93).label == "override"


@pytest.mark.parametrize(("old", "new"), BOUNDED)
def test_a_value_bounded_the_other_way_opens_no_same_fact_gate(old: str, new: str) -> None:
    assert bounded_apart(old, new)
    assert same_fact.agreement(old, new).agrees  # the values alone agree ...
    assert not same_fact.gate(old, new) and not same_fact.guarded_gate(old, new)  # ... the bounds keep them two


def test_one_side_bounded_or_the_same_way_is_not_apart() -> None:
    assert not bounded_apart("Flights over 6 hours: premium economy.", "Premium economy is allowed for flights longer than 6 hours.")
    assert not bounded_apart("Flights of 6 hours fly economy.", "Flights over 6 hours can be premium economy.")
