"""Every value of a text in one typed canonical form, and whether two texts state the same values (hygiene round 22).

Restatements say the same number, date, time or amount in another written form ("3 pm" / 15:00, 两千 / 2000, "half an
hour" / 30 minutes, 2.5k / 2,500, Q3 / 第三季度), and the wording rules keep them apart before any model reads them
(blind round 21: at least 26 of 53 missed restatements). `canonical_values(text)` reads each value mention of a text
as the set of typed canonical values it may name - `quantity_forms.mentions` with every family of readings
(numbers in words by `text2num`, Chinese numerals by `text.numerals`, times of day, dates, durations, shares, money,
weights, mega / giga), plus the forms no reader here takes yet: a number scaled by k / 万 / 亿 ("8.3k", 一千二百万), a
Chinese count before its classifier (五楼, 四台) or with a place unit (三千九百六), 一毛 (0.1 元), quarters (Q3 / 第三季度 /
"third quarter"), a half year, "twenty to eleven", "ten percent", "one-year", weekdays (Thu / 礼拜四 = `wd:4`), this /
next / last week (本周 / 下周), parts of the day (上午 / 下午 / morning), every other week, a number glued to Han text
(版本是1.27), and codes (e-mail addresses, domains, IPs, tokens with a letter and a digit: `code:...`).
`value_match(old, new)` pairs the mentions of both sides (one mention per mention, a pair when they may name one
value; a bare hour meets a time of day at that hour, a bare day of the month a date on that day; a part of the day
said of a time of day beside it is read with it) and counts what is left over: the multisets are equal when nothing
is left on either side. Two texts that bound their values in opposite ways ("over" / "under", 超过 / 以内) leave one
over on each.

Lexical only, no model; what the judge does with it is `value_gate.gate_reason`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from hindsight.text.numerals import zh_int
from hindsight.text.spans import Taken
from hindsight.write import value_written
from hindsight.write.quantity_forms import EVERY_FAMILY, mentions
from hindsight.write.quantity_kinds import WORD_RUN, fmt, word_values
from hindsight.write.value_spoken import EARLY, read

_ZN = "零〇一二两三四五六七八九十百千"
_SCALE = {"k": 1e3, "K": 1e3, "w": 1e4, "千": 1e3, "万": 1e4, "亿": 1e8}
_MINUTE_WORDS = {"five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25}
_HOURS = {w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())}
_ORDINAL_Q = {"first": 1, "second": 2, "third": 3, "fourth": 4, "一": 1, "二": 2, "三": 3, "四": 4}
_WD_EN = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
_WD_ZH = {c: i + 1 for i, c in enumerate("一二三四五六")} | {"日": 7, "天": 7}
_UNIT_WORDS = {"day": 86400, "week": 604800, "month": 2592000, "year": 31536000}
_RELATIVE = {"上上": "before-last", "下下": "after-next", "本": "this", "这": "this", "this": "this", "下": "next", "next": "next", "上": "last", "last": "last"}
#: a part of the day, and the hours of a time of day it may be said of (`_explained`)
_PART = {"一大早": "morning", "一早": "morning", "上午": "morning", "早上": "morning", "早晨": "morning", "清晨": "morning", "凌晨": "night", "中午": "noon",
         "midday": "noon", "下午": "afternoon", "傍晚": "evening", "晚上": "evening", "夜里": "night", "白天": "day",
         "tonight": "evening", "overnight": "night"}
_PART_HOURS = {"morning": range(4, 12), "noon": range(11, 14), "afternoon": range(12, 19), "evening": range(17, 24),
               "night": (*range(19, 24), *range(0, 6)), "day": range(6, 20)}
#: which way a bound points ("over $500" / "under $500", 以内 / 超过): two texts that bound a value in opposite ways state
#: two rules, whatever their values (`value_match`); a bound on one side only is read as no bound
_BOUNDS = (("more", re.compile(r"\b(?:over|above|more than|longer than|greater than|exceed(?:s|ing)?|at least|minimum|or more)\b"
                              r"|以上|超过|多于|大于|高于|起码|至少|不少于", re.IGNORECASE)),
           ("less", re.compile(r"\b(?:under|below|less than|shorter than|within|up to|at most|max(?:imum)?|capped|or less|or fewer)\b"
                              r"|以内|以下|之内|不到|少于|小于|低于|最多|不超过", re.IGNORECASE)))
_AMOUNT = re.compile(r"\d+(?:[.,]\d+)*-?(?:k|w|m|bn|[kmgt]i?b|[kmgt]bps|ml|mg|kg|g|km|cm|mm|m|am|pm|st|nd|rd|th|s|h|hrs?|"
                     r"mins?|secs?|d|x|day|week|month|year|hour|minute)s?", re.IGNORECASE)
_HALF_YEAR = frozenset({"dur:15552000", "dur:15768000"})  # six months of 30 days, half of 365 days

#: (kind, pattern) of the forms `quantity_forms.mentions` does not read; earlier kinds win where spans overlap
_EXTRA: list[tuple[str, re.Pattern[str]]] = [
    ("code", re.compile(r"(?<![\d.])\d+(?:\.\d+){2,}(?![\d.])|[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"
                        r"|(?<![A-Za-z0-9.-])(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?![A-Za-z0-9])(?:/[A-Za-z0-9._~-]+)*"
                        r"|(?<![A-Za-z0-9-])(?=[A-Za-z-]*\d)(?=[\d-]*[A-Za-z])[A-Za-z0-9-]{3,}(?![A-Za-z0-9])")),
    ("quarter", re.compile(r"\bQ([1-4])\b|第\s*([一二三四1-4])\s*(?:个)?季度|\b(first|second|third|fourth)\s+quarter\b",
                           re.IGNORECASE)),
    ("clock_words", re.compile(r"\b(five|ten|twenty(?:[-\s]five)?)\s+(past|after|to|till)\s+(" + "|".join(_HOURS)
                               + r"|\d{1,2})\b", re.IGNORECASE)),
    ("half_year", re.compile(r"\bhalf[-\s]year\b|(?<![一二两三四五六七八九十\d个大多])半年")),
    ("unit_words", re.compile(r"\b(one)[-\s](day|week|month|year)\b(?!\s+(?:ago|later|before|after))", re.IGNORECASE)),
    ("share_words", re.compile(rf"\b({WORD_RUN})\s+per\s?cent\b", re.IGNORECASE)),
    *EARLY,
    *value_written.FORMS,  # 一亿八千万, 二十公斤, 二一年九月, 800 ms, "March third" (round 25)
    # 8.3k, 15w / 5千 (万 / 千 after digits, w only in Chinese text; 千克 / 千米 are units), 一千二百万; a digit run of at
    # most 40 characters and no numeral run started inside another (numlin24: linear on a crafted run)
    ("scaled", re.compile(rf"(?<![A-Za-z0-9_.])(\d[\d,]{{0,39}}(?:\.\d+)?)\s*(k|K|w(?=[\u4e00-\u9fff]|\s*$|[^\w])|万|亿|千(?![克米瓦卡字帕焦赫伏兆]))"
                          rf"(?![A-Za-z])|(?<![{_ZN}])([{_ZN}]+)(万|亿)")),
    ("dime", re.compile(r"([一二两三四五六七八九])\s*毛(?:钱)?")),
    ("every_other", re.compile(r"\bevery\s+(?:other|second)\s+(?=\w)|\b(?:bi-?weekly|fortnightly)\b|隔周|每隔一周|双周",
                               re.IGNORECASE)),
]
_SPOKEN = frozenset(kind for kind, _ in EARLY)
#: read after `quantity_forms.mentions`: a Chinese count or numeral where no reading of a kind took it (一个月 is a
#: duration, 三千九百六 a number)
_LATE: list[tuple[str, re.Pattern[str]]] = [
    ("zh_count", re.compile(rf"(?<![{_ZN}])([{_ZN}]+)\s*(?=[个台条楼层次本张位名件份只辆家所间栋座套把颗]|口人)")),
    ("zh_number", re.compile(r"(?<![一二两三四五六七八九])[一二两三四五六七八九]+[百千][零〇一二两三四五六七八九十百千]*")),
    ("plain", re.compile(r"(?<![A-Za-z0-9.,])\d+(?:[.,]\d+)*(?![A-Za-z0-9]|[.,]\d)")),
    ("relative", re.compile(r"(上上|下下|[本这下上])(?=个?(?:周|星期|礼拜|月))|\b(this|next|last)\s+(?=week|month|year|mon|tue|wed|thu|"
                            r"fri|sat|sun)", re.IGNORECASE)),
    ("day_part", re.compile(r"上午|下午|早上|早晨|清晨|一大早|一早|中午|傍晚|晚上|夜里|凌晨|白天|"
                            r"\b(?:morning|afternoon|evening|night|noon|midday|overnight|tonight)s?\b", re.IGNORECASE)),
    ("weekday", re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])|\b(?-i:(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*)\b\.?")),
]


@dataclass(frozen=True)
class Match:
    """The value mentions of a pair, paired across: how many paired, how many left on each side."""

    paired: int
    old_left: int
    new_left: int

    @property
    def equal(self) -> bool:
        """The two value multisets are equal after canonicalisation, and there is at least one value."""
        return self.paired >= 1 and self.old_left == 0 and self.new_left == 0


def _extra(kind: str, m: re.Match[str]) -> frozenset[str]:  # noqa: C901 - one branch per kind, read together
    g = m.group
    if kind == "code":
        squashed = "".join(ch for ch in m.group(0).lower() if ch.isalnum())
        if len(squashed) < 3 or _AMOUNT.fullmatch(m.group(0)):
            return frozenset()  # 84k, 16GB, 10am, 14th: an amount, read below
        return frozenset({f"code:{squashed}"})
    if kind == "quarter":
        raw = g(1) or g(2) or g(3)
        q = int(raw) if raw.isdigit() else _ORDINAL_Q[raw.lower()]
        return frozenset({f"quarter:{q}"}) if 1 <= q <= 4 else frozenset()
    if kind == "clock_words":
        minutes = _MINUTE_WORDS[re.sub(r"[-\s]+", " ", g(1).lower()).replace("twenty five", "twenty-five")]
        hour = int(g(3)) if g(3).isdigit() else _HOURS[g(3).lower()]
        if g(2).lower() in ("to", "till"):
            hour, minutes = (hour - 1) or 12, 60 - minutes
        if not 1 <= hour <= 12:
            return frozenset()
        return frozenset({f"clock:{hour:02d}:{minutes:02d}", f"clock:{hour + 12:02d}:{minutes:02d}"})
    if kind == "half_year":
        return _HALF_YEAR
    if kind == "unit_words":
        seconds = _UNIT_WORDS[g(2).lower()]
        values = {f"dur:{seconds}"}
        if g(2).lower() == "year":
            values.add(f"dur:{12 * _UNIT_WORDS['month']}")
        return frozenset(values)
    if kind in _SPOKEN:
        return read(kind, m)
    if kind in value_written.KINDS:
        return value_written.read(kind, m)
    if kind == "scaled":
        if g(2) == "w" and not re.search(r"[\u4e00-\u9fff]", m.string):
            return frozenset()  # 15w in English text: watts, not 万
        raw = g(1) or g(3)
        number = float(raw.replace(",", "")) if g(1) else zh_int(raw)
        if number is None:
            return frozenset()
        value = number * _SCALE[g(2) or g(4)]
        return frozenset({f"num:{fmt(value)}", f"money:CNY:{fmt(value)}", f"money:USD:{fmt(value)}"})
    if kind == "dime":
        tenths = zh_int(g(1))
        return frozenset({f"money:CNY:{fmt(tenths / 10)}", f"num:{fmt(tenths / 10)}"}) if tenths else frozenset()
    if kind == "share_words":
        words = [v for v in word_values(g(1)) if v.startswith("num:")]
        return frozenset({f"share:{words[0][4:]}"}) if len(words) == 1 else frozenset()
    if kind in ("zh_count", "zh_number"):
        count = zh_int(g(1) if kind == "zh_count" else g(0))
        return frozenset({f"num:{count}"}) if count is not None else frozenset()
    if kind == "every_other":
        return frozenset({"freq:every-other"})
    if kind == "plain":
        raw = g(0).replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", g(0)) else g(0)
        values = {"digits:" + re.sub(r"[.,]", "", raw)}
        if re.fullmatch(r"\d+(?:\.\d+)?", raw):
            values.add(f"num:{fmt(float(raw))}")
        return frozenset(values)
    if kind == "relative":
        return frozenset({"rel:" + _RELATIVE[(g(1) or g(2)).lower()]})
    if kind == "day_part":
        return frozenset({"part:" + _PART.get(g(0).lower().rstrip("s"), g(0).lower().rstrip("s"))})
    day = _WD_ZH[g(1)] if g(1) else _WD_EN[g(2).lower()[:3]]
    return frozenset({f"wd:{day}"})


@lru_cache(maxsize=8192)
def _read(text: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """(start, end, values) of every value mention of `text` (NFKC), in text order."""
    spans: list[tuple[int, int, frozenset[str]]] = []
    taken = Taken(len(text))

    def add(start: int, end: int, values: frozenset[str]) -> None:
        if values and not taken.overlaps(start, end):
            spans.append((start, end, values))
            taken.add(start, end)

    for kind, pattern in _EXTRA:  # codes first (INC-2291 is one value), then forms the shared readers lack ("Q3")
        for m in pattern.finditer(text):
            add(m.start(), m.end(), _extra(kind, m))
    for mention in mentions(text, EVERY_FAMILY):
        add(mention.start, mention.end, mention.values)
    for kind, pattern in _LATE:
        for m in pattern.finditer(text):
            add(m.start(), m.end(), _extra(kind, m))
    return tuple(sorted(spans))


def value_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the value mentions of `text` (NFKC) are written."""
    return tuple((s, e) for s, e, _ in _read(unicodedata.normalize("NFKC", text)))


def canonical_values(text: str) -> tuple[frozenset[str], ...]:
    """The value mentions of `text`, each as the set of typed canonical values it may name, in text order. A mention
    that may only name the number 1 ("one", "first", "1") is no evidence of a value and is left out."""
    return tuple(v for _, _, v in _read(unicodedata.normalize("NFKC", text)) if not v <= {"num:1", "digits:1"})


def _meet(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two mentions may name one value: a value in common, a bare hour and a time of day at that hour
    ("four" / 4 pm), a bare day of the month and a date on that day ("the 14th" / 14 Nov)."""
    if a & b:
        return True
    for x, y in ((a, b), (b, a)):
        nums = {v[4:] for v in x if v.startswith("num:")}
        if not nums or any(v.startswith(("clock:", "date:")) for v in x):
            continue
        for v in y:
            if v.startswith("clock:") and v.endswith(":00") and str(int(v[6:8]) % 12 or 12) in nums:
                return True
            if v.startswith("date:") and v.split("-")[1] in nums:
                return True
    return False


def part_hours(mentions: tuple[frozenset[str], ...]) -> set[int]:
    """The hours the parts of the day among `mentions` may hold (morning: 4 - 11, 下午: 12 - 18, ...)."""
    return {h for part in mentions for v in part if v.startswith("part:") for h in _PART_HOURS.get(v[5:], ())}


def _explained(part: frozenset[str], side: tuple[frozenset[str], ...]) -> bool:
    """A part of the day said of a time of day on the same side ("half nine in the morning", 下午 3:00): read with it."""
    hours = part_hours((part,))
    return any(v.startswith("clock:") and int(v[6:8]) in hours for mention in side for v in mention)


#: A negation right before a bound turns it round: "no more than five" / "max 5", 不能超过 4 小时 / 最多 4 个钟头, 不能少于
#: 两个半小时 / 至少 150 分钟 (hygiene round 29: round 22's reading read them as opposite bounds). False: round 22's reading.
NEGATED_BOUNDS = True
_NEGATED_EN = re.compile(r"(?:\b(?:no|not|never)|n't)\s+$", re.IGNORECASE)
_NEGATED_ZH = re.compile(r"(?:不能|不得|不可|不要|不许|不|别)$")


def _bound_kinds(text: str) -> set[str]:
    """Which ways the bounds of a text point ("more" / "less"), a negated bound turned round."""
    text = unicodedata.normalize("NFKC", text)
    found = set()
    for kind, pattern in _BOUNDS:
        for m in pattern.finditer(text):
            before = text[max(0, m.start() - 8):m.start()]
            negated = NEGATED_BOUNDS and bool(_NEGATED_EN.search(before) or (
                not m.group(0).startswith("不") and _NEGATED_ZH.search(before)))
            found.add(("less" if kind == "more" else "more") if negated else kind)
    return found


def bounded_apart(old: str, new: str) -> bool:
    """Both texts bound their values, in opposite ways ("flights under 6 hours" / "flights over 6 hours", 以内 / 超过):
    two rules, whatever their values; a bound on one side only is read as no bound."""
    bounds = [_bound_kinds(t) for t in (old, new)]
    return bool(bounds[0] and bounds[1] and not bounds[0] & bounds[1])


@lru_cache(maxsize=4096)
def value_match(old: str, new: str) -> Match:
    """The value mentions of `old` and `new` paired one to one where they may name one value (a maximum bipartite
    matching, augmenting paths): how many paired, how many left over on each side (a part of the day left over is
    not, where a time of day beside it on its side says it; both sides bounding their values in opposite ways -
    "over" / "under", 超过 / 以内 - leave one over on each)."""
    a, b = canonical_values(old), canonical_values(new)
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, vb in enumerate(b):
            if j in seen or not _meet(a[i], vb):
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    paired = sum(place(i, set()) for i in range(len(a)))
    if bounded_apart(old, new):
        return Match(paired, len(a) - paired + 1, len(b) - paired + 1)  # bounded the other way: another rule
    placed = set(owner.values())
    old_left = sum(i not in placed and not _explained(v, a) for i, v in enumerate(a))
    new_left = sum(j not in owner and not _explained(v, b) for j, v in enumerate(b))
    return Match(paired, old_left, new_left)
