"""Time rules for Chinese: 昨天, 上周, 三个月前, 最近, 2023年5月, 去年上半年, 周末..."""

from __future__ import annotations

import re
from datetime import date, timedelta

from hindsight.retrieval.understanding import time_en_dates  # noqa: F401  (English rules register first)
from hindsight.retrieval.understanding.counts import (
    _ZH_DAY_NUM,
    _ZH_MONTH_NUM,
    _ZH_NUM,
    _ZH_UNIT,
    _ZH_UNITS,
    _zh_half,
)
from hindsight.retrieval.understanding.dates import (
    _REJECT,
    _ZH_WEEKDAYS,
    _add_months,
    _ago,
    _Ctx,
    _HandlerResult,
    _part_of_month,
    _past,
    _quarter,
    _recent_date,
    _recent_month_year,
    _soft_recent,
    _valid_date,
    _weekend,
    _Window,
    _year_ok,
)
from hindsight.retrieval.understanding.recurring import habitual_zh
from hindsight.retrieval.understanding.registry import _rule
from hindsight.retrieval.understanding.time_en import _SEASONS, _season
from hindsight.text.numerals import zh_count, zh_int


@_rule(r"明天|明日|明年|后天|下(?:个|一)?(?:周|星期|礼拜|月)[一二三四五六日天末]?|下半?个?月|将来|未来", 0)
def _zh_future(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return None


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


@_rule(r"(上上个?|上一?个?|这一?个?|本|当)(周末|周|星期|礼拜|月|季度)(?![一二三四五六日天期年])", 0)
def _zh_period(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """本周/这周/这个星期, 上周/上个星期/上上周, 本月/这个月, 上个月/上月, 本季度; 周末 variants."""
    prefix, unit = m.group(1), m.group(2)
    if unit == "周末" and habitual_zh(m, anchored=True):  # 碰上周末: a weekend, not last weekend
        return _REJECT
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
    if habitual_zh(m, anchored=False):  # 周末兼职: every weekend (understanding/recurring.py)
        return _REJECT
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
    num = zh_count(raw)
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
    num = zh_count(raw)
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
    num = zh_count(raw) if raw != "半" else None
    if num is None:
        return _REJECT
    return _past(ctx, unit, num[1], hard=not num[2])


@_rule(r"最近|近期|近来|近日|这段时间|这阵子|这些天|这些日子", 0)
def _zh_recently(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return _soft_recent(ctx)


@_rule(r"前段时间|前阵子|前些天|前些日子|之前一段时间", 0)
def _zh_a_while_ago(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    return ctx.now - timedelta(days=90), ctx.now - timedelta(days=2), False


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


@_rule(
    r"(?:(上上个?|上一?个?|这一?个?|本)|(?<![一二两三四五六七八九十几\d每下]))(?:周|星期|礼拜)([一二三四五六日天])",
    0,
)
def _zh_weekday(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """上周一 = Monday of last week; 这周三/本周三 = this week's; bare 周三 = the most recent one."""
    prefix = m.group(1) or ""
    if habitual_zh(m, anchored=bool(prefix)):  # 周六上午能联系上吗: every Saturday (understanding/recurring.py)
        return _REJECT
    wd = _ZH_WEEKDAYS[m.group(2)]
    t = ctx.today
    monday = t - timedelta(days=t.weekday())
    if prefix:
        back = 2 if prefix.startswith("上上") else 1 if prefix.startswith("上") else 0
        return ctx.day(monday - timedelta(weeks=back) + timedelta(days=wd))
    return ctx.day(t - timedelta(days=(t.weekday() - wd) % 7))


@_rule(
    r"(?<![\d个几零〇一二两三四五六七八九十百])(?:((?:19|20)\d{2})\s*年\s*|(今年|本年|去年|前年))?(" + _ZH_MONTH_NUM
    + r")\s*月(?:份)?\s*(?:到|至|-|~|–)\s*(" + _ZH_MONTH_NUM + r")\s*月(?:份)?(?!\s*[\d一二三四五六七八九十]+\s*[日号])",
    0,
)
def _zh_month_range(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """2023年5月到7月 / 三月到五月: one year for both months."""
    ystr, rel, a, b = m.groups()
    first, last = zh_int(a), zh_int(b)
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
    r"(?<![\d个几零〇一二两三四五六七八九十百])(?:((?:19|20)\d{2})\s*年\s*|(今年|本年|去年|前年|大前年)\s*)?"
    r"(" + _ZH_MONTH_NUM + r")\s*月(?:份)?(?:\s*(" + _ZH_DAY_NUM + r")\s*[日号])?(初|中旬|上旬|下旬|底|末)?",
    0,
)
def _zh_month_date(m: re.Match[str], ctx: _Ctx) -> _HandlerResult:
    """三月份 / 3月 / 2023年5月 / 2023年5月8日 / 五月八号 / 去年三月 / 5月底."""
    ystr, rel, mstr, dstr, part = m.groups()
    mo = zh_int(mstr)
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
        day = zh_int(dstr)
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
