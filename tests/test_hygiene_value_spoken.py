"""Hygiene round 24b: value forms said rather than written (`write.value_spoken`, read by `write.value_canon`) -
digits said one by one, w / 千 abbreviations, fractions of a unit, calendar names that are dates. Own texts; each
form both ways round."""

from __future__ import annotations

import pytest

from hindsight.write.value_canon import canonical_values, value_match

#: one value in two forms: equal both ways round
SAME = [
    ("Her cell is 555-0187.", "Her cell is five-five-five, oh-one-eight-seven."),
    ("The desk line is 212 555 0199.", "The desk line is two one two five five five zero one nine nine."),
    ("客服热线：400-820-0123。", "客服热线是四零零-八二零-零幺二三。"),
    ("他每天坐302路公交上班。", "他每天坐三零二路公交上班。"),
    ("房间号是 1208。", "房间号是幺二零八。"),
    ("新工作年薪 15w。", "新工作年薪十五万。"),
    ("这台电脑预算 8千。", "这台电脑预算 8000 元。"),
    ("Hold the plank for half a minute.", "Hold the plank for 30 seconds."),
    ("The flight is three and a half hours.", "The flight is 3.5 hrs."),
    ("Steep the tea for a minute and a half.", "Steep the tea for 90 seconds."),
    ("Rest a quarter-hour between sets.", "Rest 15 minutes between sets."),
    ("面膜敷半分钟就行。", "面膜敷30秒就行。"),
    ("平板支撑做一分半钟。", "平板支撑做90秒。"),
    ("这次出差半个月。", "这次出差15天。"),
    ("合同年底到期。", "合同12月31号到期。"),
    ("五一去杭州玩。", "劳动节去杭州玩。"),
    ("五一去杭州玩。", "5月1号去杭州玩。"),
    ("国庆节回老家。", "10月1日回老家。"),
    ("十一假期回老家。", "国庆回老家。"),
    ("元旦那天公司放假。", "1月1日公司放假。"),
    ("The party is on Christmas Day.", "The party is on December 25."),
    ("The party is on New Year's Eve.", "The party is on Dec 31."),
    ("The audit is due by the end of the year.", "The audit is due by December 31."),
    ("平安夜吃火锅。", "Christmas Eve: hot pot."),
]

#: another value, or no value at all: never equal
APART = [
    ("Her cell is 555-0187.", "Her cell is five-five-five, oh-one-eight-eight."),
    ("他每天坐302路公交上班。", "他每天坐三零三路公交上班。"),
    ("新工作年薪 15w。", "新工作年薪十六万。"),
    ("Hold the plank for half a minute.", "Hold the plank for 60 seconds."),
    ("The flight is three and a half hours.", "The flight is 3 hrs."),
    ("五一去杭州玩。", "国庆去杭州玩。"),
    ("The party is on Christmas Eve.", "The party is on December 25."),
    ("合同年底到期。", "合同6月30号到期。"),
]


@pytest.mark.parametrize(("old", "new"), SAME)
def test_one_value_said_two_ways_is_equal_both_ways(old: str, new: str) -> None:
    assert value_match(old, new).equal, (canonical_values(old), canonical_values(new))
    assert value_match(new, old).equal


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_value_is_not_equal(old: str, new: str) -> None:
    assert not value_match(old, new).equal
    assert not value_match(new, old).equal


@pytest.mark.parametrize("text", [
    "三四个人去。",           # two digits in a row: a range, not 34
    "每周六一早七点去浇水。",  # 周六 + 一早, not 六一
    "周一三五上课。",          # weekdays, not 135
    "财年底前交报告。",        # a fiscal year's end is no date
    "The report is due at fiscal year end.",
    "Pick one, two, three of them.",  # a list, not a number said digit by digit
    "五一路的那家店。",        # a road's name
    "A 15w charger.",         # watts in English text, not 万
    "5千克大米。",             # a unit (kg), not 5000
])
def test_forms_that_are_not_the_value(text: str) -> None:
    values = canonical_values(text)
    assert not any(v in ("digits:34", "digits:135", "date:12-31", "num:123", "num:150000", "num:5000", "date:5-1", "date:6-1")
                   for mention in values for v in mention), values
