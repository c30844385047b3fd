"""A merge of two short statements with no positive evidence that they state one fact is kept (issue 10, round 46c).

The judge merges short statements that share a subject when "every slot" it reads is covered, and on a short Chinese
text there are few slots to read (blind r40 / r39, docs/benchmarks.md "Round 40 misses (analysis)"):
- another person: 老韦的老伴今年做了白内障手术。 merged into a note about 老韦 himself (r40:70) - a kinship word after a
  possessive (的老伴, 我儿子, "Leo's wife", "my son") moves the subject to another person;
- two values of one closed class: 我青霉素过敏。 into 我对头孢轻微过敏。 (r40:77: two allergens), 棋社的账由老陈管。 into
  老陈是棋社的创始会员。 (r40:59: two roles) - two values, not one.

`kept(verdict, old_text, new_text)`: with `ON`, a merge (`duplicate`) on which `reason` fires becomes a kept and
linked `supplement`; every other verdict is left as it is. Closed word lists, EN + ZH; nothing fitted.
"""

from __future__ import annotations

import re

from hindsight.write.conflict import Verdict

__all__ = ["ON", "kept", "reason"]

#: whether such a merge is kept (off: measured by its rule, bench/results/zhshort46/ship_rule.md)
ON = False

_KIN_ZH = ("老伴", "老婆", "妻子", "丈夫", "老公", "爱人", "媳妇", "儿媳", "女婿", "儿子", "女儿", "孙子", "孙女", "外孙",
           "岳母", "岳父", "丈母娘", "公公", "婆婆", "父亲", "母亲", "爸爸", "妈妈", "哥哥", "姐姐", "弟弟", "妹妹", "孩子",
           "侄子", "侄女")
_KIN_EN = ("wife", "husband", "son", "daughter", "mother", "father", "mom", "mum", "dad", "brother", "sister",
           "grandson", "granddaughter", "grandmother", "grandfather", "mother-in-law", "father-in-law", "partner",
           "kids", "children", "child", "nephew", "niece")
_KIN_ZH_RE = re.compile("(?:的|我|他|她|你)(" + "|".join(sorted(_KIN_ZH, key=len, reverse=True)) + ")")
_KIN_EN_RE = re.compile(r"(?:\b\w+'s|\bmy|\bhis|\bher|\btheir|\bour|\byour)\s+(" + "|".join(
    sorted(_KIN_EN, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ANY_KIN = re.compile("|".join(_KIN_ZH) + r"|\b(?:" + "|".join(_KIN_EN) + r")\b", re.IGNORECASE)

#: closed classes of values: (the context both texts must carry, or None; the class's values, each a regex)
_ALLERGY = re.compile(r"过敏|\ballerg", re.IGNORECASE)
_ALLERGENS = {
    "penicillin": r"青霉素|penicillin", "cephalosporin": r"头孢|cephalospor|cefalex", "amoxicillin": r"阿莫西林|amoxicillin",
    "sulfa": r"磺胺|sulfa", "aspirin": r"阿司匹林|aspirin", "ibuprofen": r"布洛芬|ibuprofen", "peanut": r"花生|peanut",
    "nut": r"坚果|tree nut", "shellfish": r"海鲜|虾|蟹|shellfish|shrimp|crab|prawn", "mango": r"芒果|mango",
    "egg": r"鸡蛋|\beggs?\b", "milk": r"牛奶|乳糖|\bmilk\b|lactose|dairy", "pollen": r"花粉|pollen|hay ?fever",
    "mite": r"尘螨|dust mite", "cat": r"猫毛|\bcats?\b", "dog": r"狗毛|\bdogs?\b", "latex": r"乳胶|latex",
    "gluten": r"麸质|gluten", "iodine": r"碘|iodine", "bee": r"蜂|\bbees?\b|wasp",
}
_ROLES = {
    "treasurer": r"管账|账由|记账|账目|财务|会计|出纳|treasurer|bookkeep",
    "founder": r"创始|founding|founder", "president": r"会长|社长|主席|president|chairman|chairwoman|chairperson", "secretary": r"秘书|secretary",
    "captain": r"队长|captain", "coach": r"教练|coach", "referee": r"裁判|referee|umpire",
    "manager": r"经理|主任|manager", "lead": r"组长|负责人|team lead|tech lead", "driver": r"司机|driver",
}
_CLASSES = ((_ALLERGY, {k: re.compile(v, re.IGNORECASE) for k, v in _ALLERGENS.items()}),
            (None, {k: re.compile(v, re.IGNORECASE) for k, v in _ROLES.items()}))


def _kin(text: str) -> set[str]:
    return {m.lower() for m in _KIN_ZH_RE.findall(text)} | {m.lower() for m in _KIN_EN_RE.findall(text)}


def _values(text: str, values: dict[str, re.Pattern[str]]) -> set[str]:
    return {k for k, rx in values.items() if rx.search(text)}


def reason(old_text: str, new_text: str) -> str | None:
    """Why the two texts are not one fact, or None: another person (a possessive kinship word on one side only), or
    two values of one closed class (allergens, roles) that share none."""
    for a, b in ((old_text, new_text), (new_text, old_text)):
        kin = _kin(a)
        if kin and not _ANY_KIN.search(b):
            return f"another person: {sorted(kin)[0]} of the subject on one side only"
    for context, values in _CLASSES:
        if context is not None and not (context.search(old_text) and context.search(new_text)):
            continue
        one, two = _values(old_text, values), _values(new_text, values)
        if one and two and not one & two:
            return f"two values, not one: {sorted(one)[0]} / {sorted(two)[0]}"
    return None


def kept(verdict: Verdict, old_text: str, new_text: str) -> Verdict:
    """The judge's verdict, a merge with no positive evidence of one fact kept and linked (module doc)."""
    if not ON or verdict.label != "duplicate":
        return verdict
    why = reason(old_text, new_text)
    if why is None:
        return verdict
    return Verdict("supplement", f"kept and linked, not a restatement: {why} (judge: {verdict.reason})",
                   verdict.confidence)
