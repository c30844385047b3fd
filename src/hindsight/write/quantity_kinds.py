"""What each quantity written in a text may name, by kind: the readings `quantity_forms` aligns across a pair.

`PATTERNS` finds a kind's mentions (dates, money, times of day, durations, shares, weights, mega / giga; earlier kinds
win where spans overlap) and `read_kind` gives each the set of values it may name ("num:2150", "clock:21:50",
"dur:900", "share:70", "money:CNY:2.8", "date:9-30", "mass:3.4", "M:500"); `word_values` reads a run of English number
words (`EN_RUN`) with the `text2num` package, and `zh_digit_groups` Chinese digits read one by one. Chinese numerals
are read by `text.numerals.zh_int` (cn2an). Split out of `quantity_forms` (hygiene round 20): this module reads one
text, that one aligns two.
"""

from __future__ import annotations

import re

from hindsight.text.numerals import zh_int
from hindsight.write.value_forms import spelled_digits

_ZN = "零〇一二两三四五六七八九十百千万"
_EN_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
             "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand "
             "million billion first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
             "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth").split()
_EN_WORD = "|".join(sorted(_EN_WORDS, key=len, reverse=True))
#: a run of English number words ("twenty-one fifty", "one point two million"); "second" alone is a unit of time
EN_RUN = re.compile(rf"\b(?:{_EN_WORD})(?:(?:\s*-\s*|\s+(?:and\s+|point\s+)?)(?:{_EN_WORD}))*\b", re.IGNORECASE)
#: the same run, of at most 32 words, for a pattern that needs a word after it (a currency, a unit, "per cent"): an
#: unbounded run would be scanned to its end from each of its words (quadratic in a crafted run "one one one ...")
WORD_RUN = rf"(?:{_EN_WORD})(?:(?:\s*-\s*|\s+(?:and\s+|point\s+)?)(?:{_EN_WORD})){{0,31}}"
_HOUR_WORDS = {w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())}


def _number(raw: str) -> float | None:
    raw = raw.replace(",", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    value = zh_int(raw)
    return None if value is None else float(value)


def fmt(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _clock(hour: int, minute: int, part: str | None) -> frozenset[str]:
    """A time of day: marked morning / evening, or both readings of an hour up to 12."""
    if hour > 24 or minute > 59:
        return frozenset()
    if part == "pm":
        hours = {hour + 12 if hour < 12 else hour}
    elif part == "am":
        hours = {0 if hour == 12 else hour}
    else:
        hours = {hour, hour + 12} if 1 <= hour < 12 else {hour % 24}
    return frozenset(f"clock:{h:02d}:{minute:02d}" for h in hours)


_ZH_PM, _ZH_AM = ("中午", "下午", "傍晚", "晚上", "夜里", "今晚", "明晚"), ("上午", "早上", "早晨", "清晨", "凌晨")
_ZH_PART = "|".join(_ZH_PM + _ZH_AM)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MON = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
_LAST_DAY = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400,
            "week": 604800, "fortnight": 1209600, "month": 2592000, "year": 31536000,
            "秒": 1, "秒钟": 1, "分钟": 60, "小时": 3600, "个小时": 3600, "钟头": 3600, "个钟头": 3600, "天": 86400,
            "周": 604800, "个星期": 604800, "星期": 604800, "个礼拜": 604800, "礼拜": 604800, "个月": 2592000,
            "年": 31536000}
_EN_UNIT = r"(sec|second|min|minute|hour|hr|day|week|fortnight|month|year)s?\b"
_ZH_UNIT = "秒钟|秒|分钟|个小时|小时|个钟头|钟头|天|个星期|星期|个礼拜|礼拜|周|个月|年"
_CURRENCY = {"$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD", "美元": "USD",
             "£": "GBP", "gbp": "GBP", "pounds": "GBP", "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
             "¥": "CNY", "rmb": "CNY", "yuan": "CNY", "元": "CNY", "块": "CNY", "块钱": "CNY"}
_SCALE = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6, "bn": 1e9, "billion": 1e9,
          "万": 1e4, "亿": 1e8}
_SHARE_DEN = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5,
              "tenth": 10, "tenths": 10}
_MASS = {"kg": 1.0, "kgs": 1.0, "kilo": 1.0, "kilos": 1.0, "kilogram": 1.0, "kilograms": 1.0, "公斤": 1.0,
         "千克": 1.0, "g": 0.001, "gram": 0.001, "grams": 0.001, "克": 0.001, "斤": 0.5}
_MEGA = {"m": ("M", "MB", "Mbps"), "兆": ("M", "MB", "Mbps"), "mb": ("MB",), "兆字节": ("MB",), "mbps": ("Mbps",),
         "g": ("G", "GB", "Gbps"), "gb": ("GB",), "gbps": ("Gbps",)}

_CURRENCY_WORD = r"dollars?|bucks|euros?|pounds|yuan|usd|gbp|eur|rmb|美元|块钱|元|块(?![\u4e00-\u9fff])"
# (kind, pattern): earlier kinds win where spans overlap
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("date_ym", re.compile(rf"\b{_MON}\s*(?:'(\d{{2}})|(\d{{4}}))\b|(\d{{4}})\s*年\s*(\d{{1,2}})\s*月(?!\s*[\d{_ZN}底末])",
                           re.IGNORECASE)),
    ("date", re.compile(rf"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}|\b{_MON}\s+(?:the\s+)?(\d{{1,2}})"
                        rf"(?:st|nd|rd|th)?\b(?!\s*(?::|\d|%|am|pm))|\bend\s+of\s+{_MON}"
                        rf"|(?<![\d{_ZN}个])(\d{{1,2}}|[一二三四五六七八九十]{{1,2}})\s*月\s*(?:(\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
                        rf"\s*(?:[日号]|(?![\d{_ZN}个天人元块%多万年月周次岁分点号日]))|([底末]))", re.IGNORECASE)),
    ("money_zh", re.compile(rf"([{_ZN}]+|\d+)\s*(?:块|元)\s*([一二三四五六七八九]|\d)\s*(?:毛|角)?"
                            rf"(?:\s*([一二三四五六七八九]|\d)\s*分)?(?![\d个人次天件份张位本只条斤])")),
    ("money", re.compile(rf"(us\$|\$|£|€|¥)\s?(\d[\d,]{{0,39}}(?:\.\d+)?)(?:\s*(k|m|mn|bn|million|billion|thousand|grand)\b)?"
                         rf"|(\d[\d,]{{0,39}}(?:\.\d+)?)\s*(k|million|billion|thousand|grand|万|亿)?\s*({_CURRENCY_WORD})"
                         rf"|\b({WORD_RUN})\s+({_CURRENCY_WORD})",
                         re.IGNORECASE)),
    ("clock", re.compile(rf"(?<![\d:.])(\d{{1,2}})(?::(\d{{2}}))?\s*([ap])\.?\s?m\b\.?"
                         rf"|(?:({_ZH_PART})\s*)?(?<![\d:.])(\d{{1,2}}):(\d{{2}})(?![\d:])"
                         rf"|\b(?:(half|quarter)\s+(past|after|to|till)?\s*)(\d{{1,2}}|{'|'.join(_HOUR_WORDS)})\b"
                         rf"(?!\s*(?:{_EN_UNIT.replace('(', '(?:')}|%|percent|of\b|an?\b|people|times))"
                         rf"|(?:({_ZH_PART})\s*)?(?<![第这那几有])(\d{{1,2}}|[一二两三四五六七八九十]{{1,3}})\s*点\s*(?:钟)?"
                         rf"(半|一刻|三刻|(\d{{1,2}}|[零一二三四五六七八九十]{{1,3}})\s*分?)?", re.IGNORECASE)),
    ("duration", re.compile(rf"\b(?:a\s+|one\s+)?quarter\s+(?:of\s+)?an?\s+hour\b|\bhalf\s+an?\s+(hour|day|year)\b"
                            rf"|\ba\s+fortnight\b|\b(?:an|one)\s+hour\s+and\s+a\s+half\b|(?:([一二两三四五六七八九十]|\d+)\s*个)?半\s*(?:个)?(小时|钟头)|一刻钟|三刻钟"
                            rf"|(?<![\d.])(\d+(?:\.\d+)?)\s*-?\s*{_EN_UNIT}"
                            rf"|(?<![\d.{_ZN}])(\d+(?:\.\d+)?|[{_ZN}]+)\s*({_ZH_UNIT})(?!级|代|前|后|底|初|内|月|[一二三四五六日天1-7])",
                            re.IGNORECASE)),
    ("duration_words", re.compile(rf"\b((?:{_EN_WORD})(?:[\s-](?:{_EN_WORD})){{0,31}})\s+{_EN_UNIT}", re.IGNORECASE)),
    ("share", re.compile(rf"(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)|百分之\s*([{_ZN}]+|\d+)"
                         rf"|([{_ZN}]+|\d+)\s*分之\s*([{_ZN}]+|\d+)"
                         rf"|(?<![{_ZN}])([一二三四五六七八九])成([一二三四五六七八九])?(?![是会要在就能得不])"
                         rf"|\b(a|an|one|two|three|four|five|six|seven|eight|nine|\d)[\s-]+(halves|half|thirds?|quarters?|fifths?|tenths?)\b",
                         re.IGNORECASE)),
    ("mass", re.compile(rf"([{_ZN}]+|\d+(?:\.\d+)?)\s*斤\s*(?:([一二三四五六七八九]|\d)\s*两)?"
                        rf"|(\d+(?:\.\d+)?)\s*(kg|kgs|kilos?|kilograms?|公斤|千克|grams?|g|克)(?![A-Za-z])", re.IGNORECASE)),
    ("mega", re.compile(rf"([{_ZN}]+|\d+(?:\.\d+)?)\s*(兆字节|兆|mbps|gbps|mb|gb|m|g)(?![A-Za-z])",
                        re.IGNORECASE)),
]


def _month(name: str) -> int:
    return _MONTHS.index(name.lower()[:3]) + 1


def read_kind(kind: str, m: re.Match[str]) -> frozenset[str]:  # noqa: C901 - one branch per kind, read together
    g = m.group
    if kind == "date_ym":
        if g(1):
            year = int(g(3)) if g(3) else 2000 + int(g(2))
            return frozenset({f"ym:{year}-{_month(g(1))}"})
        return frozenset({f"ym:{int(g(4))}-{int(g(5))}"})
    if kind == "date":
        if g(2):
            month, day = _month(g(2)), _number(g(1))
        elif g(3):
            month, day = _month(g(3)), _number(g(4))
        elif g(5):
            month = _month(g(5))
            day = float(_LAST_DAY[month - 1])
        else:
            month_n = _number(g(6))
            month = int(month_n) if month_n else 0
            if not 1 <= month <= 12:
                return frozenset()
            day = float(_LAST_DAY[month - 1]) if g(8) else _number(g(7))
        return frozenset({f"date:{month}-{int(day)}"}) if day and 1 <= day <= 31 and 1 <= month <= 12 else frozenset()
    if kind == "clock":
        if g(3):
            return _clock(int(g(1)), int(g(2) or 0), "pm" if g(3).lower() == "p" else "am")
        if g(6):
            return _clock(int(g(5)), int(g(6)), _zh_part(g(4)))
        if g(7):
            hour = int(g(9)) if g(9).isdigit() else _HOUR_WORDS[g(9).lower()]
            if g(7).lower() == "half":  # "half nine" (British) and "half past nine" are 9:30
                return _clock(hour, 30, None) if g(8) is None or g(8).lower() in ("past", "after") else frozenset()
            if g(8) is None:
                return frozenset()
            after = g(8).lower() in ("past", "after")
            return _clock(hour if after else (hour - 1) or 12, 15 if after else 45, None)
        hour_n = _number(g(11))
        if hour_n is None or (hour_n == 1 and not (g(10) or g(12))):
            return frozenset()  # 一点: "a little"
        minute = {"半": 30, "一刻": 15, "三刻": 45}.get(g(12) or "", None)
        if minute is None:
            minute_n = _number(g(13)) if g(13) else 0.0
            if minute_n is None:
                return frozenset()
            minute = int(minute_n)
        return _clock(int(hour_n), minute, _zh_part(g(10)))
    if kind == "duration":
        text = m.group(0).lower()
        if "and a half" in text:
            seconds = 5400.0
        elif "quarter" in text or text == "一刻钟":
            seconds = 900.0
        elif text == "三刻钟":
            seconds = 2700.0
        elif g(1):
            seconds = _SECONDS[g(1).lower()] / 2
        elif "fortnight" in text:
            seconds = float(_SECONDS["fortnight"])
        elif g(3):
            seconds = ((_number(g(2)) or 0.0) + 0.5) * 3600 if g(2) else 1800.0
        elif g(5):
            seconds = float(g(4)) * _SECONDS[g(5).lower()]
        else:
            count = _number(g(6))
            if count is None or (g(7) == "年" and count >= 1000):
                return frozenset()  # 2024年: the calendar year
            seconds = count * _SECONDS[g(7)]
        return _durations(seconds)
    if kind == "share":
        if g(1):
            share = float(g(1))
        elif g(2):
            share = _number(g(2)) or -1.0
        elif g(3):
            den, num = _number(g(3)), _number(g(4))
            if not den or num is None or num > den:
                return frozenset()
            share = 100 * num / den
        elif g(5):
            share = 10 * (_number(g(5)) or 0) + (_number(g(6)) or 0 if g(6) else 0)
        else:
            count = {"a": 1, "an": 1, "one": 1, **{w: i for w, i in _HOUR_WORDS.items() if i <= 9}}.get(g(7).lower())
            count = count if count is not None else int(g(7))
            share = 100 * count / _SHARE_DEN[g(8).lower()]
        return frozenset({f"share:{fmt(round(share, 4))}"}) if 0 <= share <= 100 else frozenset()
    if kind == "money_zh":
        whole, jiao = _number(g(1)), _number(g(2))
        fen = _number(g(3)) if g(3) else 0.0
        if whole is None or jiao is None or fen is None:
            return frozenset()
        return frozenset({f"money:CNY:{fmt(whole + jiao / 10 + fen / 100)}", f"num:{fmt(whole + jiao / 10)}"})
    if kind == "money":
        if g(1):
            value, currency, scale = _number(g(2)), _CURRENCY[g(1).lower()], g(3)
        elif g(6):
            value, currency, scale = _number(g(4)), _CURRENCY[g(6).lower()], g(5)
        else:
            words = [v for v in word_values(g(7)) if v.startswith("num:")]
            value = float(words[0][4:]) if len(words) == 1 else None
            currency, scale = _CURRENCY[g(8).lower()], None
        if value is None:
            return frozenset()
        value *= _SCALE[scale.lower()] if scale else 1.0
        return frozenset({f"money:{currency}:{fmt(value)}", f"num:{fmt(value)}"})
    if kind == "duration_words":
        words = [v for v in word_values(g(1)) if v.startswith("num:")]
        if len(words) != 1:
            return frozenset()
        return _durations(float(words[0][4:]) * _SECONDS[g(2).lower()])
    if kind == "mass":
        if g(1):
            jin, liang = _number(g(1)), _number(g(2)) if g(2) else 0.0
            if jin is None or liang is None:
                return frozenset()
            return frozenset({f"mass:{fmt((jin + liang / 10) * 0.5)}"})
        if g(4) == "G" or g(4).lower() not in _MASS:  # G is giga
            return frozenset()
        return frozenset({f"mass:{fmt(float(g(3)) * _MASS[g(4).lower()])}"})
    # mega / giga: M and 兆 meet MB and Mbps; MB and Mbps never each other
    value = _number(g(1))
    unit = g(2) if g(2) in _MEGA else g(2).lower()
    if value is None or unit not in _MEGA or (unit == "m" and g(2) == "m") or (unit == "g" and g(2) == "g"):
        return frozenset()  # 5m is minutes or metres, 5g grams
    return frozenset(f"{u}:{fmt(value)}" for u in _MEGA[unit])


def _durations(seconds: float) -> frozenset[str]:
    """A span of time in seconds; a whole or half number of years also as that many months of 30 days."""
    values = {f"dur:{fmt(seconds)}"}
    years = seconds / _SECONDS["year"]
    if years >= 1 and (years * 2).is_integer():
        values.add(f"dur:{fmt(years * 12 * _SECONDS['month'])}")
    return frozenset(values)


def _zh_part(part: str | None) -> str | None:
    return None if part is None else "pm" if part in _ZH_PM else "am"


def _en_numbers(run: str) -> list[float] | None:
    """The numbers of a run of English number words, read by `text2num` (groups that do not compose stay apart)."""
    from text_to_num import alpha2digit  # lazy: only pairs with number words need it

    out = alpha2digit(run, "en", threshold=0)
    found = re.findall(r"\d+(?:\.\d+)?", out)
    rest = re.sub(r"\d+(?:\.\d+)?(?:st|nd|rd|th)?|and|[\s-]", "", out, flags=re.IGNORECASE)
    return [float(x) for x in found] if found and not rest else None


def word_values(run: str) -> frozenset[str]:
    """What a run of number words may name: its numbers composed where two groups speak one value."""
    digits = spelled_digits(run)
    if digits is not None:
        return frozenset({f"num:{digits}", f"digits:{digits}"})
    numbers = _en_numbers(run)
    if not numbers:
        return frozenset()
    if len(numbers) == 1:
        return frozenset({f"num:{fmt(numbers[0])}"})
    if len(numbers) != 2:
        return frozenset()
    a, b = numbers
    values: set[str] = set()
    if b in (1e3, 1e6, 1e9):
        values.add(f"num:{fmt(a * b)}")  # one point two million
    elif a.is_integer() and b.is_integer() and 10 <= a <= 99 and b < 100:
        values.add(f"num:{int(a * 100 + b)}")  # twenty sixteen, twenty-one fifty
        values |= _clock(int(a), int(b), None) if a <= 23 and 10 <= b <= 59 else set()
    return frozenset(values)


def zh_digit_groups(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """Chinese digits read one by one in groups (五五五-零一六八), five or more in a row, or three or four with a 零 /
    幺 among them where no other numeral stands beside (四零零, 三零二路; 幺 is 一 said in a number): (start, end,
    the digit string's values). Two digits in a row are a range (三四个), never read here."""
    table = {c: str(i) for i, c in enumerate("零一二三四五六七八九")} | {"〇": "0", "幺": "1"}
    out = []
    d = "零〇幺一二三四五六七八九"
    for m in re.finditer(rf"[{d}]{{2,}}(?:[-\s][{d}]{{2,}})+|[{d}]{{5,}}"
                         rf"|(?<![周期拜第十百千万亿两{d}])(?=[{d}]{{0,3}}[零〇幺])[{d}]{{3,4}}(?![十百千万亿两{d}])", text):
        digits = "".join(table.get(c, "") for c in m.group(0))
        out.append((m.start(), m.end(), frozenset({f"digits:{digits}", f"num:{digits}"})))
    return out
