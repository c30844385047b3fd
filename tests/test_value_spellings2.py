"""More values written two ways read as one (hygiene round 45e, `write/value_spellings2.py`, switch
`numbers.SPELLINGS_2`); own texts, both sides: a restatement of a value reads the same numbers and amounts, a near
miss - a truly different value - stays different."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from hindsight.write import numbers
from hindsight.write.amounts import quantities_differ
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.numbers import read_numbers


@pytest.fixture(autouse=True)
def _spellings_2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(numbers, "SPELLINGS_2", True)
    yield


def _differ(old: str, new: str) -> bool:
    """What the rules compare: the numbers of the pair analysis, and the amounts in base units."""
    old, new = written_alike(old, new)
    a = analyse(old, new)
    return a.old_numbers != a.new_numbers or quantities_differ(old, new)


SAME = [
    ("About two-fifths of the budget goes to rent.", "About 40% of the budget goes to rent."),
    ("Three quarters of the team work remotely.", "75% of the team work remotely."),
    ("预算的五分之二用在房租上。", "预算的40%用在房租上。"),
    ("用在房租上的预算有四成。", "用在房租上的预算有40%。"),
    ("回头客占三成五。", "回头客占35%。"),
    ("房租占预算的百分之四十。", "房租占预算的四成。"),
    ("Pickup is at half four on Friday.", "Pickup is at 16:30 on Friday."),
    ("The lease ends in March 2027.", "The lease ends 03/2027."),
    ("The lease ends in Mar '27.", "The lease ends in March 2027."),
    ("租约2027年3月到期。", "租约03/2027到期。"),
    ("租约2027年三月到期。", "The lease ends in March 2027."),
    ("热泵功率15千瓦。", "热泵功率15kW。"),
    ("每天通勤20公里。", "每天通勤20 km。"),
    ("机房温度保持在25摄氏度。", "机房温度保持在25°C。"),
]

DIFFERENT = [
    ("About two-fifths of the budget goes to rent.", "About 25% of the budget goes to rent."),
    ("预算的五分之二用在房租上。", "预算的二分之五用在房租上。"),
    ("用在房租上的预算有四成。", "用在房租上的预算有30%。"),
    ("Pickup is at half four on Friday.", "Pickup is at 3:30 on Friday."),  # "halb vier" is not the English reading
    ("Pickup is at half four on Friday.", "Pickup is at 4:00 on Friday."),
    ("Pickup is at half four on Friday.", "Pickup is at half five on Friday."),
    ("The lease ends 03/2027.", "The lease ends 3/20/27."),
    ("The lease ends in March 2027.", "The lease ends in March 2028."),
    ("租约2027年3月到期。", "租约2027年4月到期。"),
    ("热泵功率15千瓦。", "热泵功率16kW。"),
]


def _read_values(text: str) -> list[str]:
    """The values the number reading writes (the slots and the same-fact reading compare these)."""
    return sorted(re.findall(r"\d+(?:[.:/\-]\d+)*%?", read_numbers(text)))


@pytest.mark.parametrize(("old", "new"), SAME)
def test_one_value_written_two_ways_reads_equal(old: str, new: str) -> None:
    assert not _differ(old, new)
    a, b = _read_values(old), _read_values(new)
    assert len(a) == len(b) and all(numbers.same_value(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("old", "new"), DIFFERENT)
def test_a_different_value_stays_different(old: str, new: str) -> None:
    assert _differ(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [("热泵功率15千瓦。", "热泵每小时15kWh。"), ("The lease ends 03/2027.", "The lease ends Mar 27."),
     ("租约2027年3月到期。", "租约2027年3月2日到期。")],
)
def test_near_misses_are_not_written_one_way(old: str, new: str) -> None:
    assert read_numbers(old).replace("。", "") != read_numbers(new).replace("。", "")
    assert "kWh" in read_numbers("热泵每小时15千瓦时。")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("他八成是忘了。", "八成"),  # "most likely", not 80%
        ("三五成群地聊天。", "五成群"),
        ("This takes three quarters of an hour.", "quarters of an hour"),  # 45 minutes, not 75%
        ("We met in the third quarter.", "quarter"),
        ("Add half 4 cups of flour.", "half"),
        ("Dr Marshall 2027 report.", "Marshall 2027"),
    ],
)
def test_forms_that_are_not_these_values_stay(text: str, kept: str) -> None:
    assert kept in read_numbers(text)


def test_off_is_the_reading_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numbers, "SPELLINGS_2", False)
    assert read_numbers("租约2027年3月到期，功率15千瓦。") == "租约2027年3月到期，功率15千瓦。"
