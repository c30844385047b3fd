"""Amounts in a memory: numbers with their units in base units, clock times, dates (EN and ZH).

"300 seconds" and "five minutes" are one amount, "30 minutes" and "30 days" are two; "10pm" is 22:00,
下午三点 is 15:00; 3月14日, 三月十四号 and "March 14" are one date. Used by the slot alignment (`slots`)
and by the pair analysis (`analysis`: numbers that differ only in their unit are not a changed value).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hindsight.text.spans import Taken
from hindsight.write.lexicon import normalise_numbers
from hindsight.write.numbers import reconcile

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_EN_DATE_MD = re.compile(r"\b(" + "|".join(_MONTHS) + r")[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?\b", re.IGNORECASE)
_EN_DATE_DM = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)? (" + "|".join(_MONTHS) + r")[a-z]*\b", re.IGNORECASE)
_DATE_TOKEN = re.compile(r"\bd\d{1,2}m\d{1,2}\b")
_ZH_DATE = re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")


def _dates(text: str) -> str:
    """Month and day as one token: 3月14日, 三月十四号, March 14, 14 March -> d3m14."""
    text = _ZH_DATE.sub(lambda m: f" d{int(m.group(1))}m{int(m.group(2))} ", text)
    text = _EN_DATE_MD.sub(lambda m: f" d{_MONTHS.index(m.group(1).lower()[:3]) + 1}m{int(m.group(2))} ", text)
    return _EN_DATE_DM.sub(lambda m: f" d{_MONTHS.index(m.group(2).lower()[:3]) + 1}m{int(m.group(1))} ", text)


_UNIT_BASE: dict[str, tuple[str, float]] = {}
for _dim, _table in {
    "time": {"ms millisecond milliseconds 毫秒": 0.001, "s sec secs second seconds 秒 秒钟": 1.0,
             "m min mins minute minutes 分钟 分": 60.0, "h hr hrs hour hours 小时 个小时 钟头": 3600.0,
             "d day days 天 日": 86400.0, "w wk week weeks 周 星期 礼拜": 604800.0,
             "month months 月 个月": 2592000.0, "y yr year years 年": 31536000.0},
    "bytes": {"b byte bytes 字节": 1.0, "kb k kib 千字节": 1e3, "mb mib m 兆 兆字节": 1e6, "gb gib g 吉": 1e9,
              "tb tib t": 1e12},
}.items():
    for _words, _factor in _table.items():
        for _w in _words.split():
            _UNIT_BASE.setdefault(_w, (_dim, _factor))
_QTY_RE = re.compile(
    r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)\s*-?\s*(kb|mb|gb|tb|kib|mib|gib|ms|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|"
    r"hours?|days?|weeks?|wks?|months?|years?|yrs?|毫秒|秒钟|秒|分钟|个小时|小时|钟头|天|个月|周|星期|年|兆|字节)(?![a-z])",
    re.IGNORECASE,
)
_CLOCK_RE = re.compile(r"(?<![\d:])(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])", re.IGNORECASE)
_ZH_CLOCK_RE = re.compile(r"(上午|早上|凌晨|中午|下午|傍晚|晚上)?\s*(\d{1,2})\s*(?:点|时|:(?=\d{2}))(半|(\d{2})分?|(\d)分)?")
#: Day parts after which an hour is in the afternoon (中午1点 is 13:00, 中午12点 noon).
_ZH_PM = ("中午", "下午", "傍晚", "晚上")


def _clock(hour: int, minute: int, pm: bool) -> str:
    if pm and hour < 12:
        hour += 12
    if not pm and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


@lru_cache(maxsize=8192)
def quantities(text: str) -> frozenset[str]:
    """Numbers with units, in base units ("time:300", "bytes:10000000"), clock times ("clock:22:00"),
    and the bare numbers that carry no unit."""
    text = normalise_numbers(unicodedata.normalize("NFKC", text))
    found: set[str] = set()
    text = _dates(text)
    taken = Taken(len(text))
    for m in _DATE_TOKEN.finditer(text):
        found.add("date:" + m.group(0))
        taken.add(*m.span())
    for m in _CLOCK_RE.finditer(text):
        found.add("clock:" + _clock(int(m.group(1)), int(m.group(2) or 0), m.group(3).lower().startswith("p")))
        taken.add(*m.span())
    for m in _ZH_CLOCK_RE.finditer(text):
        if taken.holds(m.start(2)):
            continue
        minute = 30 if m.group(3) == "半" else int(m.group(4) or m.group(5) or 0)  # 3点5 is 3.5, 3点5分 a time
        hour = int(m.group(2))
        if m.group(1) is None and hour == 12:
            found.add(f"clock:12:{minute:02d}")  # no day part: 12点 is noon, not midnight
        else:
            found.add("clock:" + _clock(hour, minute, m.group(1) in _ZH_PM))
        taken.add(*m.span())
    for m in re.finditer(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])", text):
        if not taken.holds(m.start()):
            found.add(f"clock:{int(m.group(1)):02d}:{m.group(2)}")
            taken.add(*m.span())
    for m in _QTY_RE.finditer(text):
        if taken.holds(m.start()):
            continue
        if m.group(2) == "年" and re.fullmatch(r"(?:19|20)\d\d", m.group(1)):
            continue  # 2024年 is the calendar year (read bare below, as "in 2024" is), not 2,024 years
        dim, factor = _UNIT_BASE.get(m.group(2).lower(), ("", 1.0))
        value = float(m.group(1)) * factor
        found.add(f"{dim}:{value:g}")
        taken.add(*m.span())
    for m in re.finditer(r"(?<![A-Za-z0-9_.:])\d+(?:\.\d+)*(?![A-Za-z0-9_:])", text):  # 90人 and 3楼 count too
        if not taken.holds(m.start()) and m.group(0) != "1":
            found.add(m.group(0))  # a bare "one" is mostly an article (一次, "a single")
    return frozenset(found)


def quantities_differ(old: str, new: str) -> bool:
    """The two texts state different amounts (after units): 30 minutes / 30 days, 10MB / 2MB."""
    a, b = quantities(old), quantities(new)
    return bool(a and b and a != b and a != _reconciled(a, b))


def _reconciled(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """`b` with clock times and years that name a value of `a` written as in `a` (15:20 / 03:20, 2016 / 16)."""
    def plain(x: str) -> str:  # clock:03:20 may have been "3:20 in the afternoon": the hour as written is lost
        return re.sub(r"^clock:0(?=\d:)", "", x).removeprefix("clock:")
    back = {plain(x): x for x in a}
    return frozenset(back.get(y, y) for y in reconcile({plain(x) for x in a}, {plain(y) for y in b}))
