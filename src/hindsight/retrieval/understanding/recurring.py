"""A weekday or the weekend said as a habit, not as a date (issue 10, round 21).

"墨尔本招周末兼职咖啡师给多少时薪" asks about weekend staff, "Why is Tobias never available on Saturday mornings?"
about every Saturday; read as the most recent weekend or Saturday, the window removes the standing fact that answers
them. A bare weekday or weekend - no this / last / next / 上 / 这 / 本 before it - in a question is a habit unless it tells
of a past event ("What broke the build machine on Tuesday?", "周末做了什么", "周五那顿茶点是哪家店送的"); so is a
weekday followed by a plural part of the day ("on Thursday afternoons") whatever the tense. The time rules of
`time_en` / `time_zh` reject such a match, so its words stay in the text the channels search.
"""

from __future__ import annotations

import re

_EN_PLURAL_PART = re.compile(r"\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b", re.IGNORECASE)
# a past tense that tells of one event: an auxiliary, an irregular past, or an -ed verb that is not passive / after
# "to" ("will they get tidied away" is not past)
_EN_PAST = re.compile(
    r"\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|happened|went|broke|came|got|took|left|made|said|told|"
    r"sent|ran|fell|gave|found|saw|met|bought|brought)\b"
    r"|(?<!\bget )(?<!\bgets )(?<!\bbe )(?<!\bis )(?<!\bare )(?<!\bbeen )(?<!\bbeing )(?<!\bto )"
    r"\b(?!need|feed|seed|speed|bleed|breed|proceed|exceed|succeed|indeed)[a-z]{2,}ed\b",
    re.IGNORECASE)
# 了 after 快 / 就要 / 要 is "about to"; 过 of 过来 / 不过 / 通过 / 过期 is no tense
_ZH_PAST = re.compile(r"(?<!快)(?<!快下班)(?<!要)(?<!就要)了|(?<![不通经超])过(?![来去期敏])|那次|那顿|那天|那场|那回|上次|昨天|前天")
_ZH_MET = re.compile(r"[碰赶遇逢]$")
# a question: a question mark, a question word or particle, or an English question's first word
_QUESTION = re.compile(r"[?？]|[吗呢]\s*$|多少|什么|哪|谁|几|怎么|为什么|能不能|可不可以|是不是|有没有|"
                       r"^\s*(?:who|what|which|when|where|why|how|is|are|can|could|should|do|does|will|would|may)\b",
                       re.IGNORECASE)


def habitual_en(m: re.Match[str]) -> bool:
    """An English weekday / weekend match (`on Monday`, `on the weekend`) said as a habit."""
    if _EN_PLURAL_PART.match(m.string, m.end()):
        return True
    return bool(_QUESTION.search(m.string)) and not _EN_PAST.search(m.string)


def habitual_zh(m: re.Match[str], anchored: bool) -> bool:
    """A Chinese weekday / weekend match said as a habit; `anchored`: 上 / 这 / 本 stand before it (上周五), which
    is a date, except 碰上 / 赶上 / 遇上周末 ("if it falls on a weekend")."""
    if anchored:
        return bool(_ZH_MET.search(m.string[: m.start()])) and m.group(0).startswith("上")
    return bool(_QUESTION.search(m.string)) and not _ZH_PAST.search(m.string)
