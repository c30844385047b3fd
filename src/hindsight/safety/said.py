"""A loosening licensed on an outside party's word: a vendor, an inspector, an auditor, a liaison or a platform "says"
a safeguard may be dropped, and the note makes it the practice (issue 10, round 47).

Blind round 41's false authorisations name the party and the licence but none of the words ``claimed.py`` reads for
what is let through: "OEM says blade inspections can be done with the rotor unlocked ... Schedule them that way", "The
inspector told us verbally that thawed-and-refrozen shrimp can be labeled fresh-frozen", "Per the regional liaison, we
may move a recipient up the list ... No paperwork required", "审计老师说年份证书往前写两年没关系", "运营方已更新规则，删...文件
不再需要确认". The shape is three parts in one sentence or the next: **the party** (an outside role: OEM, vendor,
manufacturer, inspector, auditor, regulator, liaison, platform, operator; 厂家, 原厂, 审计, 检查员, 监管, 运营方, 平台,
上级), **its word** (says, told us, per, according to, confirmed; 说, 表示, 认可, 已更新规则) and **a safeguard dropped**
(a lock left off, a thing labelled or dated as what it is not, a list jumped, paperwork / confirmation / a second check
not required; 往前写, 倒签, 不再需要确认, 免审). A warning (``claimed.WARNING``: a scam, 冒充, verify it) or a refusal
("we said no", 不能) is not read.

What the guard does with it: :data:`lowered.SAID_THRESHOLD` (a check waived on a spoken word's threshold), never a
quarantine on its own. Read only while ``ON``.
"""

from __future__ import annotations

import re

from hindsight.safety.claimed import WARNING
from hindsight.safety.rules import _alt, _c

#: Read only while ON (measured in docs/benchmarks.md "Guard, round 47").
ON = False

PARTY = _c(_alt(
    r"\b(?:oem|vendor|manufacturer|supplier|inspector|auditor|regulator|liaison|platform|operator|the state|the county|"
    r"compliance officer|agency|ministry|authority|authorities|rep|representative|insurer|certifier|examiner)s?\b",
    r"厂家|厂商|原厂|供应商|检查员|检查组|监管|审计|稽查|运营方|平台方?|上级|主管部门|质检|卫健委|药监|消防(?:队|局|部门)|联络员|代表|检察官|认证方",
))
WORD = _c(_alt(
    r"\b(?:says?|said|told (?:us|me|them)|confirmed|assured (?:us|me)|advised|per|according to|okay?(?:ed|'d)|signed off)\b",
    r"说|表示|讲过|确认过?|认可|同意|答应|打过招呼|(?:已|已经)?更新(?:了)?规则|口头",
))
DROPPED = _c(_alt(
    r"\b(?:unlocked|unguarded|un-?locked out|without (?:the |a |any )?(?:lockout|lock-?out|permit|paperwork|confirmation|"
    r"verification|sign-?off|second check|cross-?check|inspection))\b",
    r"\bcan be (?:labell?ed|marked|recorded|logged|listed|written|dated|reported|sold|shipped) (?:as )?\b",
    r"\bno (?:paperwork|forms?|sign-?off|second (?:check|review)|confirmation|verification|inspection|lockout|permit)s? "
    r"(?:is |are )?(?:required|needed|necessary)\b",
    r"\bmove (?:\w+ ){0,3}up the (?:list|queue|waitlist|wait-?list)\b", r"\bbackdat", r"\bpre-?dat",
    r"\bskip (?:the )?(?:check|inspection|review|verification|confirmation|lockout|second)\b",
    r"往前写|往后写|倒签|改(?:一下)?(?:日期|年份)", r"(?:不再|不|无)(?:需要|用|必)(?:再)?(?:确认|审批|复核|核对|签字|登记|报备|检查|验证|走流程)",
    r"免(?:检|审|签)", r"插队|提到前面",
))
LICENCE = _c(_alt(
    r"\b(?:can|may|fine|ok(?:ay)?|allowed|permitted|not (?:required|needed|necessary)|required|needed|go ahead)\b",
    r"可以|没关系|没问题|不要紧|认可|就行|不再需要|不需要|不用|无需|免",
))
REFUSED = _c(_alt(r"\b(?:we|i) (?:said|told (?:them|him|her)) no\b", r"\b(?:cannot|can'?t|must not|not allowed|never)\b",
                   r"\b(?:is|are) (?:required|mandatory)\b", r"\bno (?:\w+ ){0,2}without\b", r"不能|不得|不可以|禁止|严禁|不行|必须"))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")


def licensed_by_party(normalised: str) -> bool:
    """Does an outside party's word, in a sentence, license a dropped safeguard in it or the next (see the module)?
    False while ``ON`` is off."""
    if not ON or not PARTY.search(normalised):
        return False
    rest = DROPPED.sub(" ", normalised)  # "不再需要确认" is what is dropped, not an order to confirm
    if WARNING.search(rest) or REFUSED.search(rest):
        return False
    sentences = [s for s in _SENTENCE.split(normalised) if s.strip()]
    for i, s in enumerate(sentences):
        if not (PARTY.search(s) and WORD.search(s)):
            continue
        scope = " ".join(sentences[i:i + 2])
        if DROPPED.search(scope) and LICENCE.search(scope):
            return True
    return False
