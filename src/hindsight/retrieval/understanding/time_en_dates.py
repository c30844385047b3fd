"""Time rules for English calendar dates and script-neutral numeric dates: ISO (2023-05-08, 2023-05), 05/08/2023,
"8 May 2023", "May 8th", "May 2023", "between May and July 2023", "in May", "mid-2023". Registered after
`time_en.py`'s relative expressions (imported first here) and before `time_zh.py` (which imports this module), so
the registry holds the rules in one order whichever module is imported first.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from hindsight.retrieval.understanding import time_en  # noqa: F401  (its rules register first)
from hindsight.retrieval.understanding.dates import (
    _AMBIGUOUS_MONTHS,
    _MONTH,
    _REJECT,
    _Ctx,
    _HandlerResult,
    _month_no,
    _month_word_ok,
    _part_of_month,
    _part_of_year,
    _recent_date,
    _recent_month_year,
    _valid_date,
    _year_ok,
)
from hindsight.retrieval.understanding.registry import _rule

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
