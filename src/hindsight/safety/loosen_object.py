"""The classifier's ``loosen`` feature, narrowed (round 40, issue 10; docs/benchmarks.md "Guard, round 40"): an
everyday adverb alone is no loosened safeguard.

``features.LOOSEN`` reads words such as 直接 "directly", 不用 "no need", 就行 "that will do" and "right away" as a
loosening. In ordinary notes they are everyday speech ("郑浩习惯直接打电话", "尽量不用缩写"); round 38 found them in
most of the `loosen` false alarms. Here a sentence's loosen bit is set by such an adverb only when one of its clauses
also names what is loosened - a safeguard, a check, an approval or a limit (``OBJECT``); any other LOOSEN match
(skip, bypass, disable, 跳过, 绕过, 免验证 ...) still sets it alone. The lexicon ``LOOSEN`` itself, read by the views,
the gate and the rules, is unchanged: only the feature row the classifier reads differs, so this ships only with
weights fitted on it (``features.NARROW_LOOSEN``).
"""

from __future__ import annotations

import re

#: the everyday adverbs (and "no need" phrases) among LOOSEN's matches: no loosening on their own
ADVERB = re.compile("|".join((
    r"直接", r"不用", r"不需要", r"无需", r"不必", r"就行", r"就好", r"马上", r"别再", r"可以不",
    r"\bdirectly\b", r"right away", r"immediately", r"as soon as", r"straight (?:to|away|into)", r"no need",
    r"not (?:required|needed|necessary)", r"\bis fine\b", r"are fine", r"don'?t (?:need|bother)", r"do not need",
)), re.IGNORECASE)

#: what a loosening acts on: a safeguard, a check, an approval, a limit (or the person who checks)
OBJECT = re.compile("|".join((
    r"confirm", r"approv", r"review", r"sign-?off", r"permission", r"verif", r"callback", r"call ?back", r"\bask",
    r"\bcheck", r"consult", r"ticket", r"process", r"procedure", r"polic", r"\brules?\b", r"backup", r"snapshot",
    r"\blimit", r"\bcap\b", r"threshold", r"budget", r"\btests?\b", r"\bci\b", r"scan", r"\b2fa\b", r"\bmfa\b",
    r"password", r"login", r"safety", r"security", r"firewall", r"alert", r"audit", r"guard", r"lock", r"doctor",
    r"\bvet\b", r"prescri", r"dry[- ]run", r"two[- ]person", r"second pair",
    r"确认", r"审批", r"批准", r"评审", r"审核", r"核实", r"核对", r"复核", r"请示", r"(?<![请])问(?!题)", r"签字", r"签批",
    r"工单", r"流程", r"手续", r"报备", r"登记", r"备案", r"检查", r"校验", r"验证", r"测试", r"备份", r"快照", r"限额",
    r"上限", r"额度", r"阈值", r"预算", r"规定", r"规则", r"制度", r"权限", r"密码", r"登录", r"安全", r"防火墙", r"告警",
    r"审计", r"医生", r"医院", r"就医", r"处方", r"兽医", r"回电", r"回拨", r"同意", r"授权", r"把关", r"过目",
)), re.IGNORECASE)

_CLAUSE = re.compile(r"[,，;；:：、]|\bbut\b|\band\b|但|而且")


def loosens(sentence: str, loosen: re.Pattern[str]) -> bool:
    """Does this (normalised) sentence loosen a safeguard? Any LOOSEN match that is not an everyday adverb does; an
    adverb does only in a clause that names a safeguard, check, approval or limit."""
    clauses = [c for c in _CLAUSE.split(sentence) if c.strip()] or [sentence]
    for clause in clauses:
        for m in loosen.finditer(clause):
            if not ADVERB.fullmatch(m.group(0).strip()) or OBJECT.search(clause):
                return True
    return False


class NarrowedLoosen:
    """``features.LOOSEN`` as a pattern-like object (``search``) whose hit is :func:`loosens`."""

    def __init__(self, loosen: re.Pattern[str]) -> None:
        self.loosen = loosen

    def search(self, sentence: str) -> bool:
        return loosens(sentence, self.loosen)
