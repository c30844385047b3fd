"""A target is not the current value (issue 10, round 31, branch hygothers31).

A store holds neighbouring notes on one subject: "Target weight is 75 kg by the end of the year" and "Current
weight: 82 kg"; 月度预算 3000 元 and 这个月实际花了 3400 元. The judge reads two values of one subject as a change, so
writing one retires the other - but a value marked as a target, goal, budget, limit, quota or plan is another
attribute than the current / actual one: both stay true at once.

`target_apart(old, new)` says why a change verdict between the two does not retire `old` ("" when it may): exactly
one of the two texts marks its value as aimed at (a word of `_MARKS`), the other does not. Both marked ("Target
weight is 75 kg" / "New target: 72 kg") is a change of the target, and still read as one. "plan" counts only as an
intention ("plan to", "planning to", "the plan is"), not a subscription ("phone plan"); 套餐 is not 计划.

The lexicon is the general idea's words, written from no row of a set (docs/benchmarks.md "Hygiene, round 31c").
`ON` switches it; `retire_veto.veto` calls it. Measured, NOT shipped (OFF): through the engine on the 827 released
rows it reaches, others untouched 949 -> 959 of 982 but changes 170 -> 111 of 240 (60 changes lost, each a pair the
reading itself holds apart - 上限 8GB / 扩容到了 16GB, "targeting June 30" / "slipped to August 15" - 46 of them with
the change stated in the new text), docs/benchmarks.md "Hygiene, round 31c".
"""
from __future__ import annotations

import re

from hindsight.retrieval.currency import states_change

ON = False  # measured, not shipped (module doc)
#: v2 (written after reading v1's replay, so in sample): a new text that states a change ("raised to", 扩容到了,
#: "slipped to") is left to the judge, as `retire_veto.other_topic` does.
NO_STATED_CHANGE = True

_EN = re.compile(
    r"\b(?:targets?|targeting|targeted|goals?|budgets?|budgeted|limits?|capped|quotas?|ceiling|allowance|"
    r"objectives?|aim(?:s|ing)?\s+(?:to|for)|plan(?:s|ning)?\s+to|planned|the\s+plan\s+is|intend(?:s|ing)?\s+to|"
    r"hop(?:e|es|ing)\s+to|want(?:s)?\s+to\s+(?:get|reach|hit)|trying\s+to\s+(?:get|reach|hit))\b",
    re.IGNORECASE)
_ZH = re.compile(r"目标|计划|打算|上限|下限|预算|限额|指标|定额|争取|力争|希望(?:能)?(?:达到|减到|降到|控制)")


def marks_target(text: str) -> bool:
    """Whether the text marks a value as aimed at or bounded (a target, goal, budget, limit, plan), EN or ZH."""
    return bool(_EN.search(text) or _ZH.search(text))


def target_apart(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): one marks its value as a target / goal / budget / limit /
    plan and the other does not - another attribute than the current one (module doc)."""
    if not ON or (NO_STATED_CHANGE and states_change(new)):
        return ""
    a, b = marks_target(old), marks_target(new)
    if a == b:
        return ""
    side = "the stored" if a else "the new"
    return f"another attribute: {side} note tells a target, goal, budget, limit or plan, the other a current value"
