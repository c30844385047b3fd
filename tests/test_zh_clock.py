"""Chinese clock hours are clock times, as "10am" / "10:30" are (currency round 14b)."""

from __future__ import annotations

import pytest

from hindsight.write.renumber import number_replaced
from hindsight.write.slot_align import _atoms
from hindsight.write.value_align import number_kind


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(a.text, number_kind(a.text)) for a in _atoms(text)[0] if a.number]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("会议改到10点。", [("10:00", "clock")]),
        ("他10点钟到", [("10:00", "clock")]),
        ("会议定在下午3点。", [("3:00", "clock")]),
        ("每天早上9点上班", [("9:00", "clock")]),
        ("晚上8点吃饭", [("8:00", "clock")]),
        ("早上七点出发", [("7:00", "clock")]),
        ("中午12点到1点午休", [("12:00", "clock"), ("1:00", "clock")]),
        ("dentist at 10am", [("10:00", "clock")]),
        ("standup at 10:30", [("10:30", "clock")]),
    ],
)
def test_clock_hours_are_clock_times(text: str, expected: list[tuple[str, str]]) -> None:
    assert _kinds(text) == expected


@pytest.mark.parametrize("text", ["第3点是预算", "这两点要注意", "3点5公里", "邮件语气正式一点", "离地铁站近一点的"])
def test_points_decimals_and_a_little_are_not_clock_times(text: str) -> None:
    assert all(kind != "clock" for _, kind in _kinds(text))


def test_a_changed_hour_is_a_clock_change_in_both_scripts() -> None:
    assert number_replaced("周会在每周一9点。", "周会改到10点了，因为老板要开早会。") == "clock 9:00 -> 10:00"
    assert number_replaced("standup at 9am", "standup moved to 10am") == "clock 09:00 -> 10:00"


def test_an_hour_written_in_other_words_is_the_same_value() -> None:
    # the day part stays a word: 8:00 is open, so 晚上8点 and 20:00 are one time, as "8:00" / "20:00" are
    assert number_replaced("每周三晚上八点开会。", "周三 20:00 开会。") == ""
    assert number_replaced("7点吃饭", "晚上7点吃饭") == ""
