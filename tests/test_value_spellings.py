"""One value written two ways read as one (hygiene round 45, `write/value_spellings.py`); own texts, both sides: a
restatement of a value reads the same numbers and amounts, a near miss - a truly different value - stays different."""

from __future__ import annotations

import pytest

from hindsight.write.amounts import quantities_differ
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.numbers import read_numbers


def _numbers_differ(old: str, new: str) -> bool:
    a = analyse(*written_alike(old, new))
    return a.old_numbers != a.new_numbers


def _differ(old: str, new: str) -> bool:
    """What the rules compare: the numbers of the pair analysis, and the amounts in base units."""
    old, new = written_alike(old, new)
    return _numbers_differ(old, new) or quantities_differ(old, new)


SAME = [
    ("我属龙，一九八八年出生。", "我是 88 年的，属龙。"),
    ("我是八八年出生的。", "我是 1988 年出生的。"),
    ("我 98 年毕业的。", "我是 1998 年毕业的。"),
    ("She was born in '88.", "She was born in 1988."),
    ("The car is an '08 model.", "The car is a 2008 model."),
    ("每天差一刻九点开会。", "每天 8:45 开会。"),
    ("每天九点差一刻开会。", "每天 8:45 开会。"),
    ("班车八点差十分发车。", "班车 7:50 发车。"),
    ("每天九点过五分点名。", "每天 9:05 点名。"),
    ("每天九点三刻点名。", "每天 9:45 点名。"),
    ("周会下午三点差一刻开始。", "周会 14:45 开始。"),
    ("Lunch is served at noon.", "Lunch is served at 12:00."),
    ("The backup runs at midnight.", "The backup runs at 00:00."),
    ("首付是2万5。", "首付是 25,000。"),
    ("首付是2万5。", "首付是2.5万。"),
    ("首付是2万5千。", "首付是25000。"),
    ("押金3千5。", "押金 3500。"),
    ("每周一、三、五上午八点半护士交班。", "护士交班：周一三五，8:30。"),
    ("护士每周一、三、五交班。", "护士周一周三周五交班。"),
    ("Nurses hand over on Mon, Wed and Fri.", "Nurses hand over on Monday, Wednesday and Friday."),
    ("You get a rest day after a night paged after 2am.", "You get a rest day after a night paged after two in the morning."),
    ("The dinner starts at 8pm.", "The dinner starts at 8 in the evening."),
]

DIFFERENT = [
    ("我是 88 年出生的。", "我是 2088 年出生的。"),
    ("我是 88 年出生的。", "我是 1998 年出生的。"),
    ("我是一九八八年出生的。", "我是一九八九年出生的。"),
    ("She was born in '88.", "She was born in 2088."),
    ("他在公司干了 20 年。", "他在公司干了 2020 年。"),
    ("每天差一刻九点开会。", "每天 9:15 开会。"),
    ("每天九点一刻开会。", "每天 9:45 开会。"),
    ("The backup runs at noon.", "The backup runs at midnight."),
    ("The call is at 3pm.", "The call is at 3am."),
    ("首付是2万5。", "首付是 2,500。"),
    ("首付是2.5万。", "首付是 2,500。"),
    ("押金3千5。", "押金 3005。"),
    ("护士每周一、三、五交班。", "护士每周一、三交班。"),
    ("You get a rest day after a night paged after 2am.", "You get a rest day after a night paged after two in the afternoon."),
]


@pytest.mark.parametrize(("old", "new"), SAME)
def test_one_value_written_two_ways_reads_equal(old: str, new: str) -> None:
    assert not _differ(old, new)


@pytest.mark.parametrize(("old", "new"), DIFFERENT)
def test_a_different_value_stays_different(old: str, new: str) -> None:
    assert _differ(old, new)


@pytest.mark.xfail(strict=True, reason="unchanged here: `amounts._reconciled` reads a zero-padded hour as maybe written "
                   "another way (03:20 / 15:20), so a day part against 08:30 / 20:30 is not told apart")
@pytest.mark.parametrize(("old", "new"), [("每天晚上八点半开会。", "每天 08:30 开会。"), ("每天上午八点半开会。", "每天 20:30 开会。")])
def test_a_day_part_against_a_padded_hour(old: str, new: str) -> None:
    assert _differ(old, new)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("他在公司干了 20 年。", "20 年"),  # a span of years, not 2020
        ("这家店有 30 年的历史。", "30 年"),
        ("20 年前我来过这里。", "20 年"),
        ("周三五点开会。", "周三五点"),  # Wednesday at five, not a list of weekdays
        ("周二三天都在出差。", "周二三天"),
        ("九点差不多到。", "差不多"),
        ("I take 2 in the morning and 1 at night.", "2 in the morning"),  # two pills, not a clock time
        ("Music from the '90s.", "'90s"),  # a decade
        ("Sun exposure is worst at noon.", "Sun exposure"),  # one abbreviation is no list of weekdays
    ],
)
def test_forms_that_are_not_these_values_stay(text: str, kept: str) -> None:
    assert kept in read_numbers(text)
