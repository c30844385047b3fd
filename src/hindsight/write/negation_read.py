"""A negation said the other way round, read where two texts state the same values (hygiene round 25).

The value gate (`value_gate.gate_reason`) stayed shut on every pair whose negation words differ in parity
(`analysis.polarity_flip`): over the released hygiene sets that shut it on 96 restatements whose values are the same
and 39 other pairs (27 of them changes, which a change cue shuts anyway). A rule is told both ways: "by 11am" / "no
later than 11:00", 8000元以内 / 不超过八千块, "frozen from Friday 15:00" / "no releases over the weekend", 周日休息 /
周日不开门, "tabs, width 4" / "tabs, no spaces". `restated_negation(old, new)` reads such a flip as the same fact
said another way, so the gate's other guards and the pair model's p(merge) decide, except where the flip says more
than wording: an antonym (`analysis.antonym`), one text negating a predicate the other states ("is not open" / "is
open", 不开放 / 开放), something not yet done on one side only (还没收到 / 到账了: it
happened since), a plan one side cannot keep ("can't make it"), or a liking on either side ("he loves sake" / "she
doesn't drink at all": an opinion's sign, often of another person or thing - r11T1:185 merged at p 0.96 when only a
liking on both sides kept the gate shut). Lexical only, EN/ZH.
"""

from __future__ import annotations

import re

from hindsight.write.analysis import analyse

#: something not done yet: said on one side only, the other side may report that it happened since
_NOT_YET = re.compile(r"还没|尚未|还未|未到|\bnot\s+yet\b|\bstill\s+(?:hasn't|haven't|isn't|aren't|not)\b|\bpending\b|\byet\s+to\b",
                      re.IGNORECASE)
#: a plan or arrangement one side cannot keep
_CANNOT_KEEP = re.compile(r"\b(?:can't|cannot|can not|won't be able to)\s+make\s+it\b|来不了|去不了|赶不上", re.IGNORECASE)
#: a liking or disliking: a flip beside one is an opinion's sign, not wording
_LIKING = re.compile(r"\b(?:love[sd]?|like[sd]|hate[sd]?|enjoy(?:s|ed)?|adore[sd]?|can't stand|couldn't stand|"
                     r"dislike[sd]?|prefer(?:s|red)?|fond of)\b|喜欢|讨厌|爱喝|爱吃|受不了|不爱|偏爱|反感",
                     re.IGNORECASE)


#: a predicate negated in English (not / n't / never, a copula or auxiliary skipped) - "no X" and "nobody" quantify
_EN_NEGATED = re.compile(r"\b(?:not|never)\s+(?:(?:be|been|is|are|was|were|being|a|an|the|to|any|have|has|do|does|get|"
                         r"got)\s+)*([A-Za-z]{3,})|n't\s+(?:(?:be|been|a|an|the|to|any|have|do|get)\s+)*([A-Za-z]{3,})",
                         re.IGNORECASE)
#: a predicate negated in Chinese: the two characters after 不 / 没 / 别 / 未 / 无, a modal or 有 skipped
_ZH_NEGATED = re.compile(r"(?:不|没有?|别|未|无)(?:[能可要会得该准许让再]|可以|应该|需要)?([\u4e00-\u9fff]{2})")


def _denied_there(one: str, other: str) -> bool:
    """Whether `one` negates a predicate that `other` states: the word after the negation is written in `other`
    ("is not open" / "is open", 不开放 / 开放)."""
    low = other.lower()
    for m in _EN_NEGATED.finditer(one):
        word = (m.group(1) or m.group(2)).lower()
        if re.search(rf"\b{re.escape(word[:max(4, len(word) - 2)])}", low):
            return True
    return any(m.group(1) in other for m in _ZH_NEGATED.finditer(one))


def restated_negation(old: str, new: str) -> bool:
    """Whether the negation words of `old` and `new` differ in parity only as wording: a parity flip, no antonym,
    neither text negating a predicate the other states, no "not yet" on one side only, no plan one side cannot keep,
    no liking on either side."""
    a = analyse(old, new)
    if not a.polarity_flip or a.antonym is not None:
        return False
    if _denied_there(old, new) or _denied_there(new, old):
        return False
    if bool(_NOT_YET.search(old)) != bool(_NOT_YET.search(new)):
        return False
    if _CANNOT_KEEP.search(old) or _CANNOT_KEEP.search(new):
        return False
    return not (_LIKING.search(old) or _LIKING.search(new))
