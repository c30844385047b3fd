"""Modifiers around a time expression: since / before / after / until, 以来 / 之前 / 之后 / 自从."""

from __future__ import annotations

import re

from hindsight.retrieval.understanding.dates import _Ctx, _Range

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
