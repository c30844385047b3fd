"""Value forms written in a way the canonical reading took apart or missed (`value_canon`, hygiene round 25).

Blind round 23's missed restatements held values `value_canon` read as different or not at all
(docs/benchmarks.md "Hygiene, round 25"): a Chinese number with two scale words read as two numbers (一亿八千万 as
1亿 and 8千万, 三万五千 as 30000 and 5000; 1亿8000万), a Chinese numeral before a unit of measure (二十公斤, 一米二 = 1.2
米), a year and month in Chinese digits (二一年九月 read as a duration, 二零二一年九月 as the bare number 2021), a
time under a minute (0.8 s / 800 milliseconds), a day written as a month and an ordinal
word ("March third" / 3 March), and an ordinal of tens in words ("ninetieth" / 90th). Each is read here as the typed
canonical values `value_canon` gives the written form, so the one matcher there pairs them; this module only widens
what a mention may be. Lexical only, positive forms only: 三万五 (a spoken 35,000 or 30,005) is left to the readers
that had it (一万八千六 is not 18,000), 六斤八两 / 十二公斤半 / 五点二公斤 / 周一升旗 stay theirs, "second" / "third"
alone are not ordinals here, and a version (v2, v1.29) is not read as a number: "v2 adds X" / "v2 adds Y" would
then state one value and open the value gate for two facts.
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int
from hindsight.write.quantity_kinds import fmt

_ZN = "零〇一二两三四五六七八九十百千"
_ZD = "零〇一二三四五六七八九"
_DIGIT = {"零": 0, "〇": 0} | {ch: i + 1 for i, ch in enumerate("一二三四五六七八九")}
_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
_MONTH_RE = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
             r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_ORD_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
              "ninth": 9}
_ORD_TEENS = {"tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
              "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ORD_TENS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
             "eightieth": 80, "ninetieth": 90}
_ORD_ANY = (rf"(?:(?:{'|'.join(_TENS)})[-\s](?:{'|'.join(_ORD_UNITS)})|{'|'.join(_ORD_TEENS)}|{'|'.join(_ORD_TENS)}"
            rf"|{'|'.join(_ORD_UNITS)})")
#: a Chinese unit of measure after a Chinese numeral: mass as `value_canon` types it (kg), the others as the number
_MASS = {"公斤": 1.0, "千克": 1.0, "斤": 0.5}
_MEASURE = "公斤|千克|斤|公里|千米|厘米|毫米|米|毫升|吨"

#: (kind, pattern) read before `quantity_forms.mentions` (`value_canon._EXTRA`, ahead of its scaled numbers)
FORMS: list[tuple[str, re.Pattern[str]]] = [
    # 一亿八千万, 三万五千, 一万零五百 (the part after the scale word ends on a unit or holds 零); 1亿8000万
    ("zh_compound", re.compile(rf"(?<![{_ZN}万亿\d])([{_ZN}]+[万亿][{_ZN}万]*[千百十万])(?![{_ZN}])"
                               r"|(?<![\d.])(\d+(?:\.\d+)?)\s*亿\s*(\d+)\s*万")),
    # 二一年九月, 二零二一年九月 (not when a day follows: 二零二一年九月三号 is a date read elsewhere)
    ("zh_year_month", re.compile(rf"(?<![{_ZN}\d])([{_ZD}]{{2}}|[{_ZD}]{{4}})\s*年\s*(十[一二]?|[一二三四五六七八九])\s*月"
                                 rf"(?!\s*[{_ZN}\d]+\s*[号日])")),
    # 一米二 (1.2 m), 二十公斤, 两公里
    ("zh_metre", re.compile(r"(?<![零〇一二两三四五六七八九十百千\d])([一二两三四五六七八九])米([一二三四五六七八九])(?![零〇一二两三四五六七八九十百千\d])")),
    ("zh_measure", re.compile(rf"(?<![{_ZN}\d.点周期拜])([{_ZN}]+)\s*({_MEASURE})(?!\s*[{_ZN}半])")),
    ("subsecond", re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(ms|msec|milliseconds?|s|secs?)\b(?!['’]\w)", re.IGNORECASE)),
    ("month_ordinal", re.compile(rf"\b{_MONTH_RE}\.?\s+(?:the\s+)?({_ORD_ANY})\b|\b(?:the\s+)?({_ORD_ANY})\s+of\s+"
                                 rf"{_MONTH_RE}\b", re.IGNORECASE)),
    ("ordinal_tens", re.compile(rf"\b((?:{'|'.join(_TENS)})[-\s](?:{'|'.join(_ORD_UNITS)})|{'|'.join(_ORD_TENS)}"
                                rf"|{'|'.join(k for k in _ORD_TEENS if k != 'tenth')})\b", re.IGNORECASE)),
]
KINDS = frozenset(kind for kind, _ in FORMS)


def _ordinal(word: str) -> int | None:
    word = re.sub(r"[-\s]+", " ", word.lower())
    if " " in word:
        tens, unit = word.split(" ", 1)
        return _TENS[tens] + _ORD_UNITS[unit] if tens in _TENS and unit in _ORD_UNITS else None
    return _ORD_UNITS.get(word) or _ORD_TEENS.get(word) or _ORD_TENS.get(word)


def _number(value: float) -> frozenset[str]:
    return frozenset({f"num:{fmt(value)}", f"money:CNY:{fmt(value)}", f"money:USD:{fmt(value)}"})


def read(kind: str, m: re.Match[str]) -> frozenset[str]:  # noqa: C901 - one branch per kind, read together
    """The canonical values of one mention of `kind` (empty where the form is not a value after all)."""
    g = m.group
    if kind == "zh_compound":
        if g(1):
            value = zh_int(g(1))
            return _number(float(value)) if value else frozenset()
        return _number(float(g(2)) * 1e8 + float(g(3)) * 1e4)
    if kind == "zh_year_month":
        digits = "".join(str(_DIGIT[ch]) for ch in g(1))
        year = int(digits) + (2000 if len(digits) == 2 else 0)
        month = zh_int(g(2))
        return frozenset({f"ym:{year}-{month}"}) if month and 1 <= month <= 12 else frozenset()
    if kind == "zh_metre":
        return frozenset({f"num:{zh_int(g(1))}.{zh_int(g(2))}"})
    if kind == "zh_measure":
        value = zh_int(g(1))
        if value is None:
            return frozenset()
        if g(2) in _MASS:
            return frozenset({f"mass:{fmt(value * _MASS[g(2)])}"})
        return frozenset({f"num:{fmt(float(value))}", f"digits:{value}"})
    if kind == "subsecond":
        number = float(g(1))
        unit = g(2).lower()
        if unit == "s" and "." not in g(1) and not m.group(0)[len(g(1)):].startswith((" ", "\u00a0")):
            return frozenset()  # 1990s: a decade, not seconds
        if unit.startswith("m"):
            return frozenset({f"dur:{fmt(number / 1000)}", f"num:{fmt(number)}", f"digits:{g(1)}"})
        return frozenset({f"dur:{fmt(number)}"})
    if kind == "month_ordinal":
        month_word = (g(1) or g(4)).lower()
        month = next(i for name, i in _MONTHS.items() if name.startswith(month_word[:3]))
        day = _ordinal(g(2) or g(3))
        return frozenset({f"date:{month}-{day}"}) if day and day <= 31 else frozenset()
    value = _ordinal(g(1))
    return frozenset({f"num:{value}", f"digits:{value}"}) if value else frozenset()
