"""One value written two ways, read as one (hygiene round 45, EN and ZH).

Blind r39 read three restatements as changes because one value was written two ways (docs/benchmarks.md "Round 39
misses (analysis)"): 一九八八年 / 88 年 (the amount reading took "88 年" for eighty-eight years), 周一、三、五 / 周一三五
(the number reading read the digit run 一三五 as 5). `read_spellings(text)` runs first in `numbers.read_numbers` (switch
`numbers.SPELLINGS`) and writes each form below as the reading already writes the other side, so the one comparison
(`numbers.same_value`, `amounts.quantities`) sees one value:

* a two-digit year where the text says it is a year: 88 年 / 八八年 (born, graduated, joined, a month after it, 的 /
  是 / 于 around it; never after 了 / 有 / 近 / 满 ..., never before 多 / 以上 / 的时间 ...: 干了 20 年 stays twenty
  years) and '88 / '08 in English -> 1988 / 2008 (30 - 99: 19xx, 00 - 29: 20xx; so 88 年 never equals 2088);
* a clock time said against the next hour or with quarters: 差一刻九点 / 九点差一刻 -> 8:45, 八点差十分 -> 7:50,
  九点过五分 -> 9:05, 九点三刻 -> 9:45 (a day part before it stays: 下午三点差一刻 -> 下午2:45);
* noon and midnight after a word that introduces a time (at / by / until / before / from / around / 12): 12:00 and
  00:00 (00:00 is on the 24-hour dial: never the same as 12:00);
* digits with a spoken tail: 2万5 / 2万5千 -> 25000, 2万5000 -> 25000, 3千5 -> 3500 (the reading wrote 2万5 as 200005);
* a list of weekdays: 周一三五 / 周一、三、五 / 周一周三周五 -> 周一、周三、周五 (strictly increasing, never before a
  numeral, 点, 号, 个 ...: 周三五点 is Wednesday at five); Mon, Wed and Fri -> Monday, Wednesday and Friday (two
  abbreviations in one list at least).

Lexical, positive forms only; a different value stays different (tests: 88 年 / 2088, 晚上八点半 / 08:30, 2万5 /
2,500, 周一三五 / 周一三).
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int

_ZD = "零〇一二两三四五六七八九"
_ZN = _ZD + "十"
_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_DAY_PART = "上午|早上|早晨|清晨|凌晨|中午|下午|傍晚|晚上|夜里|晚"

# ------------------------------------------------------------------------------------------------ two-digit years
_ZH_YY = re.compile(rf"(?<![\d.,:])(\d{{2}}|[{_ZD}]{{2}})(?![\d.])(\s*)年")
#: after a two-digit year, what says a calendar year (出生, 毕业, a month, 的 not opening a span of time ...)
_YEAR_AFTER = re.compile(rf"\s*(?:的(?!时间|经验|工龄|历史|教龄|功夫|光景)|出生|生|人|毕业|入职|入学|参加|加入|进|结婚|开始|成立|"
                         rf"创办|买|那|时|就|初|底|末|春|夏|秋|冬|上半年|下半年|年中|(?:\d{{1,2}}|[{_ZN}]{{1,3}})\s*月)")
_YEAR_BEFORE = re.compile(r"(?:是|于|在|从|自|到|至|属|生于|出生于)\s*$")
#: before a two-digit 年, what says a span of years (干了 20 年, 有 30 年, 近 10 年)
_SPAN_BEFORE = re.compile(r"(?:了|过|有|近|满|多|整|共|足|约|达|快|这|那|前|后|每|第|几|头|超过|不到|将近|差不多)\s*$")
_SPAN_AFTER = re.compile(r"\s*(?:多|了|以上|以下|以来|以内|左右|之久|之内|之后|之前|内|间|里|来|后|前|的时间|的经验|的历史|的工龄)")
_EN_YY = re.compile(r"(?:(?<=\s)|^|(?<=\())['\u2019](\d{2})(?![\d'\u2019%\w])")


def _century(yy: int) -> int:
    return (1900 if yy >= 30 else 2000) + yy


def _zh_year(m: re.Match[str]) -> str:
    raw = m.group(1)
    if not raw.isdigit() and "两" in raw:
        return m.group(0)  # 两 is a count, never a digit of a year
    yy = int(raw) if raw.isdigit() else int("".join(str(_DIGIT[c]) for c in raw))
    before, after = m.string[max(0, m.start() - 4):m.start()], m.string[m.end():m.end() + 6]
    if _SPAN_BEFORE.search(before) or _SPAN_AFTER.match(after):
        return m.group(0)
    if not (_YEAR_AFTER.match(after) or _YEAR_BEFORE.search(before)):
        return m.group(0)
    return f"{_century(yy)}{m.group(2)}年"


# ------------------------------------------------------------------------------------------------ clock times
_H = r"(\d{1,2}|十[一二]?|[一二两三四五六七八九])"
_MIN = rf"(一刻|(?:\d{{1,2}}|[{_ZN}]{{1,3}})\s*分(?:钟)?)"
_CHA_BEFORE = re.compile(rf"差\s*{_MIN}\s*({_DAY_PART})?\s*{_H}\s*点(?:钟)?")
_CHA_AFTER = re.compile(rf"({_DAY_PART})?\s*{_H}\s*点(?:钟)?\s*(差|过)\s*{_MIN}")
_QUARTERS = re.compile(rf"({_DAY_PART})?\s*{_H}\s*点\s*([一三])刻(?!钟)")


def _number(raw: str) -> int | None:
    raw = re.sub(r"\s*分(?:钟)?$", "", raw)
    if raw == "一刻":
        return 15
    return int(raw) if raw.isdigit() else zh_int(raw.replace("两", "二"))


def _said_clock(part: str | None, hour_raw: str, minute_raw: str, way: str) -> str | None:
    hour, minute = _number(hour_raw), _number(minute_raw)
    if hour is None or minute is None or not 1 <= hour <= 12 or not 1 <= minute <= 29:
        return None
    if way == "过":
        return f"{part or ''}{hour}:{minute:02d}"
    return f"{part or ''}{(hour - 1) or 12}:{60 - minute:02d}"


def _cha_before(m: re.Match[str]) -> str:
    return _said_clock(m.group(2), m.group(3), m.group(1), "差") or m.group(0)


def _cha_after(m: re.Match[str]) -> str:
    return _said_clock(m.group(1), m.group(2), m.group(4), m.group(3)) or m.group(0)


def _quarters(m: re.Match[str]) -> str:
    hour = _number(m.group(2))
    if hour is None or not 0 <= hour <= 23:
        return m.group(0)
    return f"{m.group(1) or ''}{hour}:{15 if m.group(3) == '一' else 45}"


_NOON = re.compile(r"(?:\b(at|by|until|till|before|from|around|about|between)\s+|\b(12)\s*)(noon|midday|midnight)\b",
                   re.IGNORECASE)


def _noon(m: re.Match[str]) -> str:
    clock = "00:00" if m.group(3).lower() == "midnight" else "12:00"
    return f"{m.group(1)} {clock}" if m.group(1) else clock


# ------------------------------------------------------------------------------------------------ spoken tails
_WAN_TAIL = re.compile(r"(?<![\d.,])(\d{1,4})万(?:(\d)(?:千)?|(\d{4}))(?![\d.,百千万亿])")
_QIAN_TAIL = re.compile(r"(?<![\d.,])(\d{1,3})千(\d)(?:百)?(?![\d.,百千万亿])")


def _wan_tail(m: re.Match[str]) -> str:
    tail = int(m.group(2)) * 1000 if m.group(2) else int(m.group(3))
    return str(int(m.group(1)) * 10_000 + tail)


def _qian_tail(m: re.Match[str]) -> str:
    return str(int(m.group(1)) * 1000 + int(m.group(2)) * 100)


# ------------------------------------------------------------------------------------------------ weekday lists
_WD = {c: i + 1 for i, c in enumerate("一二三四五六")} | {"日": 7}
# one way only to split the blanks around a separator (`\s*[、]?\s*` had k + 1 per blank run: exponential backtracking)
_ZH_WEEKDAYS = re.compile(r"(周|星期|礼拜)([一二三四五六日天])((?:(?:\s*[、和及与]\s*|\s*)(?:周|星期|礼拜)?[一二三四五六日])+)"
                          rf"(?![{_ZN}百千万\d点时号月分个年天次刻半:：])")
_ABBR = r"(?-i:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)"
_EN_WEEKDAYS = re.compile(rf"\b{_ABBR}\b\.?(?:\s*(?:,|/|&|-|\band\b|\bor\b)\s*{_ABBR}\b\.?)+")
_FULL = {"Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
         "Thur": "Thursday", "Thurs": "Thursday", "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday"}


def _zh_weekdays(m: re.Match[str]) -> str:
    days = [_WD["日" if m.group(2) == "天" else m.group(2)]]
    days += [_WD[c] for c in re.findall(r"[一二三四五六日]", m.group(3))]
    if any(b <= a for a, b in zip(days, days[1:], strict=False)):
        return m.group(0)
    names = "一二三四五六日"
    return "、".join(f"{m.group(1)}{names[d - 1]}" for d in days)


def _en_weekdays(m: re.Match[str]) -> str:
    return re.sub(rf"\b({_ABBR})\b\.?", lambda w: _FULL[w.group(1)], m.group(0))


# after the number words are digits: "two in the morning" / "at 8 in the evening" (a clock word before the hour, so
# "I take 2 in the morning" - two pills - stays a count)
_PART_CLOCK = re.compile(r"\b(at|around|about|by|until|till|before|after|from|past|to|between|and)(\s+)(\d{1,2})"
                         r"(?::(\d{2}))?\s+(?:o'clock\s+)?(in\s+the\s+morning|in\s+the\s+afternoon|in\s+the\s+evening|"
                         r"at\s+night)\b", re.IGNORECASE)
_PART_PM = {"afternoon": range(1, 7), "evening": range(5, 12), "night": range(6, 12)}


def _part_clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group(3)), int(m.group(4) or 0)
    part = m.group(5).split()[-1].lower()
    if not 1 <= hour <= 12 or minute > 59:
        return m.group(0)
    if part == "morning":
        if hour == 12:
            return m.group(0)
    elif hour in _PART_PM[part]:
        hour += 12
    elif not (part == "afternoon" and hour == 12) and not (part == "night" and hour <= 4):
        return m.group(0)  # 11 in the afternoon: not a reading
    return f"{m.group(1)}{m.group(2)}{hour:02d}:{minute:02d}"  # marked, as 7am -> 07:00 is


def read_spellings_after(text: str) -> str:
    """After the number words are digits: an hour said with its part of the day ("2 in the morning" -> 02:00)."""
    return _PART_CLOCK.sub(_part_clock, text)


def read_spellings(text: str) -> str:
    """`text` with the value forms above written as the number reading writes the other side."""
    if re.search(r"[\u4e00-\u9fff]", text):
        text = _ZH_YY.sub(_zh_year, text)
        text = _CHA_BEFORE.sub(_cha_before, text)
        text = _CHA_AFTER.sub(_cha_after, text)
        text = _QUARTERS.sub(_quarters, text)
        text = _ZH_WEEKDAYS.sub(_zh_weekdays, text)
        text = _QIAN_TAIL.sub(_qian_tail, _WAN_TAIL.sub(_wan_tail, text))
    text = _EN_YY.sub(lambda m: str(_century(int(m.group(1)))), text)
    text = _NOON.sub(_noon, text)
    return _EN_WEEKDAYS.sub(_en_weekdays, text)
