"""The value gate's second tier: a shared value two facts of one subject rarely share by chance (issue 10, round 26)."""

from __future__ import annotations

import pytest

import hindsight.write.endings as endings
import hindsight.write.measured_value as measured_value
from hindsight.write.judge import classify_rules
from hindsight.write.measured_value import merge_p, specific_value


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("The venue deposit is $2,400.", "We paid a 2400 dollar deposit for the venue.", "money"),
    ("每周五下午 3 点开周会。", "周会：周五 15:00。", "clock"),
    ("Reach the landlord at 0412 555 908.", "Landlord's mobile: 0412-555-908.", "phone"),
    ("果园技术员老孙的电话是 555-0126。", "老孙电话：五五五 零一二六。", "phone"),
])
def test_a_measured_value_a_time_of_day_or_a_phone_is_specific(old: str, new: str, kind: str) -> None:
    assert specific_value(old, new) == kind


@pytest.mark.parametrize(("old", "new"), [
    ("Violin #42 is waiting on a replacement fingerboard.", "The fingerboard for #42 arrived and is fitted."),
    ("4月2号带儿子去儿童医院看了过敏性鼻炎。", "4月2号带女儿去儿童医院打了水痘疫苗。"),
    ("Left knee: no running for 6 weeks.", "Right shoulder: no overhead presses for 6 weeks."),
    ("The card gives 3% cashback on groceries.", "The card charges a 3% foreign transaction fee."),
    ("Photos are not permitted in Lab 3.", "Visitors are escorted in Lab 3."),
    ("The deposit is $2,400.", "The deposit is $2,500."),
    ("Support mailbox: help@example.org", "Write to help@example.org for support."),  # codes are left off
])
def test_counts_dates_durations_shares_codes_and_unequal_values_are_not(old: str, new: str) -> None:
    assert specific_value(old, new) is None


def test_merge_p_lowers_the_gate_threshold_only_for_a_specific_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(measured_value, "SPECIFIC_MERGE_P", None)
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.96) == 0.96
    monkeypatch.setattr(measured_value, "SPECIFIC_MERGE_P", 0.75)
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.96) == 0.75
    assert merge_p("Violin #42 is a Strad.", "#42 got a new fingerboard.", 0.96) == 0.96
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.7) == 0.7


# --------------------------------------------------------------------------- round 27: what the tier must not read
#: the same phone or amount said again (texts written for these tests): the tier lowers p(merge)
RESTATED = [
    ("Call the piano tuner, Ilse, on 0161 496 0733.", "Piano tuner Ilse - phone 0161-496-0733."),
    ("物业维修师傅老韩的手机是 139 0021 4477。", "老韩（物业修水管的）电话：13900214477。"),
    ("The kids' swim lessons cost $180 a term.", "Swim lessons for the kids run 180 dollars per term."),
    ("女儿的钢琴课每节 260 元。", "闺女钢琴课一次 260 块。"),
]
#: the same phone or amount, the new text saying it ended or changed: the tier must not lower p(merge)
ENDED = [
    ("Call the piano tuner, Ilse, on 0161 496 0733.", "Ilse's 0161 496 0733 line is disconnected, skip it."),
    ("物业维修师傅老韩的手机是 139 0021 4477。", "老韩那个 139 0021 4477 已经停机了，别再打。"),
    ("The kids' swim lessons cost $180 a term.", "We cancelled the kids' swim lessons ($180 a term)."),
    ("女儿的钢琴课每节 260 元。", "每节 260 元的钢琴课不上了，女儿改学画画。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATED)
def test_a_shared_phone_or_amount_restated_lowers_the_gate(old: str, new: str) -> None:
    assert specific_value(old, new) is not None
    assert measured_value.SPECIFIC_MERGE_P is not None  # shipped on (round 27; off on main)
    assert merge_p(old, new, 0.96) == measured_value.SPECIFIC_MERGE_P < 0.96


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_a_shared_value_said_ended_or_changed_keeps_the_gate(old: str, new: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(measured_value, "SPECIFIC_MERGE_P", 0.75)
    assert specific_value(old, new) is not None
    assert measured_value.change_read(old, new)
    assert merge_p(old, new, 0.96) == 0.96  # on main: 0.75, the new fact merged away


def test_a_phone_said_disconnected_is_a_change_where_the_engine_reads_voided_lines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shipped, the engine's change evidence leaves `endings.voided` off (two other memories retired through the
    engine, docs/benchmarks.md "Hygiene, round 27"): the pair is kept and linked, never merged; with it on, a change."""
    for old, new in ENDED[:2]:
        assert classify_rules(old, new, 0.9).label != "duplicate"
    monkeypatch.setattr(endings, "VOIDED_CHANGES", True)
    for old, new in ENDED[:2]:
        assert classify_rules(old, new, 0.9).label == "override"  # on main: no such reading


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("食堂早餐7点开始供应。", "食堂晚餐供应到晚上7点。", None),  # 7点 shares 19:00 only by its evening reading
    ("Breakfast service opens at 7.30 on the terrace.", "Dinner on the terrace ends at 7:30 pm.", None),
    ("Classes begin at 8:15 for the juniors.", "Juniors start class at a quarter past eight.", "clock"),  # alike
    ("The nightly export runs at 2 a.m. UTC.", "Nightly export: 02:00 UTC.", "clock"),  # 24-hour clock
    ("十点前别排会，我早上脑子不转。", "会议请约在上午10点以后。", "clock"),  # 早上 on its side
])
def test_a_time_of_day_counts_only_said_alike(old: str, new: str, kind: str | None) -> None:
    assert specific_value(old, new) == kind


@pytest.mark.parametrize(("old", "new"), [
    ("Monthly rent on the flat is $1,640.", "The security deposit came to $1,640."),  # two attributes, equal
    ("周末停车费 30 元。", "洗一次车 30 元。"),
])
def test_a_shared_value_and_no_other_shared_word_is_not_read(old: str, new: str) -> None:
    assert specific_value(old, new) is not None
    assert not measured_value.one_thing(old, new)
    assert not measured_value.tier_reads(old, new)


def test_the_tier_reads_a_shared_value_of_one_thing() -> None:
    for old, new in RESTATED:
        assert measured_value.tier_reads(old, new)
