"""More values written two ways, read as one (hygiene round 45e, EN and ZH; switch `numbers.SPELLINGS_2`).

Blind r40's restatements that the number reading still missed wrote one value two ways (docs/benchmarks.md "Hygiene,
round 45d"). `read_spellings2` runs in `numbers.read_numbers` after `value_spellings.read_spellings` and writes each
form below as the other side is written, so the one comparison sees one value:

* a fraction in words: two-fifths / three quarters of -> 40% / 75% (a hyphen, or "of" after it, not "of an hour");
  五分之二 -> 40%; 四成 / 三成五 -> 40% / 35% (before 的, 左右, 以上, punctuation ...: 八成是他 - probably - stays);
  only fractions that are a whole percent, a numerator below the denominator (二分之五 stays);
* a month and its year: March 2027 / Mar 2027 / Mar '27 / 03/2027 / 3/2027 / 2027年3月 -> 2027-03 (a day after it
  keeps the date: 2027年3月2日, 3/20/27, Mar 27 stay);
* a unit name after digits: 15千瓦 / 15千瓦时 / 20公里 / 25摄氏度 -> 15kW / 15kWh / 20km / 25°C (kW and kWh stay two).

`read_spellings2_after` (after the number words are digits): "half four" -> 4:30 (British: half past four), only
before a time-closing word or punctuation ("half 4 cups" stays). Positive forms only; a different value stays
different (tests: half four / 3:30, 03/2027 / 3/20/27, 15 kW / 15 kWh, 二分之五 / 40%).
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int

_EN_NUM = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9}
_EN_DEN = {"quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5, "tenth": 10, "tenths": 10}
_EN_FRACTION = re.compile(r"\b(a|one|two|three|four|five|six|seven|eight|nine)(-|\s+)(quarters?|fifths?|tenths?)\b"
                          r"(?=(\s+of\b(?!\s+(?:an?\s+)?(?:hour|mile|inch|century|year|day)))?)", re.IGNORECASE)
_ZH_D = "一二两三四五六七八九十"
_ZH_FRACTION = re.compile(rf"(?<![百千万])([{_ZH_D}]{{1,2}})分之([{_ZH_D}]{{1,2}})")
_ZH_TENTHS = re.compile(r"(?<![零〇一二两三四五六七八九十百千万\d])([一二两三四五六七八九])成([一二三四五六七八九])?"
                        r"(?=的|左右|以上|以下|上下|多|[，。；、,.;!?！？)）]|$)")


def _percent(num: int, den: int) -> str | None:
    if not 0 < num < den or (num * 100) % den:
        return None
    return f"{num * 100 // den}%"


def _en_fraction(m: re.Match[str]) -> str:
    if m.group(2) != "-" and m.group(4) is None:
        return m.group(0)  # "three quarters" alone: a period, a coin, a part of a house
    num, den = _EN_NUM[m.group(1).lower()], _EN_DEN[m.group(3).lower()]
    if (num == 1) != m.group(3).lower() in ("quarter", "fifth", "tenth"):
        return m.group(0)  # "two fifth", "one fifths": not a fraction as written
    return _percent(num, den) or m.group(0)


def _zh_fraction(m: re.Match[str]) -> str:
    den, num = zh_int(m.group(1).replace("两", "二")), zh_int(m.group(2).replace("两", "二"))
    return (_percent(num, den) if den and num else None) or m.group(0)


def _zh_tenths(m: re.Match[str]) -> str:
    tenths = zh_int(m.group(1).replace("两", "二")) or 0
    hundredths = zh_int(m.group(2)) if m.group(2) else 0
    return f"{tenths * 10 + (hundredths or 0)}%"


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_EN_MONTH_YEAR = re.compile(r"\b(?-i:(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?:[a-z]{0,6}))\.?,?\s+"
                            r"((?:19|20)\d{2})\b(?![/\-.]\d)")
_NUM_MONTH_YEAR = re.compile(r"(?<![\d/.\-])(0?[1-9]|1[0-2])\s*/\s*((?:19|20)\d{2})(?![\d/\-]|\.\d)")
_ZH_MONTH_YEAR = re.compile(rf"(?<!\d)((?:19|20)\d{{2}})\s*年\s*(\d{{1,2}}|[{_ZH_D}]{{1,2}})\s*月(?!\s*(?:\d|[{_ZH_D}]|底|初|中))")
_FULL_MONTH = re.compile(r"(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                         r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")


def _en_month_year(m: re.Match[str]) -> str:
    word = m.group(0).split()[0].rstrip(".,")
    if not _FULL_MONTH.fullmatch(word):
        return m.group(0)  # "Marshall 2027": not a month
    return f"{m.group(2)}-{_MONTHS.index(m.group(1).lower()) + 1:02d}"


def _zh_month_year(m: re.Match[str]) -> str:
    raw = m.group(2)
    month = int(raw) if raw.isdigit() else zh_int(raw.replace("两", "二"))
    return f"{m.group(1)}-{month:02d}" if month and 1 <= month <= 12 else m.group(0)


_ZH_UNITS = re.compile(r"(\d+(?:\.\d+)?)\s*(千瓦时|千瓦|公里|摄氏度)")
_UNIT = {"千瓦时": "kWh", "千瓦": "kW", "公里": "km", "摄氏度": "°C"}
_HALF_HOUR = re.compile(r"(?<![\w:])half\s+(\d{1,2})(?=\s*(?:$|[,.;!?)]|(?:on|at|in|tomorrow|today|tonight|then|"
                        r"and|or|sharp|instead|this|next|every|o'clock)\b))", re.IGNORECASE)


def read_spellings2(text: str) -> str:
    """`text` with the fraction, month-year and unit-name forms above written one way."""
    text = _EN_FRACTION.sub(_en_fraction, text)
    text = _NUM_MONTH_YEAR.sub(lambda m: f"{m.group(2)}-{int(m.group(1)):02d}", _EN_MONTH_YEAR.sub(_en_month_year, text))
    if re.search(r"[\u4e00-\u9fff]", text):
        text = _ZH_TENTHS.sub(_zh_tenths, _ZH_FRACTION.sub(_zh_fraction, text))
        text = _ZH_MONTH_YEAR.sub(_zh_month_year, text)
        text = _ZH_UNITS.sub(lambda m: f"{m.group(1)}{_UNIT[m.group(2)]}", text)
    return text


def read_spellings2_after(text: str) -> str:
    """After the number words are digits: "half 4" (British "half four") -> 4:30."""
    return _HALF_HOUR.sub(lambda m: f"{int(m.group(1))}:30" if 1 <= int(m.group(1)) <= 12 else m.group(0), text)
