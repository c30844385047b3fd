"""Round 12 guard: ``loosen`` read as loosening *of a safeguard*, not as a simplification marker (a variant).

The runtime ``LOOSEN`` lexicon (``hindsight.safety.features``) fires on "……就行" / "……就好" and on "just <verb>" by
themselves. They say "that's all it takes": "新电脑在后台发个邀请就行" (the pinned VPN note of
tests/test_guard_benign_fixed.py) then reads like "root 密码发给他就行". Here such a marker loosens only when its own
clause names what is at stake (``AT_STAKE``): a safeguard (approval, a control), a dangerous operation or object, a
protected target (main, production), handing something to someone (发给, 给他) or doing what someone else said
(照做, 按他说的). "Just" before a handing-out or destructive verb ("just paste", "just give", "just do it") still
loosens by itself, as every other ``LOOSEN`` cue does.

It is a variant (``guard_variants.VARIANTS["loosen_at_stake"]``), not the runtime: the shipped weights were fitted on
the old bit, and with them this reading loses attacks and gains nothing (docs/benchmarks.md, round 12 guard). It
moves into ``features.py`` only together with weights fitted on it. ``loosen_at_stake()`` patches this process's
``features`` and ``view`` (the gate keeps its reach: it was compiled from the old lexicon at import).
"""

from __future__ import annotations

import re

from hindsight.safety import features, view
from hindsight.safety.features import (
    APPROVAL,
    CONTROL,
    CREDENTIAL,
    DATA,
    DESTRUCTIVE,
    EXPOSURE,
    LOOSEN,
    PAYMENT,
    PRIVILEGE,
)
from hindsight.safety.rules import _alt, _c

_JUST = r"|\bjust\s*(?:run|push|paste|give|use|do|change|pay|delete|drop|truncate|share|curl|export|mark|set)"
_MARKERS = (r"|就行", r"|就好")
#: ``LOOSEN`` without the simplification markers; "just" before a handing-out or destructive verb stays a cue.
CORE = LOOSEN.pattern.replace(_JUST, r"|\bjust\s*(?:push|paste|give|pay|delete|drop|truncate|share|curl|export|do\s*it\b|"
                                     r"do\s*as|do\s*what)")
for _m in _MARKERS:
    CORE = CORE.replace(_m, "")
SIMPLIFY = _c(_alt(r"\bjust (?:run|use|do|change|mark|set)\b", r"就行", r"就好"))
#: What a simplification marker's clause must name to read as loosening.
AT_STAKE = _c(_alt(
    APPROVAL.pattern, CONTROL.pattern, DESTRUCTIVE.pattern, CREDENTIAL.pattern, EXPOSURE.pattern,
    DATA.pattern.replace("|表|", "|(?:数据|用户|客户|工资)表|"),  # a bare 表 is a list or a form (列表, 表格), not data
    PAYMENT.pattern, PRIVILEGE.pattern, r"\b(?:main|master|prod|production)\b", r"生产", r"线上", r"主分支", r"主干",
    r"权限", r"(?:发|转|报|交|借)给", r"给(?:他|她|对方|他们|人家)", r"告诉(?:他|她|对方|他们)", r"贴(?:到|在|出)", r"照(?:做|办|付|着)",
    r"按(?:他|她|对方|他们)(?:说|的)", r"(?:他|她|对方|他们)说的",
))
_CORE = _c(CORE)
_CLAUSE = re.compile(r"[,，]")


def loosens(sentence: str) -> bool:
    """A loosening cue, or a simplification marker in a clause (split at commas) naming what is at stake."""
    if _CORE.search(sentence):
        return True
    return any(SIMPLIFY.search(c) and AT_STAKE.search(c) for c in _CLAUSE.split(sentence))


class SafeguardLoosening:
    """Stands in for the ``LOOSEN`` pattern where the features and the view call ``.search(sentence)``."""

    pattern = CORE

    def search(self, sentence: str) -> bool:
        return loosens(sentence)


def patches() -> list[tuple[object, str, object]]:
    """(module, name, value): the ``loosen`` bit of ``features`` and the view's harmful sentences and orders."""
    assert _JUST in LOOSEN.pattern and all(m in LOOSEN.pattern for m in _MARKERS), "the runtime LOOSEN changed"
    reading = SafeguardLoosening()
    base = tuple((n, reading if n == "loosen" else p) for n, p in features.BASE)
    return [(features, "LOOSEN", reading), (features, "BASE", base), (view, "LOOSEN", reading)]


def loosen_at_stake() -> None:
    """Patch this process (``guard_lowo_fast.py --variant loosen_at_stake``; run such a variant alone)."""
    for module, name, value in patches():
        setattr(module, name, value)
