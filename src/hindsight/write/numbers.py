"""Reading numbers written out, so that one amount is one number however it is written (EN and ZH).

"twenty-five", "one hundred and twenty", "ninety-nine" -> 25, 120, 99; "$1,430" -> 1430; "half past two" -> 2:30;
九十箱 -> 90箱, 七点四十 -> 7:40, 三十八度五 -> 38.5度. Used by `lexicon.normalise_numbers`, which the pair analysis, the
slots and the amounts read: a restatement that spells a number out must not look like a changed value.
"""

from __future__ import annotations

import re

from hindsight.write.numbers_said import read_after_words, read_before_words
from hindsight.write.value_spellings import read_spellings, read_spellings_after
from hindsight.write.value_spellings2 import read_spellings2, read_spellings2_after

#: Whether the number reading reads the forms of `numbers_said` (hygiene round 31); False replays main's reading.
SAID_FORMS = True
#: Whether it reads the forms of `value_spellings` first (hygiene round 45: 88 年 / 1988, 差一刻九点, 2万5, 周一三五);
#: False replays the reading before it.
SPELLINGS = True
#: Whether it reads the forms of `value_spellings2` (hygiene round 45e: two-fifths / 四成 / 40%, March 2027 /
#: 03/2027 / 2027年3月, 15千瓦 / 15kW, "half four"); False replays the reading before it.
SPELLINGS_2 = False


def reading_key() -> tuple[bool, bool, bool]:
    """The switches the number reading reads: the key of the readings kept by text (`conversions`, `same_fact`)."""
    return SAID_FORMS, SPELLINGS, SPELLINGS_2

_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD = "|".join(sorted([*_SMALL, *_TENS, *_SCALES], key=len, reverse=True))
# a run of cardinal words joined by spaces, hyphens or "and" ("one hundred and twenty", "twenty-five")
_EN_RUN = re.compile(rf"\b(?:{_WORD})(?:(?:\s*-\s*|\s+(?:and\s+)?)(?:{_WORD}))*\b", re.IGNORECASE)
_HALF_PAST = re.compile(r"\bhalf\s+past\s+(\d{1,2})\b", re.IGNORECASE)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")

ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
ZH_NUM_CHARS = "零〇一二两三四五六七八九十百千万"
# minutes after a clock hour (7点四十, 7点零五分, 3点半; "3点5" is 3.5, so a lone digit needs 分), the tenths of a
# temperature (38度五)
_ZH_MINUTES = re.compile(rf"(\d{{1,2}})\s*点\s*(半|[{ZH_NUM_CHARS}]+|\d{{1,2}})\s*(分)?")
# a well-formed Chinese numeral with a unit character (九十, 三十八, 一百二十, 两千五百, 一万二): a number before any
# word, not only a measure word (九十箱, 十二楼); 万一, 千万, 十分 and lone digits (一起, 统一) are not of this form.
# A digit right after 万/千/百 counts in the next unit down, as spoken: 八千五 is 8500, 一万二 12000, 三百五 350.
_D = "一二两三四五六七八九"
_ZH_COMPOUND = re.compile(
    rf"(?<![{ZH_NUM_CHARS}])(?=[{_D}十][{ZH_NUM_CHARS}])(?:(?:[{_D}]?十[{_D}]?|[{_D}])万)?(?:[{_D}]千)?(?:[{_D}]百)?零?(?:[{_D}]?十)?"
    rf"[一二三四五六七八九]?(?![{ZH_NUM_CHARS}])"
)
# a clock hour (10点, 9 点钟, 下午3点): a clock time, as "10am" / "10:30" are, not an amount. Not 第3点 / 这两点 (points
# of a list), not 3点5 (a decimal); 1点 only after a day part, before 钟 or after 到, as 一点 is mostly "a little"
# (近一点, 正式一点). The day part stays a word: the hour is not moved or marked by it (晚上8点 -> 晚上8:00, which
# `same_value` reads as 8:00 or 20:00; marking it kept released restatements apart: "Currency, round 14b").
_DAY_PARTS = "上午|早上|早晨|清晨|凌晨|半夜|深夜|早|中午|下午|傍晚|晚上|夜里|今晚|明晚|昨晚|每晚|晚"
_ZH_HOUR = re.compile(rf"(?:({_DAY_PARTS})\s*)?(?<![\d.:])(\d{{1,2}})\s*点(钟)?(?!\s*[\d半零〇一二两三四五六七八九十])")
_ZH_TENTHS = re.compile(rf"(?<!\d)(\d+)\s*度\s*([{ZH_NUM_CHARS[:-4]}])(?![{ZH_NUM_CHARS}])")
_SPOKEN_TAIL = {"万": 1000, "千": 100, "百": 10}
# digits before 万 (1.2万, 3万): the whole amount
_WAN = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*万(?![一二三四五六七八九])")


def zh_numeral(text: str) -> int | None:
    """The value of a Chinese numeral (三十八 -> 38, 两万 -> 20000), None when `text` is not one."""
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ZH_UNITS:
            unit = ZH_UNITS[ch]
            if unit == 10_000:
                section = (section + (digit or 0)) * unit
                total += section
                section = 0
            else:
                section += (1 if digit is None else digit) * unit
            digit = None
        else:
            return None
    return total + section + (digit or 0)


def _en_values(run: str) -> list[int]:
    """The numbers of a run of cardinal words: one value where the words compose ("twenty five" -> 25,
    "two thousand five hundred" -> 2500), several where they do not ("one two" -> 1, 2)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", run) if w.lower() != "and"]
    values: list[int] = []
    total, current, last = 0, 0, ""  # last: the kind of the previous word ("small", "tens", "scale", "")
    for w in words:
        if w in _SCALES:
            if last == "":  # "hundred" alone
                current = 1
            scale = _SCALES[w]
            if scale == 100:
                current *= 100
            else:
                total += current * scale
                current = 0
            last = "scale"
            continue
        value = _SMALL.get(w, _TENS.get(w, 0))
        kind = "tens" if w in _TENS else "small"
        fits = last in ("", "scale") or (last == "tens" and kind == "small" and value < 10)
        if not fits:
            values.append(total + current)
            total, current = 0, 0
        current += value
        last = kind
    values.append(total + current)
    return values


def read_numbers(text: str) -> str:
    """`text` with numbers written out in words or Chinese numerals (where they are read unambiguously) as digits."""
    if SPELLINGS:
        text = read_spellings(text)  # 88 年 -> 1988 年, 差一刻九点 -> 8:45, 2万5 -> 25000, 周一三五 -> 周一、周三、周五
    if SPELLINGS_2:
        text = read_spellings2(text)  # two-fifths / 四成 -> 40%, March 2027 -> 2027-03, 15千瓦 -> 15kW
    if SAID_FORMS:
        text = read_before_words(text)  # a dozen, 15w, 千分之六, 一千五百万, "twenty to five", digits said one by one
    text = _ZH_PERCENT.sub(_zh_percent, _THOUSANDS.sub("", text))
    text = _SCALED.sub(_scaled, text)  # "120 thousand" before the words: 120000, not "120 1000"
    text = _EN_RUN.sub(lambda m: " " + " ".join(str(v) for v in _en_values(m.group(0))) + " ", text)
    text = _PERCENT.sub(r"\1%", _SCALED.sub(_scaled, text))
    text = _HALF_PAST.sub(lambda m: f"{int(m.group(1))}:30", text)
    text = _QUARTER.sub(_quarter, text)
    text = _AM_PM.sub(_am_pm, text)
    if SAID_FORMS:
        text = read_after_words(text)  # 4 hours 12 minutes -> 4:12
    if SPELLINGS:
        text = read_spellings_after(text)  # "after 2 in the morning" -> after 02:00
    if SPELLINGS_2:
        text = read_spellings2_after(text)  # "half 4" -> 4:30
    return _WAN.sub(_wan, _ZH_COMPOUND.sub(_zh_compound, text))


# ------------------------------------------------------------------ the same value written another way (round 11b)
# 12k, $1.2M, 120 thousand, five grand -> 12000, 1200000, 120000, 5000 (M upper-case only: 5m is minutes or metres)
_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:((?i:k|thousand|grand|million|bn|billion))\b|(M)(?![A-Za-z]))")
_SCALE = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_PERCENT = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(?:per\s*cent|percent)\b", re.IGNORECASE)
# 百分之六 / 百分之一点七五 / 百分之20 -> 6% / 1.75% / 20%
_ZH_PERCENT = re.compile(rf"百分之([{ZH_NUM_CHARS}]+|\d+)(?:点([{ZH_NUM_CHARS[:12]}]+|\d+))?")
_QUARTER = re.compile(r"\b(?:a\s+)?quarter\s+(past|after|to|till)\s+(\d{1,2})\b", re.IGNORECASE)
_AM_PM = re.compile(r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)


def _scaled(m: re.Match[str]) -> str:
    value = float(m.group(1)) * _SCALE[(m.group(2) or m.group(3)).lower()]
    return f"{value:.0f}" if value.is_integer() and value < 1e15 else m.group(0)


def _zh_percent(m: re.Match[str]) -> str:
    whole = int(m.group(1)) if m.group(1).isdigit() else zh_numeral(m.group(1))
    frac = m.group(2) or ""
    frac = frac if frac.isdigit() else "".join(str(ZH_DIGITS[c]) for c in frac)
    return m.group(0) if whole is None else f"{whole}{'.' + frac if frac else ''}%"


def _quarter(m: re.Match[str]) -> str:
    hour = int(m.group(2))
    if m.group(1).lower() in ("past", "after"):
        return f"{hour}:15"
    return f"{(hour - 1) or 12}:45"


def _am_pm(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if hour > 12 or minute > 59:
        return m.group(0)
    hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
    return f"{hour:02d}:{minute:02d}"  # 7am -> 07:00: marked, so never the same time as 7pm


def zh_digit_string(text: str) -> str | None:
    """Chinese digits read one by one (一七 / 九〇 / 二〇二四 before 年) -> "17" / "90" / "2024"; None otherwise."""
    if len(text) < 2 or any(c not in ZH_DIGITS or c == "两" for c in text):
        return None
    return "".join(str(ZH_DIGITS[c]) for c in text)


def _hour(token: str) -> tuple[int, int, bool] | None:
    """(hour, minute, explicit) of a clock time or a bare hour. "06:40" and "15:20" are on a 24-hour dial
    (explicit); "6:40" and "8" may be morning or evening."""
    hm = re.fullmatch(r"(\d{1,2}):(\d{2})", token) or re.fullmatch(r"(\d{1,2})()", token)
    if hm is None:
        return None
    hour, minute = int(hm.group(1)), int(hm.group(2) or 0)
    if hour > 24 or minute > 59 or (hour == 0 and not hm.group(2)):
        return None
    return hour, minute, hm.group(1).startswith("0") or hour > 12


def _same_clock(a: str, b: str) -> bool:
    ha, hb = _hour(a), _hour(b)
    if ha is None or hb is None or ha[1] != hb[1]:
        return False
    if ha[2] == hb[2]:  # both explicit, or both open: the same hour as written
        return ha[0] == hb[0]
    open_hour, fixed = (ha[0], hb[0]) if hb[2] else (hb[0], ha[0])
    return fixed in (open_hour, open_hour + 12)


def same_value(a: str, b: str) -> bool:
    """Two number tokens that name one value: 06 / 6, 3:20 / 15:20 and 8 / 08:00 (an hour not marked morning or
    evening, and one on a 24-hour dial), 2016 / 16 (a year and its last two digits). Two bare counts (8 / 20) and
    two marked times (07:00 / 19:00) are never one value."""
    if a == b:
        return True
    if re.fullmatch(r"\d+(?:\.\d+)?", a) and re.fullmatch(r"\d+(?:\.\d+)?", b) and float(a) == float(b):
        return True
    if ":" in a or ":" in b:
        return _same_clock(a, b)
    short, long = sorted((a, b), key=len)
    return len(short) == 2 and len(long) == 4 and long[:2] in ("19", "20") and long.isdigit() and long.endswith(short)


def reconcile(old: set[str], new: set[str]) -> set[str]:
    """`new` with each token that names the same value as one only in `old` written as in `old`."""
    out = set(new)
    for y in sorted(new - old):
        match = next((x for x in sorted(old - out) if same_value(x, y)), None)
        if match is not None:
            out.discard(y)
            out.add(match)
    return out


def _zh_compound(m: re.Match[str]) -> str:
    raw = m.group(0)
    if len(raw) < 2 or not set(raw) & {"十", "百", "千", "万"}:
        return raw
    if len(raw) >= 3 and raw[-2] in _SPOKEN_TAIL and raw[-1] in ZH_DIGITS:  # 八千五, 一万二
        head = zh_numeral(raw[:-1])
        return raw if head is None else str(head + ZH_DIGITS[raw[-1]] * _SPOKEN_TAIL[raw[-2]])
    value = zh_numeral(raw)
    return raw if value is None else str(value)


def _wan(m: re.Match[str]) -> str:
    value = float(m.group(1)) * 10_000
    if value >= 1e15:
        return m.group(0)
    # plain digits, never exponent form ('2e+06' would read as the numbers 2 and 06)
    return f"{value:.0f}" if value.is_integer() else f"{value:.4f}".rstrip("0").rstrip(".")


def _zh_hour(m: re.Match[str]) -> str:
    part, hour = m.group(1), int(m.group(2))
    before = m.string[max(0, m.start() - 6):m.start()].rstrip()
    if (not part and before[-1:] in ("第", "这", "那", "几", "有")) or hour > 24:
        return m.group(0)  # a point of a list (第3点, 这两点), not an hour
    if hour == 1 and not (part or m.group(3) or before[-1:] in ("到", "至", "-", "~")):
        return m.group(0)  # 一点: "a little"
    return f"{part or ''}{hour}:00"


def read_zh_clock_parts(text: str) -> str:
    """After the Chinese numerals before measure words became digits: 7点四十 -> 7:40, 3点半 -> 3:30, 38度五 -> 38.5度;
    a clock hour becomes a clock time: 10点 -> 10:00, 下午3点 -> 下午3:00."""
    def minutes(m: re.Match[str]) -> str:
        raw = m.group(2)
        value = 30 if raw == "半" else int(raw) if raw.isdigit() else zh_numeral(raw)
        clock = raw == "半" or m.group(3) or len(raw) > 1
        if value is None or value >= 60 or not clock:
            return m.group(0)
        return f"{int(m.group(1))}:{value:02d}"

    text = _ZH_HOUR.sub(_zh_hour, _ZH_MINUTES.sub(minutes, text))
    return _ZH_TENTHS.sub(lambda m: f"{m.group(1)}.{ZH_DIGITS[m.group(2)]}度", text)
