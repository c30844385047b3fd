"""Hygiene round 22: one canonical value reading shared by both sides (`write.value_canon`), the slot-difference
reading (`write.phrase_swap`) and the value gate the judge reads them through (`write.value_gate`). Own texts."""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.write import value_gate
from hindsight.write.phrase_swap import one_phrase_apart
from hindsight.write.value_canon import canonical_values, value_match
from hindsight.write.value_gate import gate_reason

#: one value in two written forms: the two multisets are equal
SAME = [
    ("The call is at 3 pm.", "The call is at 15:00."),
    ("预算两千元。", "预算 2000 元。"),
    ("The drive takes half an hour.", "The drive takes 30 minutes."),
    ("The bonus is 2.5k.", "The bonus is 2,500."),
    ("Launch is planned for Q3.", "上线计划在第三季度。"),
    ("物业费每年 3,960 元。", "物业费一年三千九百六。"),
    ("总投资 1,200 万。", "总投资一千二百万。"),
    ("改造预计 10 月底完工。", "改造预计十月末完工。"),
    ("The checkup is at 10:40.", "The checkup is at twenty to eleven."),
    ("我家住在 5 楼。", "我家住五楼。"),
    ("Vaccines are due at the 6-month visit.", "Vaccines are due at the half-year visit."),
    ("Standup is on Thu.", "Standup is on Thursday."),
    ("开会定在周三下午三点。", "礼拜三 15:00 开会。"),
    ("Check-in after 4 pm.", "Check-in from four o'clock."),
    ("Contingency is 10% of the budget.", "Contingency is ten percent of the budget."),
    ("逾期每天罚 0.1 元。", "逾期每天罚一毛钱。"),
    ("Email tax@firm.example.com for returns.", "Returns: tax@firm.example.com."),
    ("Naps at 9:30 and 2 pm.", "Naps at half nine in the morning and 2 pm."),
]

#: two different values, whatever their forms: never equal
APART = [
    ("The call is at 3 pm.", "The call is at 4 pm."),
    ("预算两千元。", "预算 3000 元。"),
    ("Launch is planned for Q3.", "Launch is planned for Q4."),
    ("儿子周六上午上英语课。", "儿子周六下午上英语课。"),
    ("本周五 15:00 开评审会。", "下周五 15:00 开评审会。"),
    ("K8s 生产集群版本是1.27。", "K8s 生产集群版本是1.29。"),
    ("Seat on the flight: 14C.", "Seat on the flight: 22A."),
    ("主库在 10.10.3.15。", "主库在 10.10.3.16。"),
    ("Garbage pickup is Thursday mornings.", "Garbage pickup is every other Thursday morning."),
    ("The drive takes half an hour.", "The drive takes an hour."),
    ("Expense reports over $500 need sign-off.", "Expense reports under $500 can be approved by a manager."),
    ("需求变更 2 人日以内的,项目经理可以直接批。", "超过 2 人日的变更要客户书面确认。"),
]


@pytest.mark.parametrize(("old", "new"), SAME, ids=[f"same-{i}" for i in range(len(SAME))])
def test_one_value_in_two_forms_reads_as_one_multiset(old: str, new: str) -> None:
    assert value_match(old, new).equal


@pytest.mark.parametrize(("old", "new"), APART, ids=[f"apart-{i}" for i in range(len(APART))])
def test_two_values_stay_two_whatever_their_forms(old: str, new: str) -> None:
    assert not value_match(old, new).equal


def test_a_bound_on_one_side_only_is_no_conflict() -> None:
    assert value_match("The team lunch budget is $40 per person.", "Team lunches: up to forty dollars a head.").equal


def test_no_value_is_no_evidence() -> None:
    assert not value_match("I prefer invoices as PDFs.", "Send bills as PDFs, please.").equal
    assert canonical_values("No one goes in without a badge.") == ()  # "one" names no value


@pytest.mark.parametrize(("old", "new"), [
    ("Our anniversary is June 18.", "Mom's birthday is June 18."),
    ("用户的女儿每周三下午学钢琴。", "用户的儿子每周三下午学钢琴。"),
    ("The support inbox is help@acme.example.", "The sales inbox is help@acme.example."),
    ("Office hours for CS 231 are Wednesdays 2-4pm in Gates 104.", "The CS 231 midterm is Wednesdays 2-4pm in Gates 104."),
])
def test_one_noun_phrase_apart_is_another_fact(old: str, new: str) -> None:
    assert one_phrase_apart(old, new) is not None
    assert (gate_reason(old, new) or "").startswith("one noun phrase apart")


@pytest.mark.parametrize(("old", "new"), [
    ("I like tea.", "I love tea."),  # a verb, no noun phrase
    ("4S 店的监控录像保留 30 天。", "4S 店监控视频存一个月,之后自动覆盖。"),  # reworded throughout
    ("Theo's 12-month checkup is at 10:40 on the 9th.", "Baby's one-year well visit: the 9th, twenty to eleven."),
])
def test_a_rewording_is_not_a_phrase_swap(old: str, new: str) -> None:
    assert one_phrase_apart(old, new) is None


def test_the_gate_opens_on_the_same_values_in_other_words() -> None:
    assert gate_reason("服务器机柜在亦庄机房 B 区第 14 柜。", "咱们的机器放在亦庄 IDC,B 区 14 号机柜。") is None
    assert gate_reason("The team lunch budget is $40 per person.", "Team lunches: up to forty dollars a head.") is None


@pytest.mark.parametrize(("old", "new", "why"), [
    ("Refunds over $500 need sign-off.", "Refunds over $500 also need a ticket.", ("adds something",)),
    ("5 月 8 号评审会上,客户要求把导出功能提前。", "5 月 8 号评审会上,客户还提了登录页要改。", ("adds something",)),
    ("The pool opens at 7 am.", "The pool no longer opens at 7 am.", ("negation", "change cue")),
    ("The pool opens at 7 am.", "The pool opens at 8 am.", ("values differ",)),
    ("Team sync is at 10:00.", "团队同步会在 10:00。", ("another script",)),
    ("The staging database runs PostgreSQL 15.", "The staging database runs PostgreSQL 15 with the pgvector extension "
     "installed.", ("adds a clause",)),
])
def test_the_gate_stays_shut_where_something_says_another_fact(old: str, new: str, why: tuple[str, ...]) -> None:
    reason = gate_reason(old, new) or ""
    assert any(w in reason for w in why), reason


@pytest.mark.parametrize(("old", "new"), [
    ("我家住在 9 楼。", "我们家是九层。"),
    ("The team lunch budget is $40 per person.", "Team lunches: up to forty dollars a head."),
], ids=["zh-floor", "en-amount"])
def test_through_the_engine_the_restatement_is_merged(engine: MemoryEngine, old: str, new: str) -> None:
    a = engine.store_memory({"content": old})
    b = engine.store_memory({"content": new})
    assert b.action == "duplicate" and b.memory_id == a.memory_id  # main keeps both ("one slot filled differently")


@pytest.mark.parametrize(("old", "new"), [
    ("Our anniversary is June 18.", "Mom's birthday is June 18."),
    ("用户的女儿每周三下午学钢琴。", "用户的儿子每周三下午学钢琴。"),
    ("儿子周六上午上英语课。", "儿子周六下午上围棋课。"),
], ids=["en-person", "zh-person", "zh-day-part"])
def test_through_the_engine_a_distinct_fact_stays_apart_with_the_gate_wide_open(
        engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    monkeypatch.setattr(value_gate, "VALUES_MERGE_P", 0.0)  # any p(merge): only the readings keep them apart
    a = engine.store_memory({"content": old})
    b = engine.store_memory({"content": new})
    assert b.memory_id != a.memory_id and b.action != "duplicate"
