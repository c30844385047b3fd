"""Calendar helpers for the time rules: the match context (`Ctx`: now, its zone, today), windows of days,
weeks, months and years in that zone, and the month and weekday names the rules accept."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

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
