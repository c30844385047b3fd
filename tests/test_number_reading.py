"""Issue 10, hygiene round 9: one amount is one number however it is written (`write.numbers`).

A restatement that spells a number out ("twenty-five", 九十, 七点四十, "$1,430") used to read as a changed value
(25 -> 20, 5; 1430 -> 430) or lost the number (digits next to Chinese characters, 三十八度五), so the judge kept
such restatements apart or saw a change where there was none. Texts written for these tests (not taken from any
evaluation set), English and Chinese. On main (a095588) every case here failed but one (下午两点半 = 14:30).
"""

from __future__ import annotations

import pytest

from hindsight.write.amounts import quantities, quantities_differ
from hindsight.write.analysis import units
from hindsight.write.numbers import read_numbers, zh_numeral


def _numbers(text: str) -> list[str]:
    return [u.text for u in units(text) if u.number]


@pytest.mark.parametrize(("words", "digits"), [
    ("The on-call stipend is ninety pounds a week.", "The on-call stipend is 90 pounds a week."),
    ("Our lab has seventy-two sample racks.", "Our lab has 72 sample racks."),
    ("The hall seats one hundred and twenty people.", "The hall seats 120 people."),
    ("Monthly rent is twenty-five hundred dollars.", "Monthly rent is 2500 dollars."),
    ("The invoice total was $1,430.", "The invoice total was 1430 dollars."),
    ("Budget: two thousand five hundred euros.", "Budget: 2,500 euros."),
    ("仓库里一共有九十箱货。", "仓库里一共有90箱货。"),
    ("会议室在十二楼。", "会议室在12楼。"),
    ("每个月房贷还八千五。", "每个月房贷还8500元。"),  # spoken: the digit after 千 counts hundreds
    ("家里每月开销一万二左右。", "家里每月开销1.2万左右。"),
    ("孩子每晚睡十小时。", "孩子每晚睡10个小时。"),
])
def test_spelled_and_digit_numbers_are_one_amount(words: str, digits: str) -> None:
    assert quantities(words) == quantities(digits) and quantities(words)
    assert not quantities_differ(words, digits)
    assert _numbers(words) == _numbers(digits)


@pytest.mark.parametrize(("a", "b"), [
    ("孩子每天七点四十之前到校。", "孩子每天7:40之前到校。"),
    ("周会下午两点半开始。", "周会 14:30 开始。"),
    ("午饭后的站会在中午12点。", "午饭后的站会 12:00 开。"),
    ("The call is at half past two.", "The call is at 2:30."),
])
def test_clock_times_read_the_same(a: str, b: str) -> None:
    assert quantities(a) == quantities(b) and quantities(a)


def test_chinese_decimal_temperature_and_digits_next_to_characters() -> None:
    assert quantities("昨晚体温三十八度五。") == quantities("昨晚体温38.5度。") == frozenset({"38.5"})
    assert quantities("一共90人报名") == frozenset({"90"})  # digits touching Chinese characters are numbers
    assert quantities_differ("一共90人报名", "一共85人报名")


def test_what_is_not_a_number_stays_a_word() -> None:
    assert zh_numeral("三十八") == 38 and zh_numeral("两万") == 20000 and zh_numeral("统一") is None
    assert "一度" in read_numbers("这家店一度很火。")  # 一度 is "once", not one degree
    assert quantities("距离3点5公里") != quantities("3:05")  # 3点5 is 3.5, not a clock time
    assert read_numbers("one two three").split() == ["1", "2", "3"]  # a list, not 123
    assert quantities("a 2:30 pm call") == frozenset({"clock:14:30"})  # no second reading of the same time


@pytest.mark.parametrize(("text", "digits"), [
    ("预算是200万", "2000000"), ("年薪150万", "1500000"), ("首付1.5万", "15000"), ("贷了1000万", "10000000"),
    ("大概0.35万", "3500"), ("3.25万人", "32500"),
])
def test_wan_amounts_read_as_plain_digits_never_exponent_form(text: str, digits: str) -> None:
    """200万 is 2000000, never '2e+06' (which later readers split into the numbers 2 and 06)."""
    out = read_numbers(text)
    assert digits in out and "e+" not in out


@pytest.mark.parametrize("text", [
    "Keep a note of the build number.", "Ops noted the outage in the runbook.", "Release notes live in the wiki.",
    "She is noting every change to the schedule.",
])
def test_note_is_not_read_as_the_negation_not(text: str) -> None:
    """The small stemmer turned note / notes / noted / noting into "not", so a note read as a negated sentence
    (judge13 found it); a real "not" / "n't" is still read."""
    assert "not" not in [u.text for u in units(text)]
    assert "not" in [u.text for u in units(text.replace(" the ", " not the ", 1))]
    assert "not" in [u.text for u in units("The build doesn't need a note.")]
