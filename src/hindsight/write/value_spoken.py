"""Value forms said rather than written, for the one canonical value reading (`value_canon`, hygiene round 24b).

Round 22's missed restatements held 16 values `value_canon` read as different or not at all (docs/benchmarks.md
"Hygiene, round 24", round 22's misses). This module reads the fractions of a unit ("half a minute" / 30 seconds,
"three and a half hours" / 3.5 hrs, "a minute and a half", "quarter-hour", 半分钟, 半个月, 一分半钟) and calendar
names that are one day of the year (年底 / 12月31号, 五一 / 劳动节 / 5月1号, 国庆, 十一假期, 元旦, Christmas Day, New
Year's Eve, "the end of the year") as the typed canonical values `value_canon` already gives the written form
(`dur:` in seconds, `date:M-D`), so a pair is read by the one matcher there; this module only widens what a mention
may be. Digits said one by one are read where they were already (`value_forms.spelled_digits`: groups a comma
parts, "five-five-five, oh-one-eight-seven"; `quantity_kinds.zh_digit_groups`: 四零零, 三零二路, 幺), and 15w / 5千 by
`value_canon`'s scaled numbers. Lexical only, positive forms only: a bare 十一 is eleven, not 国庆; a fiscal or
school year's end is no date; 五一路 is a road.
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int

_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800, "month": 2592000, "year": 31536000,
            "秒": 1, "秒钟": 1, "分钟": 60, "分": 60, "小时": 3600, "个小时": 3600, "个钟头": 3600, "个钟": 3600, "天": 86400,
            "周": 604800, "个星期": 604800, "个礼拜": 604800, "个月": 2592000}
_EN_UNIT_WORD = r"(second|minute|hour|day|week|month|year)"
_EN_UNIT = _EN_UNIT_WORD + r"s?\b"
_EN_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
             "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
#: calendar names that are one day of the year, as `date:M-D`
_CALENDAR = {"christmas eve": "12-24", "christmas": "12-25", "new year's eve": "12-31", "new year's day": "1-1",
             "halloween": "10-31", "valentine's day": "2-14", "end of the year": "12-31", "year-end": "12-31",
             "year end": "12-31", "end of year": "12-31",
             "元旦": "1-1", "五一": "5-1", "劳动节": "5-1", "国庆": "10-1", "十一": "10-1", "圣诞": "12-25", "平安夜": "12-24",
             "情人节": "2-14", "万圣节": "10-31", "儿童节": "6-1", "六一": "6-1", "年底": "12-31", "年末": "12-31"}
_ZN_NEAR = "零〇幺一二两三四五六七八九十百千万亿"

#: (kind, pattern) read before `quantity_forms.mentions` (`value_canon._EXTRA`)
EARLY: list[tuple[str, re.Pattern[str]]] = [
    # half a minute, three and a half hours, a quarter-hour, a minute and a half
    ("en_fraction", re.compile(
        rf"\b(?:(?:(\d+|{'|'.join(_EN_COUNT)})\s+and\s+a\s+half\s+{_EN_UNIT})|(?:half\s+an?\s+{_EN_UNIT})"
        rf"|(?:an?\s+{_EN_UNIT_WORD}\s+and\s+a\s+half\b)|(?:(?:a\s+)?quarter[-\s]hour\b))", re.IGNORECASE)),
    ("calendar_en", re.compile(r"\b(?:christmas\s+eve|christmas(?:\s+day)?|new\s+year's\s+(?:eve|day)|halloween"
                               r"|valentine's\s+day|(?:the\s+)?end\s+of\s+(?:the\s+)?year|year[-\s]end)\b"
                               r"(?<!fiscal year end)(?<!fiscal year-end)", re.IGNORECASE)),
    ("calendar_zh", re.compile(rf"元旦|劳动节|国庆(?:节)?|圣诞(?:节)?|平安夜|情人节|万圣节|儿童节"
                               rf"|(?<![{_ZN_NEAR}\d周期拜])(?:五一|六一)(?![{_ZN_NEAR}\d点号日月路早])"
                               rf"|(?<![{_ZN_NEAR}\d])十一(?=小?长假|假期|黄金周|期间|放假)"
                               r"|(?<![财学会务半])年(?:底|末)")),
    # 半小时 is read elsewhere; 半个月 / 半周 / 半分钟 and 一分半钟 (not 半天: as often "a long while" as half a day)
    ("zh_half", re.compile(r"(?<![一二两三四五六七八九十\d个大多])半(个月|个星期|个礼拜|周|分钟|秒钟?)"
                           r"|(?<![一二两三四五六七八九十\d])([一二两三四五六七八九十\d]+)分半(?:钟)?")),
]
def _count(raw: str) -> float | None:
    if raw.isdigit():
        return float(raw)
    return float(_EN_COUNT[raw.lower()]) if raw.lower() in _EN_COUNT else None


def read(kind: str, m: re.Match[str]) -> frozenset[str]:
    """The canonical values of one mention of `kind` (empty where the form is not a value after all)."""
    g = m.group
    if kind == "en_fraction":
        if g(1):
            count = _count(g(1))
            return frozenset({f"dur:{int((count + 0.5) * _SECONDS[g(2).lower()])}"}) if count else frozenset()
        if g(3):
            return frozenset({f"dur:{_SECONDS[g(3).lower()] // 2}"})
        if g(4):
            return frozenset({f"dur:{_SECONDS[g(4).lower()] * 3 // 2}"})
        return frozenset({"dur:900"})
    if kind == "zh_half":
        if g(1):
            return frozenset({f"dur:{_SECONDS[g(1)] // 2}"})
        minutes = int(g(2)) if g(2).isdigit() else zh_int(g(2))
        return frozenset({f"dur:{int(minutes * 60 + 30)}"}) if minutes else frozenset()
    name = re.sub(r"\s+", " ", g(0).lower())
    name = re.sub(r"^the ", "", name)
    for key, day in _CALENDAR.items():
        if name.startswith(key) or name.endswith(key) or (kind == "calendar_zh" and key in name):
            return frozenset({f"date:{day}"})
    return frozenset()
