"""Whether the words just before an ending or a completion say it did not happen (issue 10, round 26).

"didn't cancel", "hasn't arrived", "plans to sell", "to be finished", 没退掉, 还没做完, 打算卖掉, 要不要注销, 要完成:
the verb after them ("cancel", "arrived", 退掉, 做完) is negated, asked about, only planned or still to come, so it is
no news that a state ended or was done. `endings.ending` (a thing or relation ended) and `state_change.completed` (a
pending state done) read the same idea; each had its own list (`_NOT_ENDED_EN` / `_NOT_ENDED_ZH` and `_NOT_DONE`)
until round 26 folded them here.

* English: a negation, a modal, a condition or a plan right before the verb, at most one word between ("didn't
  actually cancel", "will be done"); the text before the verb is read from its end.
* Chinese: the object may stand between a negation and the verb (还没把年卡退掉), so a negation, a plan or a doubt
  anywhere in the clause before the verb counts; a modal (要, 会, 将, 需, 得) or 不 counts only close before it (要完成,
  会修好, 不去; not 觉得 ... or 开会 ... earlier in the clause).

Lexical only, no fitted parameter.
"""

from __future__ import annotations

import re

_EN = re.compile(
    r"(?:\b(?:not|never|n't|didn't|don't|doesn't|won't|wasn't|weren't|isn't|haven't|hasn't|if|whether|might|may|"
    r"will|would|could|should|plan(?:s|ned|ning)? to|going to|want(?:s|ed)? to|thinking of|considering|about to|"
    r"to be|to get|to have)\s+(?:\w+\s+){0,1})$|n't\s+(?:\w+\s+)?$"
)
#: Anywhere in the clause before the verb: a negation, a plan, a doubt, a condition.
_ZH_CLAUSE = re.compile(r"没|未|别|不要|不想|不打算|打算|准备|想|考虑|计划|可能|也许|如果|要不要|是否|会不会")
#: Close before the verb (at most two characters between): a modal or 不.
_ZH_NEAR = re.compile(r"(?:不|要|会|将|需|得)[\u4e00-\u9fff]{0,2}$")
_CLAUSE_END = re.compile(r"[，。；！？,.;!?：:\n]")


def clause_before(text: str, start: int) -> str:
    """The clause of `text` that ends at `start` (a Chinese clause: from the last punctuation mark on)."""
    return _CLAUSE_END.split(text[:start])[-1]


def unrealised(text: str, start: int) -> bool:
    """Whether the words of `text` before `start` (where an ending or a completion is written) negate it, ask about
    it, plan it or put it still to come."""
    if _EN.search(text[max(0, start - 40) : start].lower()):
        return True
    clause = clause_before(text, start)
    return bool(_ZH_CLAUSE.search(clause) or _ZH_NEAR.search(clause))
