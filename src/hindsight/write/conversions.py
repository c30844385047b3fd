"""One amount written in two units: 5'10" / 178 cm, 2 weeks / 14 days / 两周, 350°F / 177°C (EN and ZH).

`written_alike(old, new)` finds the amounts of each text - lengths, weights, temperatures, durations and
frequencies, data sizes, money with its currency, fractions and percentages, full dates - and, where the new
text states an amount of the old one in another unit or spelling, writes it there as the old text does. The
judge then reads both texts as stating one value, instead of "different numbers", "amounts differ" or "one slot
filled differently". Nothing else is rewritten: a pair with no such amount, or whose amounts are the same words
once numbers are read (四十分钟 / 40 分钟), is returned unchanged.

When two amounts are one value:

* the same dimension, and exactly the same value where the units convert exactly (durations with a month of 30
  days and a year of 12 months or 365 days, metric lengths and weights, bytes in powers of 1000 or 1024, money in
  the same currency - never across currencies);
* between metric and imperial units (lengths, weights) and between Celsius and Fahrenheit, the same value *to the
  precision written*: 5'10" is 177.8 cm, written 178 cm; 350°F is 176.7°C, written 177°C, not 180°C;
* a fraction and a percentage the same way (a third / 33%, 五分之一 / 20%);
* a frequency ("every 90 days", "once a quarter", quarterly, 每季度) only ever equals a frequency.

Only a conversion is rewritten: two values in one unit are never reconciled here (70 kg / 71 kg are two weights),
nor a bare number, and one unit spelt two ways (kg / kilos, 元 / 块, 10 min / 十分钟, daily / every day, $ / dollars)
is left as written - measured, rewriting those lost as many restatements as it gained (round 12).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from hindsight.text.runs import mask_long_runs
from hindsight.text.script import script_of
from hindsight.text.spans import Taken
from hindsight.write import numbers as number_reading
from hindsight.write.analysis import units
from hindsight.write.numbers import ZH_DIGITS, read_numbers, zh_numeral
from hindsight.write.quantity_forms import align_forms

#: Whether `written_alike` first writes the new text's quantities in the old text's forms (`quantity_forms`); a
#: switch so main's reading can be replayed (hygiene round 20).
ALIGN_FORMS = True

_DAY = 86400.0
_WEEK, _MONTH, _YEAR = 7 * _DAY, 30 * _DAY, 365 * _DAY


@dataclass(frozen=True)
class Amount:
    """One amount found in a text: its span, dimension, value(s) in base units and how precisely it is written."""

    start: int
    end: int
    dim: str  # length (m), mass (kg), temp (°C), time (s), bytes, money:<currency>[/<currency>], share (%), date
    values: tuple[float, ...]  # more than one where the unit allows two readings (a year: 365 days or 12 months)
    system: str = ""  # "imperial" / "metric" / "F" / "C" / "fraction" / "percent": conversions between two
    # systems are compared to the precision written; "" compares exactly
    step: float = 0.0  # the written precision in base units (one unit of the last digit written)
    every: bool = False  # a frequency ("every 90 days", quarterly, 每季度)
    unit: str = ""  # the unit as read (kg = kilos = 公斤, minutes = 分钟, ISO dates): one unit is no conversion


def _num(raw: str) -> float | None:
    raw = raw.strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    if raw.lower() in ("a", "an", "one"):
        return 1.0
    value = zh_numeral(raw) if raw else None
    return None if value is None else float(value)


def _step(raw: str) -> float:
    """One unit of the last digit written: 178 -> 1, 1.78 -> 0.01."""
    raw = raw.strip()
    return 10.0 ** -len(raw.split(".", 1)[1]) if re.fullmatch(r"\d+\.\d+", raw) else 1.0


_NUM = r"(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)"
_EVERY_EN = re.compile(r"(?:\bevery|\beach|\bper|\bonce)\s*$", re.IGNORECASE)
_EVERY_ZH = re.compile(r"每(?:个)?\s*$")

# unit word -> (dimension, factor to base, system); lengths in metres, weights in kilograms
_MEASURES: dict[str, tuple[str, float, str]] = {}
for _words, _entry in {
    "mm millimetre millimetres millimeter millimeters 毫米": ("length", 0.001, "metric"),
    "cm centimetre centimetres centimeter centimeters 厘米 公分": ("length", 0.01, "metric"),
    "metre metres meter meters 米": ("length", 1.0, "metric"),
    "km kilometre kilometres kilometer kilometers 公里 千米": ("length", 1000.0, "metric"),
    "inch inches 英寸 ″": ("length", 0.0254, "imperial"),
    "ft foot feet 英尺 ′": ("length", 0.3048, "imperial"),
    "yard yards yd yds": ("length", 0.9144, "imperial"),
    "mile miles mi 英里": ("length", 1609.344, "imperial"),
    "mg milligram milligrams 毫克": ("mass", 1e-6, "metric"),
    "g gram grams 克": ("mass", 0.001, "metric"),
    "kg kgs kilo kilos kilogram kilograms 千克 公斤": ("mass", 1.0, "metric"),
    "斤": ("mass", 0.5, "metric"),
    "tonne tonnes 吨": ("mass", 1000.0, "metric"),
    "lb lbs pound pounds 磅": ("mass", 0.45359237, "imperial"),
    "oz ounce ounces 盎司": ("mass", 0.028349523125, "imperial"),
}.items():
    for _w in _words.split():
        _MEASURES[_w] = _entry
# durations: unit word -> seconds (a month 30 days; a year also 12 such months)
_DURATIONS: dict[str, float] = {}
for _words, _seconds in {
    "sec secs second seconds 秒 秒钟": 1.0, "min mins minute minutes 分钟": 60.0,
    "h hr hrs hour hours 小时 个小时 钟头 个钟头": 3600.0, "day days 天": _DAY,
    "week weeks wk wks 周 星期 礼拜 个星期 个礼拜": _WEEK, "fortnight fortnights": 2 * _WEEK,
    "month months 个月": _MONTH, "quarter quarters 季度 个季度": 3 * _MONTH, "year years yr yrs 年": _YEAR,
}.items():
    for _w in _words.split():
        _DURATIONS[_w] = _seconds
_BYTES = {"kb": 1, "kib": 1, "mb": 2, "mib": 2, "兆": 2, "gb": 3, "gib": 3, "tb": 4, "tib": 4}
_CURRENCY = {"$": ("USD",), "us$": ("USD",), "usd": ("USD",), "dollar": ("USD",), "dollars": ("USD",),
             "bucks": ("USD",), "美元": ("USD",), "美金": ("USD",), "¥": ("CNY", "JPY"), "rmb": ("CNY",),
             "cny": ("CNY",), "yuan": ("CNY",), "元": ("CNY",), "块": ("CNY",), "块钱": ("CNY",),
             "人民币": ("CNY",), "€": ("EUR",), "eur": ("EUR",), "euro": ("EUR",), "euros": ("EUR",),
             "欧元": ("EUR",), "£": ("GBP",), "gbp": ("GBP",), "英镑": ("GBP",), "yen": ("JPY",), "jpy": ("JPY",),
             "日元": ("JPY",)}
_FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5,
              "fifths": 5, "sixth": 6, "eighth": 8, "tenth": 10, "tenths": 10}
_MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MON = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_MEASURE_WORDS = [w for w in _MEASURES if w not in ("′", "″")]
_DURATION_WORDS = [w for w in _DURATIONS if w != "年"]
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("date", re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b"
                        rf"|\b{_MON} (\d{{1,2}})(?:st|nd|rd|th)?,? (\d{{4}})\b"
                        rf"|\b(\d{{1,2}})(?:st|nd|rd|th)? {_MON},? (\d{{4}})\b"
                        r"|(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", re.IGNORECASE)),
    ("feet_inches", re.compile(r"(?<![\d.])(\d)\s*(?:'|′|ft\.?|feet|foot)\s*(\d{1,2}(?:\.\d+)?)\s*"
                               r"(?:\"|″|''|in\b\.?|inch(?:es)?\b)?", re.IGNORECASE)),
    ("zh_height", re.compile(r"(?<![\d零〇一二两三四五六七八九十])([12一两])米([0-9]{1,2}|[零〇一二三四五六七八九]{1,2})"
                             r"(?![\d零〇一二三四五六七八九十米])")),
    ("temp", re.compile(rf"(?:(?P<pre>摄氏|华氏)\s*{_NUM}\s*度)|(?:(-?\d+(?:\.\d+)?)\s*(?:°\s*|degrees?\s+)"
                        r"(c|f|celsius|centigrade|fahrenheit)\b)|(?:(-?\d+(?:\.\d+)?)\s*(℃|℉|摄氏度|华氏度))",
                        re.IGNORECASE)),
    ("money", re.compile(r"(us\$|\$|¥|€|£|\b(?:usd|rmb|cny|eur|gbp|jpy)\b)\s?(\d+(?:\.\d+)?)"
                         r"|(\d+(?:\.\d+)?)\s?(dollars?\b|bucks\b|euros?\b|yuan\b|yen\b|(?:usd|rmb|cny|eur|gbp|jpy)\b"
                         r"|美元|美金|人民币|欧元|英镑|日元|块钱|块(?![\u4e00-\u9fff])|元)", re.IGNORECASE)),
    ("half_time", re.compile(r"\b(?:a|one) quarter of an hour\b|\bhalf an? (hour|day|year)\b|\b(an?|one|\d+) (hour|day|year)s? and a half\b"
                             r"|(?:(\d+|[一二两三四五六七八九十]+)\s*个)?半\s*(小时|个小时|个钟头|钟头)|半年"
                             r"|([一二两三四五六七八九十]+|\d+)\s*年半|一刻钟", re.IGNORECASE)),
    ("share", re.compile(r"(\d+(?:\.\d+)?)\s*%|([零〇一二两三四五六七八九十百]+|\d+)\s*分之\s*([零〇一二两三四五六七八九十]+|\d+)"
                         r"|\b(an?|one|\d+)\s+(halves|half|thirds?|quarters?|fifths?|sixth|eighth|tenths?)(?=\s+of\b)"
                         r"|一半", re.IGNORECASE)),
    ("ly", re.compile(r"\b(daily|weekly|monthly|quarterly|yearly|annually)\b", re.IGNORECASE)),
    ("bytes", re.compile(r"(\d+(?:\.\d+)?)\s*(kib|mib|gib|tib|kb|mb|gb|tb|兆)(?![a-z])", re.IGNORECASE)),
    ("measure", re.compile(rf"(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)\s*({_alternation(_MEASURE_WORDS)}|′|″)"
                           rf"(?![A-Za-z])|(\d+\.\d+)\s*m\b")),
    ("duration", re.compile(rf"(?:(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百]+|\ban?\b|\bone\b)\s*)?"
                            rf"(?<![A-Za-z])({_alternation(_DURATION_WORDS)})(?![A-Za-z]|年|周年|级|(?<=[周期拜])[一二三四五六日天1-7])"
                            rf"|(?<![\d零〇一二三四五六七八九十])(\d|[一二两三四五六七八九]|[二三四五六七八九]?十[一二三四五六七八九]?)"
                            rf"\s*年(?!级|代|前|后|底|初|内|[0-9零〇一二三四五六七八九十]*月)",
                            re.IGNORECASE)),
]
_LY = {"daily": _DAY, "weekly": _WEEK, "monthly": _MONTH, "quarterly": 3 * _MONTH, "yearly": _YEAR,
       "annually": _YEAR}


def _time_values(seconds: float) -> tuple[float, ...]:
    """A duration's readings: as written (months of 30 days), and with each year of 12 months read as 365 days."""
    if seconds >= _YEAR and (seconds / _YEAR) * 2 == round((seconds / _YEAR) * 2):
        return seconds, seconds / _YEAR * 12 * _MONTH
    return (seconds,)


def _every(text: str, start: int) -> bool:
    before = text[max(0, start - 12):start]
    return bool(_EVERY_EN.search(before) or _EVERY_ZH.search(before))


def _read(kind: str, m: re.Match[str], text: str) -> Amount | None:  # one reading per pattern
    g, s, e = m.group, m.start(), m.end()
    if kind == "date":
        if g(1):
            y, mo, d = int(g(1)), int(g(2)), int(g(3))
        elif g(4):
            y, mo, d = int(g(6)), _MONTH_NAMES.index(g(4).lower()[:3]) + 1, int(g(5))
        elif g(7):
            y, mo, d = int(g(9)), _MONTH_NAMES.index(g(8).lower()[:3]) + 1, int(g(7))
        else:
            y, mo, d = int(g(10)), int(g(11)), int(g(12))
        form = "iso" if g(1) else "md" if g(4) else "dm" if g(7) else "zh"
        stamp = float(y * 10000 + mo * 100 + d)
        return Amount(s, e, "date", (stamp,), unit=form) if 1 <= mo <= 12 and 1 <= d <= 31 else None
    if kind == "feet_inches":
        inches = float(g(2))
        if inches >= 12:
            return None
        return Amount(s, e, "length", ((int(g(1)) * 12 + inches) * 0.0254,), "imperial", 0.0254 * _step(g(2)),
                      unit="ft-in")
    if kind == "zh_height":
        whole = 1.0 if g(1) in "1一" else 2.0
        tail = g(2) if g(2).isdigit() else "".join(str(ZH_DIGITS[c]) for c in g(2))
        return Amount(s, e, "length", (whole + float("0." + tail),), "metric", 10.0 ** -len(tail), unit="米-zh")
    if kind == "temp":
        if g("pre"):
            raw, scale = g(2), "F" if g("pre") == "华氏" else "C"
        elif g(3):
            raw, scale = g(3), "F" if g(4).lower().startswith("f") else "C"
        else:
            raw, scale = g(5), "F" if g(6) in ("℉", "华氏度") else "C"
        value = _num(raw)
        if value is None:
            return None
        if scale == "F":
            return Amount(s, e, "temp", ((value - 32) * 5 / 9,), "F", _step(raw) * 5 / 9, unit="F")
        return Amount(s, e, "temp", (value,), "C", _step(raw), unit="C")
    if kind == "money":
        sign, raw = (g(1), g(2)) if g(1) else (g(4), g(3))
        value = float(raw)
        currencies = _CURRENCY[sign.lower()]
        return Amount(s, e, "/".join("money:" + c for c in currencies), (value,), unit="money")  # ($ / dollars:
        # one unit; amounts are never converted across currencies)
    if kind == "share":
        if g(1):
            return Amount(s, e, "share", (float(g(1)),), "percent", _step(g(1)), unit="%")
        if g(2):
            den, num = _num(g(2)), _num(g(3))
            if not den or num is None or num > den:
                return None
            return Amount(s, e, "share", (100 * num / den,), "fraction", unit="fraction")
        if g(5):
            count = _num(g(4)) or 0.0
            return Amount(s, e, "share", (100 * count / _FRACTIONS[g(5).lower()],), "fraction", unit="fraction")
        return Amount(s, e, "share", (50.0,), "fraction", unit="fraction")
    if kind == "half_time":
        text_ = m.group(0)
        if text_ == "一刻钟" or text_.lower().endswith("quarter of an hour"):
            seconds = 900.0
        elif text_ == "半年":
            seconds = _YEAR / 2
        elif g(1):
            seconds = {"hour": 3600.0, "day": _DAY, "year": _YEAR}[g(1).lower()] / 2
        elif g(3):
            seconds = ((_num(g(2)) or 0.0) + 0.5) * {"hour": 3600.0, "day": _DAY, "year": _YEAR}[g(3).lower()]
        elif g(5):
            seconds = ((_num(g(4)) or 0.0) + 0.5) * 3600.0 if g(4) else 1800.0
        else:
            seconds = ((_num(g(6)) or 0.0) + 0.5) * _YEAR
        return Amount(s, e, "time", _time_values(seconds), every=_every(text, s), unit="and a half")
    if kind == "ly":
        return Amount(s, e, "time", _time_values(_LY[g(1).lower()]), every=True, unit=f"{_LY[g(1).lower()]:g}")
    if kind == "bytes":
        power = _BYTES[g(2).lower()]
        value = float(g(1))
        return Amount(s, e, "bytes", (value * 1000 ** power, value * 1024 ** power), unit=str(power))
    if kind == "measure":
        if g(3):
            return Amount(s, e, "length", (float(g(3)),), "metric", _step(g(3)), unit="1")
        value = _num(g(1))
        unit = g(2) if g(2) in _MEASURES else g(2).lower()
        if value is None or unit not in _MEASURES or (unit == "g" and g(2) != "g"):
            return None
        dim, factor, system = _MEASURES[unit]
        return Amount(s, e, dim, (value * factor,), system, _step(g(1)) * factor, unit=f"{factor:g}")
    # duration
    if g(3):
        value, unit = _num(g(3)), "年"
    else:
        unit = g(2).lower()
        every = _every(text, m.start(2))
        value = _num(g(1)) if g(1) else (1.0 if every else None)
    if value is None or (unit in ("quarter", "quarters") and not (g(1) or _every(text, m.start(2)))):
        return None
    if unit in ("quarter", "quarters") and re.match(r"\s*(?:of|past|to|after|till)\b", text[e:], re.IGNORECASE):
        return None
    if unit in ("h",) and not (g(1) and g(1)[-1].isdigit()):
        return None
    return Amount(s, e, "time", _time_values(value * _DURATIONS[unit]), every=_every(text, m.start()),
                  unit=f"{_DURATIONS[unit]:g}")


@lru_cache(maxsize=8192)
def amounts(text: str) -> tuple[Amount, ...]:
    """The amounts of a text (already normalised: `normalised`), first found first kept where spans overlap."""
    found: list[Amount] = []
    taken = Taken(len(text))
    scan = mask_long_runs(text)  # no amount starts inside a 33-digit run (the patterns are quadratic on one)
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(scan):
            if taken.overlaps(m.start(), m.end()):
                continue
            amount = _read(kind, m, text)
            if amount is not None:
                found.append(amount)
                taken.add(amount.start, amount.end)
    return tuple(sorted(found, key=lambda a: a.start))


def same_amount(a: Amount, b: Amount) -> bool:
    """Whether two amounts are one value (see the module's rules)."""
    if a.every != b.every or not set(a.dim.split("/")) & set(b.dim.split("/")):
        return False  # (¥ is money:CNY/money:JPY: it meets either)
    if a.system and b.system and a.system != b.system:
        tolerance = max(a.step, b.step) / 2 + 1e-9
        return any(abs(x - y) <= tolerance for x in a.values for y in b.values)
    return any(abs(x - y) <= 1e-9 * max(1.0, abs(x)) for x in a.values for y in b.values)


def normalised(text: str) -> str:
    """`text` NFKC-normalised with its numbers read; a text meets many pairs, so the reading is kept, keyed by the
    number reading's switch too (write cost round 40)."""
    return _normalised(text, number_reading.reading_key())


@lru_cache(maxsize=8192)
def _normalised(text: str, said_forms: tuple[bool, ...]) -> str:  # noqa: ARG001  (keys the switches read inside)
    return read_numbers(unicodedata.normalize("NFKC", text))


def _unit_words(text: str) -> list[str]:
    return [u.text for u in units(text)]


@lru_cache(maxsize=4096)
def written_alike(old: str, new: str) -> tuple[str, str]:
    """(old, new) with each amount of `new` that states an amount of `old` in another unit written as in `old`;
    both texts read (`normalised`) when anything was rewritten, else returned as given (`new` with its quantities
    in the old text's forms, `quantity_forms.align_forms`). Texts in one script only."""
    if script_of(old) != script_of(new):
        return old, new  # across languages the judge asks for a shared anchor instead; its words are not aligned
    if ALIGN_FORMS:
        new = align_forms(old, new)  # a number, time, date or amount of the old text in another written form
    o, n = normalised(old), normalised(new)
    ours, theirs = amounts(o), amounts(n)
    if not ours or not theirs:
        return old, new
    pieces, last = [], 0
    for b in theirs:
        written = n[b.start:b.end]
        match = next((o[a.start:a.end] for a in ours if same_amount(a, b) and a.unit != b.unit), None)
        if match is None or _unit_words(match) == _unit_words(written):
            continue  # (the same words once numbers are read: 四十分钟 / 40 分钟)
        pieces += [n[last:b.start], f" {match.strip()} "]
        last = b.end
    if not pieces:
        return old, new
    return o, "".join([*pieces, n[last:]])
