"""Query understanding: time windows, memory-type cues, exact phrases and names.

``parse_query("what went wrong with the migration last week?", now)`` turns a
free-text question (English, Chinese or mixed) into structured hints the
retrieval engine can use as filters or boosts:

* a time window ``[time_from, time_to)`` with ``time_is_hard`` telling whether
  the query clearly restricts time ("last week", "上周") or only leans that way
  ("recently", "最近"), which should be a soft boost;
* memory types cued by words such as "pitfalls" / "踩过的坑" (warning) or
  "preferences" / "偏好" (semantic), with ``type_is_hard`` only for the few
  unambiguous cues, because a wrong type filter silently kills recall;
* exact phrases (quoted text, error codes, identifiers, paths) for exact-match
  boosts, and capitalised English names (jieba ``nr`` tags for Chinese);
* the residual text with the time expression cut out, for embedding and BM25
  (the words "last week" say nothing about the content being looked for).

Design notes (why it looks like this):

* Everything is regex-first. Each rule only fires on a span that is clearly a
  time expression (a month name needs a day, a year or a preposition, so
  "I may go" and "March on" stay ordinary text). ``dateparser`` is far too
  eager on ordinary words and costs milliseconds, so it is only consulted for
  purely numeric dates such as ``05/08/2023`` that a pattern already found,
  with its results cached.
* Calendar arithmetic is done in the time zone of ``now`` (so "today" means
  the caller's day when it passes a local ``now``) and the results are
  returned in UTC. Windows are half-open: ``time_from <= t < time_to``.
* Rolling windows ("the past 3 days", "最近一周", "recently") end at ``now``.
  Calendar windows ("last week", "上个月") end at the end of the period.
* Overlapping matches are resolved longest-first, so "the day before
  yesterday" beats "yesterday" and "上周一" beats "上周". Future expressions
  ("next week", "明天", "下周一") are recognised only to stop their pieces from
  matching; they yield no filter, since memories are about the past.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache
from itertools import pairwise

from hindsight.model import MemoryType

__all__ = ["ParsedQuery", "parse_query", "warm_up"]

# ---------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------


@dataclass
class ParsedQuery:
    """What :func:`parse_query` understood about a query.

    Attributes:
        text: the query after Unicode (NFKC) and whitespace normalisation.
        residual: ``text`` without the time expression(s) and their
            prepositions, for embedding / BM25. Never empty for a non-empty
            query: falls back to ``text`` when nothing meaningful is left.
        time_from: inclusive start of the time window (UTC), or ``None`` for
            unbounded (e.g. "before 2023").
        time_to: exclusive end of the window (UTC), or ``None``.
        time_expression: the matched text, e.g. ``"last week"``; several
            expressions are reported as the text spanning them ("May and
            July 2023") or joined with ", ".
        time_is_hard: ``True`` when the query clearly restricts time and the
            window may be used as a filter; ``False`` for vague expressions
            ("recently", "a few days ago") that should only boost.
        types: memory types cued by the wording, in order of appearance.
        type_is_hard: ``True`` only for unambiguous cues ("pitfalls",
            "preferences", "踩过的坑", "偏好"); otherwise use ``types`` as a boost.
        phrases: quoted phrases and exact identifiers (error codes, CamelCase
            or snake_case identifiers, paths, URLs, versions), in text order.
        names: capitalised English names and Chinese person names (heuristic).
    """

    text: str
    residual: str
    time_from: datetime | None = None
    time_to: datetime | None = None
    time_expression: str | None = None
    time_is_hard: bool = False
    types: list[MemoryType] = field(default_factory=list)
    type_is_hard: bool = False
    phrases: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @property
    def has_time(self) -> bool:
        """Whether a time window was found (either bound may still be ``None``)."""
        return self.time_expression is not None

    @property
    def is_empty(self) -> bool:
        """Nothing structured was found: no time, types, phrases or names."""
        return not (self.has_time or self.types or self.phrases or self.names)


# ---------------------------------------------------------------------------
# Calendar helpers (all in the time zone of ``now``)
# ---------------------------------------------------------------------------

_Range = tuple[datetime | None, datetime | None, bool]
"""(from, to, hard) in the local zone of ``now``; ``None`` is unbounded."""
_Window = tuple[datetime, datetime, bool]
"""A bounded :data:`_Range`, as every calendar helper returns."""

_REJECT = False
"""Handler result: the pattern matched but the span is not a time expression."""

_HandlerResult = _Range | bool | None
"""A range; ``None`` for a recognised expression without a past window
(future words: blocks its sub-matches); ``False`` to reject the match."""


@dataclass(frozen=True)
class _Ctx:
    now: datetime
    tz: tzinfo
    today: date

    def at(self, d: date, hour: int = 0) -> datetime:
        return datetime.combine(d, time(hour), tzinfo=self.tz)

    def day(self, d: date, hard: bool = True) -> _Window:
        return self.at(d), self.at(d + timedelta(days=1)), hard

    def days(self, first: date, last: date, hard: bool = True) -> _Window:
        return self.at(first), self.at(last + timedelta(days=1)), hard

    def week(self, d: date, hard: bool = True) -> _Window:
        monday = d - timedelta(days=d.weekday())
        return self.at(monday), self.at(monday + timedelta(days=7)), hard

    def month(self, year: int, month: int, hard: bool = True) -> _Window:
        first = date(year, month, 1)
        return self.at(first), self.at(_add_months(first, 1)), hard

    def year(self, year: int, hard: bool = True) -> _Window:
        return self.at(date(year, 1, 1)), self.at(date(year + 1, 1, 1)), hard

    def rolling(self, start: datetime, hard: bool = True) -> _Window:
        return start, self.now, hard


def _add_months(d: date, n: int) -> date:
    """``d`` moved by ``n`` calendar months, the day clamped to the month's length."""
    idx = d.year * 12 + d.month - 1 + n
    y, m = divmod(idx, 12)
    m += 1
    return date(y, m, min(d.day, calendar.monthrange(y, m)[1]))


def _valid_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _recent_month_year(ctx: _Ctx, month: int) -> int:
    """Year of the most recent ``month`` not after today."""
    return ctx.today.year if month <= ctx.today.month else ctx.today.year - 1


def _recent_date(ctx: _Ctx, month: int, day: int) -> date | None:
    """The most recent ``month``/``day`` not after today (Feb 29 looks back to a leap year)."""
    for y in range(ctx.today.year, ctx.today.year - 8, -1):
        d = _valid_date(y, month, day)
        if d is not None and d <= ctx.today:
            return d
    return None


def _part_of_year(ctx: _Ctx, year: int, part: str | None) -> _Window:
    """Whole year, or its early (Jan-Apr) / mid (May-Aug) / late (Sep-Dec) third."""
    if not part:
        return ctx.year(year)
    start = {"early": 1, "mid": 5, "late": 9}[part]
    return ctx.at(date(year, start, 1)), ctx.at(_add_months(date(year, start, 1), 4)), True


def _part_of_month(ctx: _Ctx, year: int, month: int, part: str | None) -> _Window:
    """Whole month, or days 1-10 (early), 11-20 (mid), 21-end (late)."""
    if not part:
        return ctx.month(year, month)
    last = calendar.monthrange(year, month)[1]
    first_day, last_day = {"early": (1, 10), "mid": (11, 20), "late": (21, last)}[part]
    return ctx.days(date(year, month, first_day), date(year, month, last_day))


def _quarter(ctx: _Ctx, year: int, q: int) -> _Window:
    first = date(year, 3 * (q - 1) + 1, 1)
    return ctx.at(first), ctx.at(_add_months(first, 3)), True


def _weekend(ctx: _Ctx, which: str) -> _Window:
    """``which``: "last" (the most recent weekend before the current one), "this", or
    "recent" (the current weekend if today is Sat/Sun, else the last one)."""
    wd = ctx.today.weekday()
    this_sat = ctx.today - timedelta(days=wd) + timedelta(days=5)
    if which == "this" or (which == "recent" and wd >= 5):
        sat = this_sat
    else:
        sat = this_sat - timedelta(days=7)
    return ctx.days(sat, sat + timedelta(days=1))


_UNITS = ("minute", "hour", "day", "week", "month", "year")


def _ago(ctx: _Ctx, unit: str, lo: int, hi: int, vague: bool) -> _Window:
    """A window around "N units ago".

    Exact counts use the calendar unit containing that point (the day, its
    Monday-Sunday week, the month, the year); a day count gets one day of
    slack either side because people round ("3 days ago"), except 1 (=
    yesterday). Vague counts ("a few", "几") span lo..hi units and are soft.
    """
    hard = not vague
    if unit == "minute":
        pad = timedelta(minutes=max(5, hi // 2))
        return ctx.now - timedelta(minutes=hi) - pad, ctx.now - timedelta(minutes=lo) + pad, hard
    if unit == "hour":
        return ctx.now - timedelta(hours=hi + 1), ctx.now - timedelta(hours=max(lo - 1, 0)), hard
    if unit == "day":
        if not vague and lo == hi:
            if lo <= 1:
                return ctx.day(ctx.today - timedelta(days=lo))
            lo, hi = lo - 1, hi + 1
        return ctx.days(ctx.today - timedelta(days=hi), ctx.today - timedelta(days=lo), hard)
    if unit == "week":
        start = ctx.week(ctx.today - timedelta(weeks=hi))[0]
        end = ctx.week(ctx.today - timedelta(weeks=lo))[1]
        return start, end, hard
    if unit == "month":
        a = _add_months(ctx.today, -hi)
        b = _add_months(ctx.today, -lo)
        return ctx.month(a.year, a.month)[0], ctx.month(b.year, b.month)[1], hard
    if unit == "decade":
        hi, lo = hi * 10, lo * 10
        unit = "year"
    return ctx.year(ctx.today.year - hi)[0], ctx.year(ctx.today.year - lo)[1], hard


def _past(ctx: _Ctx, unit: str, n: int, hard: bool = True) -> _Window:
    """Rolling window "the past N units", from the start of that day until now."""
    if unit == "minute":
        return ctx.rolling(ctx.now - timedelta(minutes=n), hard)
    if unit == "hour":
        return ctx.rolling(ctx.now - timedelta(hours=n), hard)
    if unit == "day":
        start = ctx.today - timedelta(days=n)
    elif unit == "week":
        start = ctx.today - timedelta(weeks=n)
    elif unit == "month":
        start = _add_months(ctx.today, -n)
    elif unit == "decade":
        start = _add_months(ctx.today, -120 * n)
    else:
        start = _add_months(ctx.today, -12 * n)
    return ctx.rolling(ctx.at(start), hard)


def _soft_recent(ctx: _Ctx, days: int = 30) -> _Window:
    """Soft "recently": the last ``days`` days until now."""
    return ctx.rolling(ctx.now - timedelta(days=days), hard=False)


# ---------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------

_EN_NUMBERS: dict[str, tuple[int, int, bool]] = {
    "a": (1, 1, False),
    "an": (1, 1, False),
    "one": (1, 1, False),
    "a couple of": (2, 3, True),
    "a couple": (2, 3, True),
    "couple of": (2, 3, True),
    "a few": (2, 5, True),
    "few": (2, 5, True),
    "several": (3, 7, True),
    "a dozen": (12, 12, False),
}
for _i, _w in enumerate(
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split(),
    start=2,
):
    _EN_NUMBERS[_w] = (_i, _i, False)
for _w, _i in {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100}.items():
    _EN_NUMBERS[_w] = (_i, _i, False)

_EN_NUM = (
    r"(?:\d{1,3}|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|a\s+dozen|few|several|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|an?)"
)


def _en_number(s: str) -> tuple[int, int, bool] | None:
    """English count -> (lo, hi, vague)."""
    s = re.sub(r"\s+", " ", s.strip().lower())
    if s.isdigit():
        n = int(s)
        return (n, n, False)
    return _EN_NUMBERS.get(s)


_EN_UNIT = r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?|decades?)"


def _en_unit(s: str) -> str:
    s = s.lower()
    for prefix, unit in (
        ("mi", "minute"),
        ("h", "hour"),
        ("da", "day"),
        ("w", "week"),
        ("mo", "month"),
        ("de", "decade"),
    ):
        if s.startswith(prefix):
            return unit
    return "year"


_ZH_DIGITS = "一二三四五六七八九"
_ZH_NUM = r"(?:\d{1,3}|好几|几|半|[零〇一二两三四五六七八九十百]{1,4})"
_ZH_VAGUE = {"几": (2, 5), "好几": (3, 7)}
_ZH_MONTH_NUM = r"(?:1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
_ZH_DAY_NUM = r"(?:3[01]|[12]\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"


@lru_cache(maxsize=512)
def _zh_number(s: str) -> tuple[int, int, bool] | None:
    """Chinese or Arabic count -> (lo, hi, vague); "两三" style pairs are vague ranges."""
    if s.isdigit():
        return (int(s), int(s), False)
    if s in _ZH_VAGUE:
        lo, hi = _ZH_VAGUE[s]
        return (lo, hi, True)
    t = s.replace("两", "二")
    if len(t) == 2 and t[0] in _ZH_DIGITS and t[1] in _ZH_DIGITS:
        a, b = _ZH_DIGITS.index(t[0]) + 1, _ZH_DIGITS.index(t[1]) + 1
        if b == a + 1:
            return (a, b, True)
    value = _cn2int(s)
    return None if value is None else (value, value, False)


@lru_cache(maxsize=512)
def _cn2int(s: str) -> int | None:
    """Chinese numeral (三, 十二, 两, 二十八) -> int via cn2an, imported lazily."""
    if s.isdigit():
        return int(s)
    import cn2an  # lazy: ~0.1 s import, only needed for Chinese numerals

    try:
        value = cn2an.cn2an(s, "smart")
    except (ValueError, KeyError, IndexError):
        return None
    return int(value) if float(value).is_integer() else None


_ZH_UNITS = {
    "分钟": "minute",
    "小时": "hour",
    "钟头": "hour",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}
_ZH_UNIT = r"(?:分钟|小时|钟头|天|日|周|星期|礼拜|月|年)"


def _zh_half(unit: str) -> tuple[str, int, int]:
    """"半" + unit -> an equivalent (unit, lo, hi): 半年 = 6 months, 半个月 ≈ 12-18 days."""
    return {
        "year": ("month", 6, 6),
        "month": ("day", 12, 18),
        "week": ("day", 3, 4),
        "day": ("hour", 12, 12),
        "hour": ("minute", 30, 30),
        "minute": ("minute", 1, 1),
    }[unit]


# ---------------------------------------------------------------------------
# Month and weekday names
# ---------------------------------------------------------------------------

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# Month words that are also ordinary English words or names.
_AMBIGUOUS_MONTHS = {"may", "mar", "march", "jan", "jun", "aug", "august", "dec", "april", "june"}

_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}


def _month_no(word: str) -> int:
    return _MONTHS[word.lower()[:3]]


def _month_word_ok(word: str, has_day: bool, has_year: bool, prep: str | None) -> bool:
    """Guard against "I may go", "March on", "April said": ambiguous month words
    need a year, a preposition, or (capitalised) a day number."""
    if has_year:
        return True
    low = word.lower()
    if low not in _AMBIGUOUS_MONTHS:
        return has_day or prep is not None
    if prep is not None:
        # "the last may be", "this may": lowercase ambiguous words only after real prepositions.
        return word[0].isupper() or prep.lower().split()[-1] in _TRUE_PREPS
    return has_day and word[0].isupper()


_TRUE_PREPS = frozenset(
    {"in", "on", "during", "since", "until", "till", "before", "after", "throughout", "from", "of", "early", "mid", "late"}
)


def _year_ok(ctx: _Ctx, y: int) -> bool:
    return 1900 <= y <= ctx.today.year + 1


# ---------------------------------------------------------------------------
# Rules: (compiled pattern, handler). Handlers get (match, ctx).
# ---------------------------------------------------------------------------

_Handler = Callable[[re.Match[str], _Ctx], _HandlerResult]
_RULES: list[tuple[re.Pattern[str], _Handler]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[_Handler], _Handler]:
    def register(fn: _Handler) -> _Handler:
        _RULES.append((re.compile(pattern, flags), fn))
        return fn

    return register


# --- future (blockers) -------------------------------------------------------


@_rule(
    r"\b(?:the\s+day\s+after\s+tomorrow|tomorrow|next\s+(?:week|month|year|quarter|weekend|time|"
    + _WEEKDAY
    + "|"
    + _MONTH
    + r")|(?:later|coming)\s+(?:today|this\s+(?:week|month|year))|upcoming|"
    r"in\s+(?:a|an|one|two|three|four|five|six|\d{1,3})\s+" + _EN_UNIT + r"(?!\s+ago))\b"
)
def _en_future(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """Future expressions: recognised so their parts do not match, but no window."""
    return None


@_rule(r"明天|明日|明年|后天|下(?:个|一)?(?:周|星期|礼拜|月)[一二三四五六日天末]?|下半?个?月|将来|未来", 0)
def _zh_future(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return None


# --- days ----------------------------------------------------------------------


@_rule(r"\b(?:(?:earlier|later)\s+)?today\b|\bthis\s+(?:morning|afternoon|evening)\b|\btonight\b")
def _en_today(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.day(ctx.today)


@_rule(r"\byesterday(?:\s+(?:morning|afternoon|evening|night))?\b")
def _en_yesterday(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.day(ctx.today - timedelta(days=1))


@_rule(r"\b(?:the\s+)?day\s+before\s+yesterday\b")
def _en_day_before_yesterday(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.day(ctx.today - timedelta(days=2))


@_rule(r"\blast\s+night\b")
def _en_last_night(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """Yesterday 18:00 to today 06:00."""
    y = ctx.today - timedelta(days=1)
    return ctx.at(y, 18), ctx.at(ctx.today, 6), True


@_rule(r"\bjust\s+now\b|\ba\s+(?:moment|minute|few\s+minutes)\s+ago\b")
def _en_just_now(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.rolling(ctx.now - timedelta(hours=2), hard=False)


@_rule(r"(?<![之以提事])(?:大前天|前天|昨天|昨日|昨晚|昨夜|今天|今日|今早|今晨|今晚|今夜)", 0)
def _zh_day(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    word = m.group(0)
    if word.startswith("今"):
        return ctx.day(ctx.today)
    if word.startswith("昨"):
        return ctx.day(ctx.today - timedelta(days=1))
    back = 3 if word == "大前天" else 2
    return ctx.day(ctx.today - timedelta(days=back))


@_rule(r"刚才|刚刚|方才", 0)
def _zh_just_now(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.rolling(ctx.now - timedelta(hours=2), hard=False)


# --- calendar periods -----------------------------------------------------------


@_rule(r"\b(this|last|previous|the\s+previous)\s+(week|month|year|quarter)\b")
def _en_period(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """Calendar periods: "this week" is Monday-Sunday, "last month" the previous month."""
    back = 0 if m.group(1).lower() == "this" else 1
    unit = m.group(2).lower()
    t = ctx.today
    if unit == "week":
        return ctx.week(t - timedelta(weeks=back))
    if unit == "month":
        d = _add_months(t, -back)
        return ctx.month(d.year, d.month)
    if unit == "quarter":
        q_idx = t.year * 4 + (t.month - 1) // 3 - back
        return _quarter(ctx, q_idx // 4, q_idx % 4 + 1)
    return ctx.year(t.year - back)


@_rule(r"\bthe\s+(week|month|year)\s+before\s+last\b")
def _en_before_last(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return _ago(ctx, m.group(1).lower(), 2, 2, False)


@_rule(r"\b(?:(last|this(?:\s+past)?|past)\s+weekend|(?:over|on|during|at)\s+the\s+weekend)\b")
def _en_weekend(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    which = (m.group(1) or "").lower()
    if which == "this":
        return _weekend(ctx, "this")
    if which == "last":
        return _weekend(ctx, "last")
    return _weekend(ctx, "recent")


@_rule(r"\bearlier\s+this\s+(week|month|year)\b")
def _en_earlier_this(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    unit = m.group(1).lower()
    start = {"week": ctx.week(ctx.today)[0], "month": ctx.month(ctx.today.year, ctx.today.month)[0]}.get(
        unit, ctx.year(ctx.today.year)[0]
    )
    return ctx.rolling(start)


@_rule(r"\b(?:q([1-4])\s*(?:of\s+)?((?:19|20)\d{2})|((?:19|20)\d{2})\s*q([1-4]))\b")
def _en_quarter(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    q = int(m.group(1) or m.group(4))
    y = int(m.group(2) or m.group(3))
    return _quarter(ctx, y, q) if _year_ok(ctx, y) else _REJECT


@_rule(r"(上上个?|上一?个?|这一?个?|本|当)(周末|周|星期|礼拜|月|季度)(?![一二三四五六日天期年])", 0)
def _zh_period(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """本周/这周/这个星期, 上周/上个星期/上上周, 本月/这个月, 上个月/上月, 本季度; 周末 variants."""
    prefix, unit = m.group(1), m.group(2)
    back = 2 if prefix.startswith("上上") else 1 if prefix.startswith("上") else 0
    t = ctx.today
    if unit == "周末":
        if back == 0:
            return _weekend(ctx, "this")
        sat = _weekend(ctx, "this")[0].date() - timedelta(weeks=back)
        return ctx.days(sat, sat + timedelta(days=1))
    if unit == "月":
        d = _add_months(t, -back)
        return ctx.month(d.year, d.month)
    if unit == "季度":
        q_idx = t.year * 4 + (t.month - 1) // 3 - back
        return _quarter(ctx, q_idx // 4, q_idx % 4 + 1)
    return ctx.week(t - timedelta(weeks=back))


@_rule(r"(?<![之以])周末", 0)
def _zh_bare_weekend(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return _weekend(ctx, "recent")


@_rule(r"(今年|本年|去年|前年|大前年)(上半年|下半年|年初|初|年底|底|年末|末)?", 0)
def _zh_relative_year(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    back = {"今年": 0, "本年": 0, "去年": 1, "前年": 2, "大前年": 3}[m.group(1)]
    return _zh_year_part(ctx, ctx.today.year - back, m.group(2))


def _zh_year_part(ctx: _Ctx, y: int, part: str | None) -> _Window:
    """上半年 = Jan-Jun, 下半年 = Jul-Dec, 年初 = Jan-Mar, 年底/年末 = Oct-Dec."""
    if not part:
        return ctx.year(y)
    if part == "上半年":
        first, months = 1, 6
    elif part == "下半年":
        first, months = 7, 6
    elif part.endswith("初"):
        first, months = 1, 3
    else:
        first, months = 10, 3
    start = date(y, first, 1)
    return ctx.at(start), ctx.at(_add_months(start, months)), True


@_rule(r"(?<![今去前本年])(上半年|下半年)", 0)
def _zh_half_year(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return _zh_year_part(ctx, ctx.today.year, m.group(1))


@_rule(r"(今年|本月|这个月|本周|这周)早些时候", 0)
def _zh_earlier_this(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    unit = m.group(1)
    if unit == "今年":
        return ctx.rolling(ctx.year(ctx.today.year)[0])
    if unit.endswith("月"):
        return ctx.rolling(ctx.month(ctx.today.year, ctx.today.month)[0])
    return ctx.rolling(ctx.week(ctx.today)[0])


# --- rolling windows and "ago" ----------------------------------------------------


@_rule(
    r"\b(?:(?:in|over|during|within|for)\s+)?(?:the\s+|this\s+)?(?:(past|last|previous)\s+("
    + _EN_NUM
    + r")\s+("
    + _EN_UNIT
    + r")|(?:the|this)\s+(?:past|last)\s+("
    + _EN_UNIT
    + r")|past\s+("
    + _EN_UNIT
    + r"))\b"
)
def _en_past_n(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"the past 3 days", "last two weeks", "over the past month", "past year": rolling until now.

    Plain "last month" without "the"/"past" is the calendar month (see _en_period).
    """
    if m.group(2):
        num = _en_number(m.group(2))
        if num is None:
            return _REJECT
        return _past(ctx, _en_unit(m.group(3)), num[1])
    return _past(ctx, _en_unit(m.group(4) or m.group(5)), 1)


@_rule(
    r"\b(?:(about|around|roughly|approximately|almost|nearly|like|some|over|more\s+than|less\s+than|"
    r"under|within)\s+)?("
    + _EN_NUM
    + r")\s+("
    + _EN_UNIT
    + r")\s+(?:or\s+so\s+)?ago\b"
)
def _en_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"three months ago" -> that month; "2 weeks ago" -> that week; "over a year ago" -> before."""
    num = _en_number(m.group(2))
    if num is None:
        return _REJECT
    lo, hi, vague = num
    start, end, hard = _ago(ctx, _en_unit(m.group(3)), lo, hi, vague)
    qual = (m.group(1) or "").lower()
    if qual in ("over", "more than"):
        return None, end, hard
    if qual in ("less than", "under", "within"):
        return start, ctx.now, hard
    return start, end, hard


@_rule(r"\bhalf\s+an?\s+(hour|year)\s+ago\b")
def _en_half_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    if m.group(1).lower() == "hour":
        return _ago(ctx, "minute", 30, 30, False)
    return _ago(ctx, "month", 6, 6, False)


@_rule(r"\b(?:recently|lately|of\s+late|these\s+days|nowadays|in\s+recent\s+(?:days|weeks|months|times))\b")
def _en_recently(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """Soft: the last 30 days, as a boost rather than a filter."""
    return _soft_recent(ctx)


@_rule(r"\b(?:a\s+while\s+(?:ago|back)|some\s+time\s+ago)\b")
def _en_a_while_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.now - timedelta(days=180), ctx.now - timedelta(days=3), False


@_rule(
    r"(?<![\d零〇一二两三四五六七八九十百几])(" + _ZH_NUM + r")\s*(个)?\s*(" + _ZH_UNIT + r")\s*(?:之前|以前|前)",
    0,
)
def _zh_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """N天前 / 三个月前 / 两年前 / 半年前 / 几天前 / 两三周前."""
    raw, ge, unit_word = m.group(1), m.group(2), m.group(3)
    unit = _ZH_UNITS[unit_word]
    if unit == "month" and not ge and raw != "半":
        return _REJECT  # "3月前" reads as "before March"; durations need 个
    if raw == "半":
        unit, lo, hi = _zh_half(unit)
        return _ago(ctx, unit, lo, hi, False)
    num = _zh_number(raw)
    if num is None:
        return _REJECT
    return _ago(ctx, unit, *num)


@_rule(
    r"(过去|最近|近|这)\s*的?\s*(" + _ZH_NUM + r")\s*(个)?\s*(" + _ZH_UNIT + r")(?:内|里|以来|来|之内|当中|中)?",
    0,
)
def _zh_past_n(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """过去三天 / 最近一周 / 近三个月 / 这两天 / 最近几天 (vague -> soft)."""
    raw, unit = m.group(2), _ZH_UNITS[m.group(4)]
    if unit == "month" and not m.group(3) and raw != "半":
        return _REJECT
    if raw == "半":
        unit, _lo, hi = _zh_half(unit)
        return _past(ctx, unit, hi)
    num = _zh_number(raw)
    if num is None:
        return _REJECT
    return _past(ctx, unit, num[1], hard=not num[2])


@_rule(
    r"(?<![\d零〇一二两三四五六七八九十百几])(" + _ZH_NUM + r")\s*(个)?\s*(" + _ZH_UNIT + r")\s*(?:以来|来)",
    0,
)
def _zh_n_since(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """三天以来 / 两个月来: rolling."""
    raw, unit = m.group(1), _ZH_UNITS[m.group(3)]
    if unit == "month" and not m.group(2):
        return _REJECT
    num = _zh_number(raw) if raw != "半" else None
    if num is None:
        return _REJECT
    return _past(ctx, unit, num[1], hard=not num[2])


@_rule(r"最近|近期|近来|近日|这段时间|这阵子|这些天|这些日子", 0)
def _zh_recently(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return _soft_recent(ctx)


@_rule(r"前段时间|前阵子|前些天|前些日子|之前一段时间", 0)
def _zh_a_while_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.now - timedelta(days=90), ctx.now - timedelta(days=2), False


# --- seasons (northern hemisphere) -----------------------------------------------

_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12, "春": 3, "夏": 6, "秋": 9, "冬": 12}


def _season(ctx: _Ctx, first_month: int, year: int | None, which: str) -> _HandlerResult:
    """Spring = Mar-May, summer = Jun-Aug, autumn = Sep-Nov, winter = Dec-Feb (starts in ``year``).

    ``which``: "this" (this year's), "last" (the most recent one that has
    ended), "recent" (the most recent one that has started).
    """
    t = ctx.today
    if year is None:
        start = date(t.year, first_month, 1)
        if which == "this":
            if first_month == 12 and t.month <= 2:
                start = date(t.year - 1, 12, 1)
        else:
            if start > t:
                start = date(t.year - 1, first_month, 1)
            if which == "last" and _add_months(start, 3) > t:
                start = date(start.year - 1, first_month, 1)
    else:
        start = date(year, first_month, 1)
    return ctx.at(start), ctx.at(_add_months(start, 3)), True


@_rule(
    r"\b(?:(last|this|past|(?:in|during|over)\s+the)\s+(spring|summer|autumn|fall|winter)"
    r"(?:\s+(?:of\s+)?((?:19|20)\d{2}))?|(spring|summer|autumn|fall|winter)\s+(?:of\s+)?((?:19|20)\d{2}))\b"
)
def _en_season(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"last summer", "this spring", "in the winter of 2023", "summer 2024"."""
    which_raw = (m.group(1) or "").lower()
    word = (m.group(2) or m.group(4)).lower()
    year_s = m.group(3) or m.group(5)
    year = int(year_s) if year_s else None
    if year is not None and not _year_ok(ctx, year):
        return _REJECT
    if word == "fall" and year is None and which_raw not in ("last", "this", "past"):
        return _REJECT  # "in the fall" of something is too often not a season
    which = "this" if which_raw == "this" else "last" if which_raw in ("last", "past") else "recent"
    return _season(ctx, _SEASONS[word], year, which)


@_rule(r"(?:((?:19|20)\d{2})\s*年|(今年|去年|前年))?(?:的)?([春夏秋冬])(?:天|季)", 0)
def _zh_season(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """春天/夏天/秋季/冬天, 去年夏天, 2023年秋天."""
    ystr, rel, word = m.groups()
    if ystr:
        year: int | None = int(ystr)
    elif rel:
        year = ctx.today.year - {"今年": 0, "去年": 1, "前年": 2}[rel]
    else:
        year = None
    return _season(ctx, _SEASONS[word], year, "recent")


# --- weekdays ---------------------------------------------------------------------


@_rule(
    r"\b(?:(last|this(?:\s+past)?|on|past|previous)\s+(" + _WEEKDAY + r")(?:\s+(?:of\s+)?(last|this)\s+week)?"
    r"|(" + _WEEKDAY + r")\s+(?:of\s+)?(last|this)\s+week)\b"
)
def _en_weekday(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"last Monday" = the most recent Monday before today; "on Monday" may be today;
    "this Monday" / "Monday this week" = this week's; "Monday last week" = last week's."""
    prefix = (m.group(1) or "").lower()
    wd = _WEEKDAYS[(m.group(2) or m.group(4)).lower()[:3]]
    week = (m.group(3) or m.group(5) or "").lower()
    t = ctx.today
    monday = t - timedelta(days=t.weekday())
    if week == "last":
        return ctx.day(monday - timedelta(days=7 - wd))
    if week == "this" or prefix == "this":
        return ctx.day(monday + timedelta(days=wd))
    delta = (t.weekday() - wd) % 7
    if delta == 0 and prefix != "on":
        delta = 7
    return ctx.day(t - timedelta(days=delta))


@_rule(
    r"(?:(上上个?|上一?个?|这一?个?|本)|(?<![一二两三四五六七八九十几\d每下]))(?:周|星期|礼拜)([一二三四五六日天])",
    0,
)
def _zh_weekday(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """上周一 = Monday of last week; 这周三/本周三 = this week's; bare 周三 = the most recent one."""
    prefix = m.group(1) or ""
    wd = _ZH_WEEKDAYS[m.group(2)]
    t = ctx.today
    monday = t - timedelta(days=t.weekday())
    if prefix:
        back = 2 if prefix.startswith("上上") else 1 if prefix.startswith("上") else 0
        return ctx.day(monday - timedelta(weeks=back) + timedelta(days=wd))
    return ctx.day(t - timedelta(days=(t.weekday() - wd) % 7))


# --- absolute dates -----------------------------------------------------------------


@_rule(r"(?<![\w./-])((?:19|20)\d{2})([-/.])(\d{1,2})\2(\d{1,2})(?![\w/-]|\.\d)")
def _iso_date(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    d = _valid_date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
    return ctx.day(d) if d else _REJECT


@_rule(r"(?<![\w./-])((?:19|20)\d{2})-(\d{2})(?![\w-]|\.\d)")
def _iso_month(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    y, mo = int(m.group(1)), int(m.group(2))
    return ctx.month(y, mo) if 1 <= mo <= 12 and _year_ok(ctx, y) else _REJECT


@_rule(r"(?<![\w./-])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\w/]|\.\d)")
def _numeric_date(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """05/08/2023: ambiguous day/month order, so this is where dateparser earns its keep."""
    d = _dateparser_date(m.group(0))
    return ctx.day(d) if d else _REJECT


@lru_cache(maxsize=256)
def _dateparser_date(span: str) -> date | None:
    """Parse an already-identified numeric date span with dateparser (lazy import, cached)."""
    import dateparser  # lazy: only numeric dates need it

    parsed = dateparser.parse(span, languages=["en"], settings={"PREFER_DATES_FROM": "past", "STRICT_PARSING": True})
    return parsed.date() if parsed else None


_ORD = r"(?:st|nd|rd|th)?"


@_rule(
    r"\b(?:(on)\s+)?(the\s+)?(\d{1,2})(st|nd|rd|th)?\s+(of\s+)?(" + _MONTH + r")\b\.?(?:,?\s+((?:19|20)\d{2})\b)?"
)
def _en_day_month(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"8 May 2023", "on the 8th of May", "8 May" (most recent one).

    Without a year, an ambiguous month word needs "on", "the", an ordinal or
    "of" ("on 2 March"), so "I had 2 March sessions" stays a count.
    """
    on, the, ordinal, of, month_word, year = m.group(1), m.group(2), m.group(4), m.group(5), m.group(6), m.group(7)
    marked = bool(on or the or ordinal or of)
    if not year and month_word.lower() in _AMBIGUOUS_MONTHS and not marked:
        return _REJECT
    return _day_month_year(ctx, month_word, int(m.group(3)), year, "on" if marked else None)


@_rule(
    r"\b(?:(on|since|before|after|until|till|from|by|in)\s+)?(" + _MONTH + r")\.?\s+(?:the\s+)?(\d{1,2})" + _ORD
    + r"\b(?!\s*(?::|%|\.\d|am\b|pm\b|h\b|m\b))(?:,?\s+((?:19|20)\d{2})\b)?"
)
def _en_month_day(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"May 8, 2023", "on May 8th", "May 8" (most recent one)."""
    return _day_month_year(ctx, m.group(2), int(m.group(3)), m.group(4), m.group(1))


def _day_month_year(ctx: _Ctx, month_word: str, day: int, year: str | None, prep: str | None) -> _HandlerResult:
    if not _month_word_ok(month_word, True, bool(year), prep):
        return _REJECT
    mo = _month_no(month_word)
    if year:
        y = int(year)
        d = _valid_date(y, mo, day) if _year_ok(ctx, y) else None
    else:
        d = _recent_date(ctx, mo, day)
    return ctx.day(d) if d else _REJECT


@_rule(
    r"\b(?:(in|during|of|since|before|after|until|till|from|by|throughout|back\s+in)\s+)?"
    r"(?:(early|mid|late)[\s-]+)?(" + _MONTH + r")\.?,?\s+(?:of\s+)?((?:19|20)\d{2})\b"
)
def _en_month_year(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"May 2023", "in May 2023", "early March 2024"."""
    y = int(m.group(4))
    if not _year_ok(ctx, y):
        return _REJECT
    part = m.group(2).lower() if m.group(2) else None
    return _part_of_month(ctx, y, _month_no(m.group(3)), part)


@_rule(
    r"\b(?:between|from)?\s*(" + _MONTH + r")\.?\s*(?:and|to|-|–|until|till|through|thru)\s*(" + _MONTH
    + r")\.?,?\s+(?:of\s+)?((?:19|20)\d{2})\b"
)
def _en_month_range(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"between May and July 2023", "May-July 2023": the first month takes the stated year."""
    y = int(m.group(3))
    first, last = _month_no(m.group(1)), _month_no(m.group(2))
    if not _year_ok(ctx, y) or last < first:
        return _REJECT
    return ctx.month(y, first)[0], ctx.month(y, last)[1], True


@_rule(
    r"(?<![\d个几零〇一二两三四五六七八九十百])(?:((?:19|20)\d{2})\s*年\s*|(今年|本年|去年|前年))?(" + _ZH_MONTH_NUM
    + r")\s*月(?:份)?\s*(?:到|至|-|~|–)\s*(" + _ZH_MONTH_NUM + r")\s*月(?:份)?(?!\s*[\d一二三四五六七八九十]+\s*[日号])",
    0,
)
def _zh_month_range(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """2023年5月到7月 / 三月到五月: one year for both months."""
    ystr, rel, a, b = m.groups()
    first, last = _cn2int(a), _cn2int(b)
    if first is None or last is None or not 1 <= first <= last <= 12:
        return _REJECT
    if ystr:
        y = int(ystr)
    elif rel:
        y = ctx.today.year - {"今年": 0, "本年": 0, "去年": 1, "前年": 2}[rel]
    else:
        y = _recent_month_year(ctx, last)
    return ctx.month(y, first)[0], ctx.month(y, last)[1], True


@_rule(
    r"\b(in|during|since|before|after|until|till|from|throughout|last|this|of|"
    r"(?:in\s+)?(?:early|mid|late))[\s-]+(" + _MONTH + r")\b(?!\.?\s*\d)"
)
def _en_month_bare(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"in May", "last March", "this June", "early May": the most recent such month.

    "last May" is the most recent May strictly before the current month;
    "this May" is this year's; otherwise the most recent May not after now.
    """
    prep_raw = m.group(1)
    prep = prep_raw.lower().split()[-1]
    word = m.group(2)
    if not _month_word_ok(word, False, False, prep_raw):
        return _REJECT
    if prep in ("this", "last") and word.lower() in _AMBIGUOUS_MONTHS and not word[0].isupper():
        return _REJECT
    mo = _month_no(word)
    t = ctx.today
    if prep == "this":
        y = t.year
    elif prep == "last":
        y = t.year if mo < t.month else t.year - 1
    else:
        y = _recent_month_year(ctx, mo)
    part = prep if prep in ("early", "mid", "late") else None
    return _part_of_month(ctx, y, mo, part)


@_rule(
    r"\b(?:(?:in|during|throughout|since|before|after|until|till|from|of|back\s+in|by)\s+(?:the\s+year\s+)?"
    r"|(early|mid|late)[\s-]+)((?:19|20)\d{2})\b"
    r"(?![-/.]\d|\s*%|\s*(?:ms|s|px|kb|mb|gb|bytes?|rows?|items?|lines?|times|users|x)\b)"
)
def _en_year(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """"in 2022", "since 2021", "mid-2023": a bare 4-digit number needs such context."""
    y = int(m.group(2))
    if not _year_ok(ctx, y):
        return _REJECT
    part = m.group(1).lower() if m.group(1) else None
    return _part_of_year(ctx, y, part)




@_rule(
    r"(?<![\d个几零〇一二两三四五六七八九十百])(?:((?:19|20)\d{2})\s*年\s*|(今年|本年|去年|前年|大前年)\s*)?"
    r"(" + _ZH_MONTH_NUM + r")\s*月(?:份)?(?:\s*(" + _ZH_DAY_NUM + r")\s*[日号])?(初|中旬|上旬|下旬|底|末)?",
    0,
)
def _zh_month_date(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """三月份 / 3月 / 2023年5月 / 2023年5月8日 / 五月八号 / 去年三月 / 5月底."""
    ystr, rel, mstr, dstr, part = m.groups()
    mo = _cn2int(mstr)
    if mo is None or not 1 <= mo <= 12:
        return _REJECT
    y: int | None = None
    if ystr:
        y = int(ystr)
        if not _year_ok(ctx, y):
            return _REJECT
    elif rel:
        y = ctx.today.year - {"今年": 0, "本年": 0, "去年": 1, "前年": 2, "大前年": 3}[rel]
    else:
        y = None
    if dstr:
        day = _cn2int(dstr)
        if day is None:
            return _REJECT
        d = _valid_date(y, mo, day) if y is not None else _recent_date(ctx, mo, day)
        return ctx.day(d) if d else _REJECT
    if y is None:
        y = _recent_month_year(ctx, mo)
    en_part = {"初": "early", "上旬": "early", "中旬": "mid", "下旬": "late", "底": "late", "末": "late"}.get(part or "")
    return _part_of_month(ctx, y, mo, en_part)


@_rule(
    r"(?<!\d)((?:19|20)\d{2})\s*年(?:份|度)?(上半年|下半年|年初|初|年底|底|年末|末)?(?!\s*(?:\d|[一二三四五六七八九十]+\s*月))",
    0,
)
def _zh_year(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """2023年 / 2023年上半年 / 2022年底."""
    y = int(m.group(1))
    if not _year_ok(ctx, y):
        return _REJECT
    return _zh_year_part(ctx, y, m.group(2))


# ---------------------------------------------------------------------------
# Modifiers: since / before / after, 以来 / 之前 / 之后
# ---------------------------------------------------------------------------

_EN_MOD_BEFORE_RE = re.compile(
    r"\b(since|after|before|until|till|prior\s+to|up\s+to|as\s+of)\s+(?:the\s+)?$", re.IGNORECASE
)
_ZH_MOD_PREFIX_RE = re.compile(r"(自从|(?<![来出])自)\s*$")
_ZH_MOD_SUFFIX_RE = re.compile(r"\s*(以来|开始|起|之后|以后|之前|以前)")


def _apply_modifier(kind: str | None, rng: _Range, ctx: _Ctx) -> _Range:
    start, end, hard = rng
    if kind == "since":
        return start, ctx.now, hard
    if kind == "after":
        return end, ctx.now, hard
    if kind == "before":
        return None, start, hard
    if kind == "until":
        return None, end, hard
    return rng


_EN_MOD_LEAD_RE = re.compile(r"(since|after|before|until|till)\s+", re.IGNORECASE)


def _modifier(text: str, start: int, end: int, has_other: bool) -> tuple[str | None, int, int]:
    """Which modifier applies to the span ``text[start:end]``, and the span widened to include it.

    Looks at the words just before the span ("since last week", "自从去年"),
    just after it ("去年以来", "2023年之前"), and at the span's own first word
    for rules that need a preposition to fire ("since May", "before 2023").
    """
    inner = start
    lead = _EN_MOD_LEAD_RE.match(text, start)
    if lead:
        inner = lead.end()
    suffix = _ZH_MOD_SUFFIX_RE.match(text, end)
    if suffix:
        word = suffix.group(1)
        kind = "since" if word in ("以来", "开始", "起") else "after" if word in ("之后", "以后") else "before"
        zh_from = re.search(r"(自从|自|从)\s*$", text[max(0, start - 4) : start])
        if word == "开始" and not zh_from:
            # "上周开始的项目" is a project started last week, not "since last week".
            return None, start, end
        new_start = start - len(zh_from.group(0)) if zh_from and kind == "since" else start
        return kind, new_start, suffix.end()
    offset = max(0, inner - 20)
    prefix_text = text[offset:inner]
    zm = _ZH_MOD_PREFIX_RE.search(prefix_text)
    if zm:
        # "自从X" = since X. Plain "从X" is left alone: "从上周的日志" is "from last week's logs",
        # and "从X到Y" is a range, handled by the union of both spans.
        return (None, start, end) if has_other else ("since", offset + zm.start(1), end)
    em = _EN_MOD_BEFORE_RE.search(prefix_text)
    if em:
        word = re.sub(r"\s+", " ", em.group(1).lower())
        new_start = min(start, offset + em.start(1))
        if word in ("since", "as of"):
            kind = "since"
        elif word == "after":
            kind = "after"
        elif word in ("before", "prior to"):
            kind = "before"
        else:
            kind = "until"
        return kind, new_start, end
    return None, start, end


# ---------------------------------------------------------------------------
# Memory-type cues
# ---------------------------------------------------------------------------

_W, _E, _S, _K = MemoryType.warning, MemoryType.episodic, MemoryType.semantic, MemoryType.working
_TYPE_RULES: list[tuple[re.Pattern[str], tuple[MemoryType, ...], bool]] = [
    # hard: words that only make sense as "give me memories of this kind"
    (re.compile(r"\b(?:pitfalls?|gotchas?)\b", re.I), (_W,), True),
    (re.compile(r"踩(?:过|了)?(?:的|什么|哪些|些)?坑|(?:什么|哪些|有)坑|避坑|坑点"), (_W,), True),
    (re.compile(r"\b(?:preferences?)\b", re.I), (_S,), True),
    (re.compile(r"偏好"), (_S,), True),
    # soft: also ordinary words, only a boost
    (re.compile(r"\blessons?(?:\s+learn(?:ed|t))?\b", re.I), (_W, _E), False),
    (re.compile(r"经验教训|教训"), (_W, _E), False),
    (
        re.compile(
            r"\b(?:mistakes?|warnings?|traps?|caveats?|anti-?patterns?|what\s+(?:went|goes|could\s+go)\s+wrong|"
            r"things?\s+to\s+avoid|what\s+to\s+avoid|what\s+not\s+to|should(?:n't|\s+not)?\s+(?:i|we)\s+avoid|"
            r"fail(?:ed|ure|ures|s)?)\b",
            re.I,
        ),
        (_W,),
        False,
    ),
    (re.compile(r"坑|失败|出错|陷阱|雷区|踩雷|警告|注意事项|避免|不要再"), (_W,), False),
    (
        re.compile(
            r"\b(?:prefers?|preferred|habits?|conventions?|facts?|knowledge|what\s+do\s+(?:we|i|you)\s+know|"
            r"best\s+practices?|rules?\s+of\s+thumb)\b",
            re.I,
        ),
        (_S,),
        False,
    ),
    (re.compile(r"习惯|知识|事实|约定|规范|最佳实践|喜欢|不喜欢|常识"), (_S,), False),
    (
        re.compile(
            r"\b(?:what\s+(?:did|have)\s+(?:we|i|you)\s+(?:do|done|work(?:ed)?\s+on|tr(?:y|ied)|decided?)|"
            r"what\s+happened|how\s+did\s+(?:we|i|you)\s+(?:fix|solve|resolve|handle|debug)|"
            r"(?:last|previous|earlier|that)\s+(?:session|conversation|meeting|task|run|attempt))\b",
            re.I,
        ),
        (_E,),
        False,
    ),
    (re.compile(r"经过|(?<!存储)过程|做了什么|干了什么|发生了什么|怎么(?:解决|修复|处理)的|上次|那次"), (_E,), False),
    (re.compile(r"\b(?:in\s+this\s+(?:session|conversation|chat)|(?:did|do)\s+(?:i|you)\s+just)\b", re.I), (_K,), False),
    (re.compile(r"这次会话|本次会话|当前会话|刚才说"), (_K,), False),
]


def _types(text: str) -> tuple[list[MemoryType], bool]:
    found: list[tuple[int, MemoryType]] = []
    hard = False
    for pattern, types, is_hard in _TYPE_RULES:
        m = pattern.search(text)
        if m:
            hard = hard or is_hard
            found.extend((m.start(), t) for t in types)
    found.sort(key=lambda x: x[0])
    return list(dict.fromkeys(t for _, t in found)), hard


# ---------------------------------------------------------------------------
# Phrases and identifiers
# ---------------------------------------------------------------------------

_QUOTE_RES = [
    re.compile(r'"([^"\n]{1,300})"'),
    re.compile(r"\u201c([^\u201d\n]{1,300})\u201d"),  # “…”
    re.compile(r"\u300c([^\u300d\n]{1,300})\u300d"),  # 「…」
    re.compile(r"\u300e([^\u300f\n]{1,300})\u300f"),  # 『…』
    re.compile(r"\u2018([^\u2019\n]{1,300})\u2019(?!\w)"),  # ‘…’
    re.compile(r"(?<![\w'])'([^'\n]{1,300})'(?!\w)"),
    re.compile(r"`([^`\n]{1,300})`"),
]
_A = re.ASCII  # identifiers are ASCII; \w and \b must not treat adjacent Han characters as word characters
_IDENT_RES = [
    re.compile(r"\bhttps?://[^\s<>\"'`\u3000-\u303f\uff00-\uffef]+[^\s<>\"'`\u3000-\u303f\uff00-\uffef.,;:!?)]", _A),
    re.compile(r"(?<![\w/.~-])(?:~|\.{1,2})?/(?:[\w.-]+/)*[\w.-]*\w|\b(?:[\w-]+/)+[\w-]*\.\w{1,6}\b", _A),  # paths
    re.compile(r"\b[A-Za-z]:\\(?:[\w .-]+\\)*[\w.-]+", _A),  # Windows paths
    re.compile(r"\bCVE-\d{4}-\d{4,}\b", re.I | _A),
    re.compile(r"\bHTTP(?:/\d(?:\.\d)?)?\s?[1-5]\d{2}\b", _A),
    re.compile(r"\b0x[0-9A-Fa-f]{4,}\b", _A),
    re.compile(r"\b[A-Z]{1,6}-?\d{2,}[A-Z]?\b", _A),  # E1234, ORA-00942, TS2345
    re.compile(r"\b[A-Za-z]\w*(?:_[A-Za-z0-9]+)+\b|\b__\w+__\b", _A),  # snake_case, ERR_X, __init__
    re.compile(r"\b\w*[a-z][A-Z]\w*\b|\b[A-Z]{2,}[a-z]\w*\b", _A),  # CamelCase / camelCase / HTTPServer
    re.compile(r"\b[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?:\(\))?", _A),  # os.path.join, config.yaml
    re.compile(r"\bv?\d+\.\d+\.\d+(?:[-+][\w.]+)?\b|\bv\d+\.\d+\b", _A),  # versions
]


def _resolve(cands: list[tuple[int, int, object]]) -> list[tuple[int, int, object]]:
    """Longest-first, non-overlapping selection; returned in text order."""
    chosen: list[tuple[int, int, object]] = []
    for s, e, v in sorted(cands, key=lambda c: (-(c[1] - c[0]), c[0])):
        if all(e <= cs or s >= ce for cs, ce, _ in chosen):
            chosen.append((s, e, v))
    chosen.sort(key=lambda c: c[0])
    return chosen


def _phrases(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Quoted phrases (always) and identifiers (outside time spans), longest-first, text order."""
    cands: list[tuple[int, int, object]] = []
    for pattern in _QUOTE_RES:
        for m in pattern.finditer(text):
            inner = m.group(1).strip()
            if inner:
                cands.append((m.start(), m.end(), inner))
    quoted = _resolve(cands)
    cands = list(quoted)
    taken = [(s, e) for s, e, _ in quoted] + blocked
    for pattern in _IDENT_RES:
        for m in pattern.finditer(text):
            s, e = m.start(), m.end()
            if any(s < te and e > ts for ts, te in taken):
                continue
            cands.append((s, e, m.group(0)))
    out = [str(v) for _, _, v in _resolve(cands)]
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

_NAME_RE = re.compile(
    r"(?<![A-Za-z0-9_'’])([A-Z][a-z]+(?:[-'][A-Z][a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?)*)(?:['’]s)?(?![A-Za-z0-9_])"
)
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?。！？]\s*|[\"“「(（]\s*)$")
# Verbs and other words that commonly start a request; only checked at sentence start.
_STARTERS = frozenset(
    """
    migrate deploy fix update add remove meet create delete install run use write read make set compare
    summarise summarize suggest help find open close start stop build test debug review plan draft
    what who which whose why how where when
    """.split()
)
_NOT_NAMES = frozenset(
    """
    i a an the and or but if so then also what when where who whom whose which why how
    did do does is are was were be been have has had can could would should will shall may might must
    tell show list find give get remember recall summarize summarise describe explain please let check look search
    any some all every each no not yes ok okay hey hi hello thanks thank
    in on at during since after before until from to for of with about by as into over
    my our your his her their its we you he she they it this that these those there here
    today yesterday tomorrow tonight recently lately last next this past earlier later now then
    monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    lesson lessons pitfall pitfalls mistake mistakes warning warnings note notes
    error errors bug bugs issue issues
    """.split()
)
_ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "慕容", "令狐", "皇甫")
_ZH_NAME_FUNCTION_CHARS = frozenset("的了是在和与也都就还又把被给让对从到为着过吗呢吧啊么个些这那说讲做写提问要")
_ZH_NAME_SKIP = frozenset("上周 本周 今年 去年 前年 最近 今天 昨天 前天 周末 周一 周二 周三 周四 周五 周六 周日".split())



def _en_names(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Capitalised words (and runs of them) that are not common words.

    A capitalised word at the start of a sentence is ambiguous ("Melanie
    painted" vs "Painted"), so there it only counts when it is not in the
    common-word list; elsewhere it counts unless it is in that list. Time words
    and months are always excluded.
    """
    names: list[str] = []
    for m in _NAME_RE.finditer(text):
        s = m.start(1)
        if any(s < be and m.end(1) > bs for bs, be in blocked):
            continue
        words = m.group(1).split()
        at_start = bool(_SENTENCE_START_RE.search(text[max(0, s - 3) : s]))
        # Drop leading common words: "Did Caroline" -> "Caroline".
        while words and words[0].lower() in _NOT_NAMES:
            words = words[1:]
            at_start = False
        while words and words[-1].lower() in _NOT_NAMES:
            words = words[:-1]
        if words and at_start:
            first = words[0].lower()
            if first in _STARTERS or first.endswith(("ed", "ing", "ly")):
                words = words[1:]
        if words:
            names.append(" ".join(words))
    return list(dict.fromkeys(names))


_CJK_RUN_RE = re.compile(r"[\u4e00-\u9fff]{2,}")


@lru_cache(maxsize=2048)
def _zh_names_in_run(run: str) -> tuple[str, ...]:
    """Chinese person names in one Han run (heuristic, cached).

    Not jieba ``posseg``: its Viterbi over ~250 POS states costs ~0.3 ms on a
    short query and seconds on runs of rare characters. Instead the ordinary
    (cheap) segmentation is used and a word counts as a name when it is
    (a) out of the dictionary and starts with a common surname (张伟, 王芳,
    刘洋; also 小王/老李), or (b) a dictionary word tagged as a name: ``nrt``
    (卡罗琳), or ``nr`` with a surname and 3+ characters (周杰伦).
    """
    from hindsight.text.tokenize import _jieba

    jieba = _jieba()
    freq = jieba.dt.FREQ  # 0 marks a mere prefix, i.e. not a word
    tags = _zh_word_tags()
    out: list[str] = []
    for word in jieba.cut(run, HMM=True):
        word = word.lstrip("和与跟同及的")
        if not 2 <= len(word) <= 4 or word in _ZH_NAME_SKIP:
            continue
        if any(ch in _ZH_NAME_FUNCTION_CHARS for ch in word[1:]):
            continue
        surname = word[0] in _ZH_SURNAMES or word.startswith(_ZH_COMPOUND_SURNAMES)
        if not freq.get(word):
            # Out of the dictionary: the HMM glued an unknown word, often a name.
            nickname = len(word) == 2 and word[0] in "小老阿" and word[1] in _ZH_SURNAMES
            if nickname or (surname and (len(word) <= 3 or word.startswith(_ZH_COMPOUND_SURNAMES))):
                out.append(word)
        else:
            # In the dictionary with a name tag. Two-character "names" there are
            # mostly ordinary words (陈述, 高明, 田野) and some tags are noise
            # (连接池 is "nr"), so demand a surname and 3+ characters, except for
            # transliterated names (nrt: 卡罗琳).
            tag = tags.get(word)
            if tag == "nrt" or (tag in ("nr", "nrfg") and surname and len(word) >= 3):
                out.append(word)
    return tuple(out)


@lru_cache(maxsize=1)
def _zh_word_tags() -> dict[str, str]:
    """jieba's dictionary POS tags (loaded with ``jieba.posseg``, a plain dict lookup)."""
    import jieba.posseg as pseg

    return pseg.dt.word_tag_tab  # type: ignore[no-any-return]


def _zh_names(text: str) -> list[str]:
    """Chinese person names, run by run (see :func:`_zh_names_in_run`)."""
    names: list[str] = []
    for m in _CJK_RUN_RE.finditer(text):
        names.extend(_zh_names_in_run(m.group(0)))
    return names


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------

_CONNECTOR_RE = re.compile(r"^\s*(?:and|to|until|till|through|thru|or|-|–|—|~|至|到|和|或)\s*$", re.IGNORECASE)
_MARK = "\x00"
_RESIDUAL_CLEAN_RES = [
    (re.compile(_MARK + r"\s*(?:and|to|until|till|through|or|-|–|—|~|至|到|和|或)\s*" + _MARK, re.I), _MARK),
    (
        re.compile(
            r"\b(?:between|from|since|after|before|until|till|prior\s+to|up\s+to|as\s+of|in|on|during|at|of|"
            r"back\s+in|around|throughout|within|over|for)\s+(?:the\s+)?" + _MARK,
            re.I,
        ),
        _MARK,
    ),
    (re.compile(r"(?:自从|自|从|在|于)\s*" + _MARK), _MARK),
    (re.compile(r"(?<=[\u3400-\u9fff])\s*" + _MARK + r"\s*(?=[\u3400-\u9fff])"), ""),
    (re.compile(_MARK), " "),
    (re.compile(r"\s+([?？!！,，.。;；:：])"), r"\1"),
    (re.compile(r"([,，;；:：])(?=\s*[?？!！.。]|\s*$)"), ""),
    (re.compile(r"^\s*[,，;；:：的]+\s*"), ""),
    (re.compile(r"\s{2,}"), " "),
]
_HAS_WORD_RE = re.compile(r"[^\W_]")


def _residual(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for s, e in spans:
        parts.append(text[last:s])
        parts.append(_MARK)
        last = e
    parts.append(text[last:])
    out = "".join(parts)
    for pattern, repl in _RESIDUAL_CLEAN_RES:
        out = pattern.sub(repl, out)
    out = out.strip()
    return out if _HAS_WORD_RE.search(out) else text


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _context(now: datetime) -> _Ctx:
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    tz = now.tzinfo
    assert tz is not None
    return _Ctx(now=now, tz=tz, today=now.date())


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(timezone.utc)


def _find_time(text: str, ctx: _Ctx) -> list[tuple[int, int, _Range | None]]:
    cands: list[tuple[int, int, object]] = []
    for pattern, handler in _RULES:
        for m in pattern.finditer(text):
            result = handler(m, ctx)
            if result is _REJECT:
                continue
            cands.append((m.start(), m.end(), result))
    return [(s, e, v) for s, e, v in _resolve(cands)]  # type: ignore[misc]


MAX_ANALYSED_CHARS = 1000
"""Longest prefix of a query that :func:`parse_query` analyses."""


def parse_query(text: str, now: datetime) -> ParsedQuery:
    """Parse ``text`` relative to ``now`` into a :class:`ParsedQuery`.

    ``now`` should be timezone-aware (naive is taken as UTC); calendar
    boundaries ("today", "last week") are computed in ``now``'s time zone and
    returned in UTC. Weeks start on Monday. Never raises on odd input; an
    unparseable query simply yields an empty result with ``residual == text``.

    Only the first :data:`MAX_ANALYSED_CHARS` characters are analysed (a query
    is short; a pasted document should not cost seconds); the rest is kept
    verbatim in ``residual``.
    """
    full = _normalise(text)
    norm, tail = full[:MAX_ANALYSED_CHARS], full[MAX_ANALYSED_CHARS:]
    ctx = _context(now)
    found = _find_time(norm, ctx)
    windows = [(s, e, r) for s, e, r in found if r is not None]

    result = ParsedQuery(text=full, residual=full)
    ranges: list[_Range] = []
    spans: list[tuple[int, int, object]] = []
    for s, e, r in windows:
        kind, s2, e2 = _modifier(norm, s, e, len(windows) > 1)
        modified = _apply_modifier(kind, r, ctx)
        if modified[0] is not None and modified[1] is not None and modified[0] > modified[1]:
            continue  # "after this week" lies entirely in the future: no window
        ranges.append(modified)
        spans.append((s2, e2, r))
    if ranges:
        hard_ranges = [r for r in ranges if r[2]]
        use = hard_ranges or ranges
        starts = [r[0] for r in use]
        ends = [r[1] for r in use]
        result.time_from = None if any(v is None for v in starts) else _utc(min(v for v in starts if v))
        result.time_to = None if any(v is None for v in ends) else _utc(max(v for v in ends if v))
        result.time_is_hard = bool(hard_ranges)
        result.time_expression = _expression_text(norm, spans)
        result.residual = _residual(norm, [(s, e) for s, e, _ in spans]) + tail
    blocked = [(s, e) for s, e, _ in found]
    result.types, result.type_is_hard = _types(norm)
    result.phrases = _phrases(norm, blocked)
    names = _en_names(norm, blocked)
    if _CJK_RUN_RE.search(norm):
        names.extend(_zh_names(norm))
    result.names = list(dict.fromkeys(names))
    return result


def _expression_text(text: str, windows: list[tuple[int, int, object]]) -> str:
    """The matched text; adjacent expressions joined by a connector are reported as one span."""
    if len(windows) == 1:
        s, e, _ = windows[0]
        return text[s:e]
    gaps_ok = all(_CONNECTOR_RE.match(text[a[1] : b[0]]) for a, b in pairwise(windows))
    if gaps_ok:
        return text[windows[0][0] : windows[-1][1]]
    return ", ".join(text[s:e] for s, e, _ in windows)


def warm_up() -> None:
    """Pay the one-off costs now (server start) rather than on the first query.

    jieba's dictionary and POS model (~0.8 s), cn2an (~0.1 s) and dateparser
    (~0.2 s) are loaded lazily; this touches each of them once.
    """
    now = datetime.now(timezone.utc)
    for sample in ("张伟上周说了什么", "三个月前", "12/25/2025", "What did Caroline do last week?"):
        parse_query(sample, now)

