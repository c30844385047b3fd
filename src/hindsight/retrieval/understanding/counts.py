"""Counts and units in time expressions: English number words ("a couple of", "few") and unit
words, Chinese unit words and 半 ("half a ...")."""

from __future__ import annotations

import re

_EN_NUMBERS: dict[str, tuple[int, int, bool]] = {
    "a": (1, 1, False),
    "an": (1, 1, False),
    "one": (1, 1, False),
    "a couple of": (2, 3, True),
    "a couple": (2, 3, True),
    "couple of": (2, 3, True),
    "a few": (2, 5, True),
    "few": (2, 5, True),
    "several": (3, 7, True),
    "a dozen": (12, 12, False),
}
for _i, _w in enumerate(
    ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"],
    start=2,
):
    _EN_NUMBERS[_w] = (_i, _i, False)
for _w, _i in {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100}.items():
    _EN_NUMBERS[_w] = (_i, _i, False)

_EN_NUM = (
    r"(?:\d{1,3}|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|a\s+dozen|few|several|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|an?)"
)


def _en_number(s: str) -> tuple[int, int, bool] | None:
    """English count -> (lo, hi, vague)."""
    s = re.sub(r"\s+", " ", s.strip().lower())
    if s.isdigit():
        n = int(s)
        return (n, n, False)
    return _EN_NUMBERS.get(s)


_EN_UNIT = r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?|decades?)"


def _en_unit(s: str) -> str:
    s = s.lower()
    for prefix, unit in (
        ("mi", "minute"),
        ("h", "hour"),
        ("da", "day"),
        ("w", "week"),
        ("mo", "month"),
        ("de", "decade"),
    ):
        if s.startswith(prefix):
            return unit
    return "year"


_ZH_NUM = r"(?:\d{1,3}|好几|几|半|[零〇一二两三四五六七八九十百]{1,4})"
_ZH_MONTH_NUM = r"(?:1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
_ZH_DAY_NUM = r"(?:3[01]|[12]\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"


_ZH_UNITS = {
    "分钟": "minute",
    "小时": "hour",
    "钟头": "hour",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}
_ZH_UNIT = r"(?:分钟|小时|钟头|天|日|周|星期|礼拜|月|年)"


def _zh_half(unit: str) -> tuple[str, int, int]:
    """"半" + unit -> an equivalent (unit, lo, hi): 半年 = 6 months, 半个月 ≈ 12-18 days."""
    return {
        "year": ("month", 6, 6),
        "month": ("day", 12, 18),
        "week": ("day", 3, 4),
        "day": ("hour", 12, 12),
        "hour": ("minute", 30, 30),
        "minute": ("minute", 1, 1),
    }[unit]
