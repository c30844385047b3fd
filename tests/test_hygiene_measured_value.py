"""The value gate's second tier: a shared value two facts of one subject rarely share by chance (issue 10, round 26)."""

from __future__ import annotations

import pytest

import hindsight.write.measured_value as measured_value
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
    assert measured_value.SPECIFIC_MERGE_P is None  # shipped off: the held-out measurement merged a change
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.96) == 0.96
    monkeypatch.setattr(measured_value, "SPECIFIC_MERGE_P", 0.75)
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.96) == 0.75
    assert merge_p("Violin #42 is a Strad.", "#42 got a new fingerboard.", 0.96) == 0.96
    assert merge_p("The deposit is $2,400.", "A 2400 dollar deposit.", 0.7) == 0.7
