"""One value, other forms: readings the same-fact agreement applies before it matches a pair's values.

`same_fact.agreement` matches the numbers, dates and codes of both sides after the shared number reading
(`lexicon.normalise_numbers`, `conversions.written_alike`). Some forms that reading leaves apart (hygiene round 17,
the released restatements whose values are the same and read as differing or as missing):

* a phone number read digit by digit in words: "oh-one-six-three-two, nine-six-oh" -> 01632 960;
* English weekday abbreviations: "Sat 09:00", "Thu 12th" name the day "Saturday" and "Thursday" name; Monday to
  Friday as a range is the working week ("Mon–Fri", 周一到周五 / "every weekday", 工作日);
* half hours and quarters spoken as durations: 半小时 / 半个钟头 = 30 分钟, 一个半小时 = 90 分钟, 一刻钟 = 15 分钟,
  钟头 = 小时; "half an hour" = 30 minutes, "an hour and a half" = 90 minutes; "a fortnight" = 14 days;
* a number glued to a word by a hyphen is an amount with its unit, not a code: "£612-a-year", "a 300-month term"
  (`same_fact._CODE` read "612-a-year" as one code the other side lacked);
* a phone number in Chinese digits (一三九零一二三四五六七), a number glued to its unit ("16GB", "500mg": no code),
  ordinals in words ("the fourteenth"), Saturday and Sunday together as the weekend (周六周日 / 周末), a Chinese
  list of weekdays under one 周 (每周一、三 = 周一、周三);
* half a year = 6 months (半年 = 6个月), 两个半月 = 2.5 个月, 一年半 = 1.5 年, 三个月一次 = 每季度
  ("a pair of" = 2, 39度2 = 39.2度);
* a comma between digits that is no thousands separator ("确认号 88321,7 月 2 日") separates two values;
* and one number as a span of time in two units is two values (`span_clashes`: "15-day retention" / "retained for
  15 months").

The agreement reads these (the gate of the same-fact scores: positive evidence that the values are one), and so,
since round 19, does `value_read` before "amounts differ" / "numbers differ" block a merge; the rules' reading of a
change is untouched. A reading opens a gate where both sides now agree and
shuts one where a value is now read on one side only ("3月2日 补了磨牙" / "3月2日 还建议半年后洗牙": 6 months is
another value; "Tue/Thu 6pm" / "Mon/Wed 6pm"). A range of days other than Monday to Friday is read as neither
("Mon–Thu" / "daily except Fridays"). Readings are of forms, not of a domain: no word list beyond numbers,
weekdays and units of time.
"""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.text.runs import sub_outside_long_runs

_DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD = "|".join(_DIGIT_WORDS)
#: three or more digit words in a row, joined by hyphens or single spaces: a number read out digit by digit; a comma
#: may stand before a hyphenated group ("five-five-five, oh-one-eight-seven"), never in a plain list ("one, two, three")
_SPELLED = re.compile(rf"\b(?:{_DIGIT_WORD})(?:(?:-|\s|,\s(?=(?:{_DIGIT_WORD})-))"
                      rf"(?:{_DIGIT_WORD})){{2,}}\b", re.IGNORECASE)
SPELLED_DIGITS = _SPELLED
_WEEKDAYS = {"mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday", "weds": "Wednesday",
             "thu": "Thursday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday", "sat": "Saturday",
             "sun": "Sunday"}
#: capitalised (or upper-case) abbreviations only, before a digit, punctuation, "and"/"or", a part of the day or
#: "monthly"/"weekly", or after "on"/"last"/"next"/"every"/"this": "Sun" and "Sat" as words ("the Sun newspaper",
#: "Sat down with Ana") are not days; Tue, Wed, Thu and Fri also before a lowercase word ("Tues meeting")
_WD = r"(?-i:Mon|Tues?|Weds?|Thu(?:rs?)?|Fri|Sat|Sun|MON|TUES?|WEDS?|THU(?:RS?)?|FRI|SAT|SUN)"
_WEEKDAY = re.compile(rf"(?P<pre>\b(?:[Oo]n|[Ll]ast|[Nn]ext|[Ee]very|[Tt]his)\s+)(?P<a>{_WD})\b\.?"
                      rf"|\b(?P<b>{_WD})\b\.?(?=\s*(?:\d|[,/&:;.)!?\-–—]|and\b|or\b|$)"
                      r"|\s+(?:morning|afternoon|evening|night|monthly|weekly)s?\b)"
                      r"|\b(?P<c>(?-i:Tues?|Weds?|Thu(?:rs?)?|Fri))\b\.?(?=\s+[a-z])")
_RANGE_END = re.compile(rf"\b{_WD}\.?\s*(?:-|–|—|to|through|thru)$")
_RANGE_START = re.compile(rf"(?:-|–|—|to\b|through\b|thru\b)\s*{_WD}\b")
#: a run of days from Monday to Friday is the working week, however named: "Mon–Fri", "Monday to Friday",
#: 周一到周五 / 周一至周五 read as "weekdays" / 工作日 (a day-by-day reading would leave 1 and 5 unmatched against
#: "every weekday")
_EN_WORKWEEK = re.compile(r"\bMon(?:day)?\.?\s*(?:-|–|—|to|through|thru)\s*Fri(?:day)?\b")
_ZH_WORKWEEK = re.compile(r"(?:周|星期|礼拜)一\s*(?:到|至|-|–|—|~)\s*(?:周|星期|礼拜)?五")
#: Saturday and Sunday named together are the weekend ("Saturdays or Sundays" / "weekends", 周六周日 / 周末)
_EN_WEEKEND = re.compile(r"\bSat(?:urday)?s?\.?\s*(?:and|or|&|/|\+|-|–|,)\s*Sun(?:day)?s?\b")
_ZH_WEEKEND = re.compile(r"(?:周|星期|礼拜)六\s*[、,，和及与/]?\s*(?:(?:周|星期|礼拜)?[日天])")
#: a Chinese list of weekdays under one 周 (每周一、三 / 周二和四): each day named in full (周1 and 周3, not 1 and 3)
_ZH_DAY_LIST = re.compile(r"(周|星期|礼拜)([一二三四五六日天])((?:\s*[、,，和及与/]\s*[一二三四五六日天](?![\w]?[点号日月年个]))+)")
#: a run of five or more Chinese digits with no unit between them is a number read digit by digit (a phone number:
#: 一三九零一二三四五六七)
_ZH_DIGIT_RUN = re.compile(r"[零〇一二三四五六七八九]{5,}")
_ZH_DIGIT = {c: str(i) for i, c in enumerate("零一二三四五六七八九")} | {"〇": "0"}
#: a number glued to a unit of size, weight, volume, distance or time ("16GB", "500mg", "23kg") is an amount, not a
#: code; a code starts with a letter or mixes them otherwise (c6i, 2xlarge, INC-2291)
_GLUED_UNIT = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)(?=(?:[kmgt]i?b?|gib|mib|kg|mg|ml|km|cm|mm|ms|min|mins|hrs?|h|s|l)\b)",
                         re.IGNORECASE)
#: English ordinals in words (the fourteenth, the twenty-first) as the number reading reads "14th"; "second" is a
#: unit of time as often as an ordinal and stays a word
_ORDINALS = {"sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
             "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
             "nineteenth": 19, "twentieth": 20, "thirtieth": 30}
_ORDINAL_TAIL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                 "ninth": 9}
_ORDINAL = re.compile(r"\b(?:(twenty|thirty)[-\s](" + "|".join(_ORDINAL_TAIL) + r")|(" + "|".join(_ORDINALS) + r"))\b",
                      re.IGNORECASE)
_ZH_NUM = "一二两三四五六七八九十"
_ZH_SMALL = {c: i for i, c in enumerate("零一二三四五六七八九十")} | {"两": 2}
_ZH_HALF_HOURS = re.compile(rf"([{_ZH_NUM}]|(?<!\d)\d+)\s*个半(?:小时|钟头|钟)")
_ZH_HALF_HOUR = re.compile(r"(?<![一二两三四五六七八九十\d个])半(?:个)?(?:小时|钟头|钟(?!点))")
_ZH_QUARTERS = re.compile(r"([一三])刻钟")
_ZH_CLOCK_HOURS = re.compile(rf"(?<=[{_ZH_NUM}\d个])\s*钟头")
_EN_HALF_HOUR = re.compile(r"\bhalf\s+an\s+hour\b", re.IGNORECASE)
_EN_HOUR_AND_HALF = re.compile(r"\b(?:an|one)\s+hour\s+and\s+a\s+half\b|\bone\s+and\s+a\s+half\s+hours?\b", re.IGNORECASE)
_EN_N_AND_HALF = re.compile(r"\b(\d+)\s+and\s+a\s+half\s+hours?\b", re.IGNORECASE)
_FORTNIGHT = re.compile(r"\ba\s+fortnight\b", re.IGNORECASE)
_EN_HALF_YEAR = re.compile(r"\b(?:half\s+a|a\s+half[-\s])\s*year\b", re.IGNORECASE)
_EN_PAIR = re.compile(r"\ba\s+pair\s+of\b", re.IGNORECASE)
_ZH_HALF_YEAR = re.compile(r"(?<![一二两三四五六七八九十\d个大多])半年")
_ZH_HALF_UNIT = re.compile(rf"([{_ZH_NUM}]|(?<!\d)\d+)\s*个半月|([{_ZH_NUM}]|(?<!\d)\d+)\s*年半")
_ZH_QUARTERLY = re.compile(r"(?:每)?(?:3|三)个月(?=一[次换结发交])")
_ZH_TENTHS_DIGIT = re.compile(r"(?<!\d)(\d+)\s*度\s*(\d)(?![\d.])")

_NUMBER_HYPHEN_WORD = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)-(?=[A-Za-z]+(?:-[A-Za-z]+)*\b)")
_NOT_THOUSANDS = re.compile(r"(?<=\d)[,，](?=\d)(?!\d{3}(?!\d))")


def spelled_digits(text: str) -> str | None:
    """A number read out digit by digit ("two-one-four", "oh-one-six") as its digits; None when `text` is not one."""
    if not _SPELLED.fullmatch(text.strip()):
        return None
    return "".join(_DIGIT_WORDS[w.lower()] for w in re.split(r"[-,\s]+", text.strip()))


def _weekday(m: re.Match[str]) -> str:
    """A weekday abbreviation in full, unless it ends a range of days other than Monday to Friday ("Mon–Thu": the
    other side says "daily except Fridays" as often as it names the days; read as neither)."""
    before, after = m.string[:m.start()].rstrip(), m.string[m.end():].lstrip()
    if _RANGE_END.search(before) or _RANGE_START.match(after):
        return m.group(0)
    return (m.group("pre") or "") + _WEEKDAYS[(m.group("a") or m.group("b") or m.group("c")).lower()]


def _zh_day_list(m: re.Match[str]) -> str:
    days = [m.group(2), *re.findall(r"[一二三四五六日天]", m.group(3))]
    return "、".join(m.group(1) + d for d in days)


def _ordinal(m: re.Match[str]) -> str:
    if m.group(3):
        return f"{_ORDINALS[m.group(3).lower()]}th"
    return f"{(20 if m.group(1).lower() == 'twenty' else 30) + _ORDINAL_TAIL[m.group(2).lower()]}th"


def _zh_half_unit(m: re.Match[str]) -> str:
    if m.group(1):
        return f"{_zh_count(m.group(1))}.5个月"
    return f"{_zh_count(m.group(2))}.5年"


def _zh_count(token: str) -> int:
    return int(token) if token.isdigit() else _ZH_SMALL[token]


def _spelled_written(m: re.Match[str]) -> str:
    """A number read out digit by digit as it is written: groups a comma parts joined by a hyphen, as a phone number
    is written ("five-five-five, oh-one-four-two" -> 555-0142)."""
    return "-".join(spelled_digits(group) or group for group in m.group(0).split(", "))


@lru_cache(maxsize=8192)
def read_values(text: str) -> str:
    """`text` with the forms above written as the number reading reads them elsewhere."""
    text = _NOT_THOUSANDS.sub(", ", text)
    text = _ZH_DIGIT_RUN.sub(lambda m: "".join(_ZH_DIGIT[c] for c in m.group(0)), text)
    text = sub_outside_long_runs(_GLUED_UNIT, r"\1 ", text)  # (fullwidth digits pass its ASCII lookbehind)
    text = _ORDINAL.sub(_ordinal, text)
    text = _SPELLED.sub(_spelled_written, text)
    text = _ZH_WORKWEEK.sub("工作日", _EN_WORKWEEK.sub("weekdays", text))
    text = _WEEKDAY.sub(_weekday, text)
    text = _ZH_DAY_LIST.sub(_zh_day_list, text)
    text = _ZH_WEEKEND.sub("周末", _EN_WEEKEND.sub("weekends", text))
    text = _ZH_HALF_HOURS.sub(lambda m: f"{_zh_count(m.group(1)) * 60 + 30}分钟", text)
    text = _ZH_HALF_HOUR.sub("30分钟", text)
    text = _ZH_QUARTERS.sub(lambda m: f"{15 * _ZH_SMALL[m.group(1)]}分钟", text)
    text = _ZH_CLOCK_HOURS.sub("小时", text)
    text = _EN_HOUR_AND_HALF.sub("90 minutes", _EN_HALF_HOUR.sub("30 minutes", text))
    text = _EN_N_AND_HALF.sub(lambda m: f"{int(m.group(1)) * 60 + 30} minutes", text)
    text = _FORTNIGHT.sub("14 days", text)
    text = _EN_PAIR.sub("2", _EN_HALF_YEAR.sub("6 months", text))
    text = _ZH_HALF_UNIT.sub(_zh_half_unit, text)
    text = _ZH_QUARTERLY.sub("每季度", _ZH_HALF_YEAR.sub("6个月", text))
    text = _ZH_TENTHS_DIGIT.sub(r"\1.\2度", text)
    return _NUMBER_HYPHEN_WORD.sub(r"\1 ", text)


_EN_SPAN = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*-?\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|"
                      r"years?|yrs?)\b")
_ZH_SPAN = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*个?\s*(秒钟?|分钟|小时|天|周|星期|个月)")
_ZH_SPAN_UNIT = {"秒": "s", "秒钟": "s", "分钟": "mi", "小时": "h", "天": "d", "周": "w", "星期": "w", "个月": "mo"}


def _spans(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m in _EN_SPAN.finditer(text):
        unit = m.group(2).lower()  # seconds, minutes, hours, days, weeks, months, years: s, mi, h, d, w, mo, y
        out.setdefault(m.group(1), set()).add(unit[:2] if unit[:2] in ("mi", "mo") else unit[0])
    for m in _ZH_SPAN.finditer(text):
        out.setdefault(m.group(1), set()).add(_ZH_SPAN_UNIT[m.group(2)])
    return out


def span_clashes(old: str, new: str) -> int:
    """How many numbers both texts give as a span of time in units that differ on every mention: "15-day
    retention" / "retained for 15 months" agree on 15 and are two values (texts as `lexicon.normalise_numbers`
    writes them)."""
    a, b = _spans(old), _spans(new)
    return sum(1 for v in a.keys() & b.keys() if not a[v] & b[v])
