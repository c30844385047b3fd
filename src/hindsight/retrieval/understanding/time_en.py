"""Time rules for English: relative expressions (today, last week, three days ago, this summer, on Monday); the
calendar dates (ISO, 05/08/2023, "May 8, 2023", "in 2022") are `time_en_dates.py`'s."""

from __future__ import annotations

import re
from datetime import date, timedelta

from hindsight.retrieval.understanding.counts import (
    _EN_NUM,
    _EN_UNIT,
    _en_number,
    _en_unit,
)
from hindsight.retrieval.understanding.dates import (
    _MONTH,
    _REJECT,
    _WEEKDAY,
    _WEEKDAYS,
    _add_months,
    _ago,
    _Ctx,
    _HandlerResult,
    _past,
    _quarter,
    _soft_recent,
    _weekend,
    _year_ok,
)
from hindsight.retrieval.understanding.recurring import habitual_en
from hindsight.retrieval.understanding.registry import _rule

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
    if not which and habitual_en(m):  # "open on the weekend": every weekend (understanding/recurring.py)
        return _REJECT
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
    if prefix == "on" and not week and habitual_en(m):  # "on Saturday mornings": every Saturday
        return _REJECT
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
