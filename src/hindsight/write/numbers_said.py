"""Numbers said in forms the number reading took apart or missed (hygiene round 31, EN and ZH).

The released restatements kept on "different numbers" / "amounts differ" / "numbers differ" (docs/benchmarks.md
"Hygiene, round 31: numbers said two ways") held, in the rounds up to 25, these forms that `numbers.read_numbers`
read as another number or none: "a dozen" (12), digits with w in Chinese text (15w = 150000), 千分之六 (0.6%), a
Chinese numeral with a unit before 万 / 亿 (一千五百万), a clock time said as minutes past / to an hour ("twenty to
five" = 4:40, "ten past two" = 2:10), digits said one by one in groups ("five five five, oh one seven seven" = 555
0177), and a duration in hours and minutes ("four hours twelve minutes", "2h 50m" = 4:12, 2:50, as a race time or a
layover is written). `read_before_words` runs before the number words become digits, `read_after_words` after; each
writes the form as the reading already writes the other side (12, 150000, 0.6%, 4:40, 555 0177, 4:12), so the one
comparison (`numbers.same_value`) sees one value. Lexical, positive forms only: "dozens" is no number, "ten to
twelve people" is a range (a clock "to" needs a clock context), 4w in English text stays as written.
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int

ZN = "零〇一二两三四五六七八九十百千"
_DIGIT = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
          "seven": "7", "eight": "8", "nine": "9"}
_HOURS = {w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())}
_HOURS["noon"] = 12
_MINUTES = {"five": 5, "ten": 10, "quarter": 15, "a quarter": 15, "twenty": 20, "twenty-five": 25, "twenty five": 25}

_DOZEN = re.compile(r"\b(?:(half)\s+a\s+|(a|one|two|three|four|five|six|\d{1,3})\s+)?dozen\b(?!s)", re.IGNORECASE)
_DOZEN_COUNT = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# 15w / 1.2w in Chinese text (w = 万); 4w in English text may be four weeks, 150W is watts
_W = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)\s*w(?![A-Za-z0-9])")  # lower case: 150W is watts
_HAN = re.compile(r"[\u4e00-\u9fff]")
_PERMILLE = re.compile(rf"千分之([{ZN}]+|\d+(?:\.\d+)?)(?:点([零〇一二三四五六七八九]+))?")
# 一千五百万, 三百二十亿: a numeral with a unit character before the scale word (a lone digit before 万 is read already)
_ZH_SCALED = re.compile(rf"(?<![{ZN}万亿])([一二两三四五六七八九十][{ZN}]*[十百千][零〇一二两三四五六七八九]?)(万|亿)"
                        rf"(?![{ZN}]|分之)")
_HOUR_WORD = "|".join([*sorted(_HOURS, key=len, reverse=True), r"\d{1,2}"])
_CLOCK = re.compile(rf"\b(five|ten|(?:a\s+)?quarter|twenty(?:[-\s]five)?)\s+(past|after|to|till|of)\s+({_HOUR_WORD})\b"
                    rf"(?!\s*(?::|\d|%|percent|minutes?|hours?|days?|weeks?|people|times))", re.IGNORECASE)
# a "to" is a clock time only after a word that introduces a time, or before a part of the day
_CLOCK_BEFORE = re.compile(r"(?:\b(?:at|around|about|by|until|till|before|after|from|circa|~)|[,:(\u2014\u2013-])\s*$",
                           re.IGNORECASE)
_CLOCK_AFTER = re.compile(r"\s*(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight|this\s+(?:morning|"
                          r"afternoon|evening)|[ap]\.?\s?m\b)", re.IGNORECASE)
_DIGIT_WORD = "|".join(_DIGIT)
# a group of at least three digits said one by one; groups joined by ", " or " - " (two groups at least)
_SPOKEN_RUN = re.compile(rf"\b(?:{_DIGIT_WORD})(?:[\s-]+(?:{_DIGIT_WORD})){{2,}}"
                         rf"(?:\s*[,-]\s*(?:{_DIGIT_WORD})(?:[\s-]+(?:{_DIGIT_WORD})){{2,}})*\b", re.IGNORECASE)
# after the words are digits: 4 hours 12 minutes, 2h 50m, 1h58m40s
_HOURS_MINUTES = re.compile(r"(?<![\d.:])(\d{1,2})\s*(?:hours?|hrs?|h)\s*(?:and\s+)?(\d{1,2})\s*(?:minutes?|mins?|m)"
                            r"(?:\s*(\d{1,2})\s*(?:seconds?|secs?|s))?\b(?![\d:])", re.IGNORECASE)


def _dozen(m: re.Match[str]) -> str:
    if m.group(1):
        return "6"
    count = m.group(2)
    n = 1 if count is None else int(count) if count.isdigit() else _DOZEN_COUNT[count.lower()]
    return str(12 * n)


def _plain(value: float) -> str:
    return f"{value:.0f}" if value.is_integer() else f"{value:.4f}".rstrip("0").rstrip(".")


def _w(m: re.Match[str]) -> str:
    value = float(m.group(1)) * 10_000
    return m.group(0) if value >= 1e15 else _plain(value)


def _permille(m: re.Match[str]) -> str:
    raw = m.group(1)
    number = zh_int(raw.replace("〇", "零")) if not raw[0].isdigit() else None
    whole: float | None = float(raw) if raw[0].isdigit() else None if number is None else float(number)
    if whole is None:
        return m.group(0)
    frac = "".join(str("零一二三四五六七八九".index(c)) if c != "〇" else "0" for c in m.group(2) or "")
    value = float(f"{whole:g}.{frac}") if frac else float(whole)
    return f"{_plain(value / 10)}%"


def _zh_scaled(m: re.Match[str]) -> str:
    value = zh_int(m.group(1))
    if value is None:
        return m.group(0)
    return str(value * (10_000 if m.group(2) == "万" else 100_000_000))


def _clock(m: re.Match[str]) -> str:
    minute = _MINUTES[re.sub(r"\s+", " ", m.group(1).lower()).replace("a quarter", "quarter")]
    raw = m.group(3).lower()
    hour = int(raw) if raw.isdigit() else _HOURS[raw]
    if not 1 <= hour <= 12:
        return m.group(0)
    way = m.group(2).lower()
    if way in ("to", "till", "of"):
        before, after = m.string[:m.start()], m.string[m.end():]
        if not (_CLOCK_BEFORE.search(before[-12:]) or _CLOCK_AFTER.match(after)) or re.search(
                r"\bfrom\s*$|\bbetween\s*$", before[-10:], re.IGNORECASE):
            return m.group(0)
        return f"{(hour - 1) or 12}:{60 - minute:02d}"
    return f"{hour}:{minute:02d}"


def _spoken(m: re.Match[str]) -> str:
    if not re.search(r",|\s-\s", m.group(0)):
        return m.group(0)  # "one two three" is a list, "three-one-eight" is `quantity_forms`'; a number said digit by digit: groups
    groups = re.split(r"\s*[,]\s*|\s+-\s+", m.group(0))
    return " ".join("".join(_DIGIT[w.lower()] for w in re.split(r"[\s-]+", g.strip()) if w) for g in groups)


def read_before_words(text: str) -> str:
    """`text` with the forms read before number words become digits written as digits."""
    text = _DOZEN.sub(_dozen, text)
    text = _PERMILLE.sub(_permille, text)
    text = _ZH_SCALED.sub(_zh_scaled, text)
    if _HAN.search(text):
        text = _W.sub(_w, text)
    text = _SPOKEN_RUN.sub(_spoken, text)
    return _CLOCK.sub(_clock, text)


def read_after_words(text: str) -> str:
    """`text` with a duration in hours and minutes written as a clock-like H:MM (4 hours 12 minutes -> 4:12)."""
    def hm(m: re.Match[str]) -> str:
        minute = int(m.group(2))
        if minute >= 60:
            return m.group(0)
        sec = m.group(3)
        if sec is not None and int(sec) >= 60:
            return m.group(0)
        return f"{int(m.group(1))}:{minute:02d}" + (f":{int(sec):02d}" if sec is not None else "")

    return _HOURS_MINUTES.sub(hm, text)
