"""A note that states how things stand, not one that grants the agent anything: one reading used only by the guard's
threshold (``guard.WriteGuard.threshold_for``; round 47b, issue 10, docs/benchmarks.md "Guard, round 47b").

Blind round 41's retrieval store lost nine ordinary notes to the classifier alone (0.38 - 0.80): a qualification a
named third party holds ("Bence already holds a Hungarian licensed-electrician qualification, so he can sign ...",
"VoltWorks finally received their MEKH-registered installer certificate"), an approval process described ("Anna owns
the commercial part ... Priya checks every compliance certificate before submission", "needs ... signed by a licensed
electrician", 马骏审批比较严 ... 就退回), advice that tightens ("always ask which OCPP version ... before quoting",
提交前自己先核一遍), a customer's payment terms, a dress code (不用穿正装). :func:`states_standing` (``ON``) reads such a
text - one of those cues - that says nothing an attack says with it: no rule vote, no check waived, no loosening
(but a dress code's), no agent or "you" handed a power, nobody on their own or another's word ("says", 自称, 说), no
destructive, credential, privilege, trust, control or secrecy word, no change of account or destination, no outward
or bulk data, nothing at stake shipped or removed. The guard then holds it only on the surer fact score
(``guard.FACT_THRESHOLD``), and a vouched reading (``claimed.py``: "the DSO only approved the substation") does not
lower it.
"""

from __future__ import annotations

from hindsight.safety.carried import _BULK, _CHANGE, _DATA_OUT, _OUTWARD, _OVERRIDE, _SECRECY
from hindsight.safety.features import (
    AGENT_ADDRESS,
    CONTROL,
    CREDENTIAL,
    DATA,
    DESTRUCTIVE,
    EXPOSURE,
    LOOSEN,
    PAYMENT,
    PRIVILEGE,
    TRUST,
)
from hindsight.safety.relayed import _AGENT, _AT_STAKE
from hindsight.safety.rules import ANYONE, _alt, _c, match_rules
from hindsight.safety.waived import waives_check

#: Round 47b switch (read at call time); ``False``: the reading is not made (main before).
ON = False

#: A qualification, licence or certificate a party holds or received, stated as a fact.
HOLDS = _c(_alt(
    r"\b(?:holds?|has|have|had|received|got|obtained|earned|passed|(?:was|were|has been|have been) (?:granted|issued))\b"
    r"[^.;]{0,50}\b(?:licen[cs]ed?|qualifi(?:cation|ed)|certificat\w*|accreditation|registration|permit)",
    r"\b(?:is|are|was|were|became|now) (?:\w+ )?(?:licensed|certified|accredited|chartered|registered)\b",
    r"(?:持有|拿到|取得|获得|考到|考了|考取|具备|有)[^，。,;；]{0,12}(?:资质|证书|执照|资格|许可证|电工证|上岗证)",
))
#: An approval or sign-off process described: who owns, checks, approves, signs or sends back.
PROCESS = _c(_alt(
    r"\bowns? the\b", r"\bchecks? (?:every|each|all)\b", r"\bsigned (?:off )?by\b", r"\b(?:only |finally )?approved the\b",
    r"\bsigns? off (?:on|every|each)\b", r"\breviews? (?:every|each|all)\b",
    r"审批", r"退回", r"签字", r"审核", r"把关", r"负责(?:审|签|核)",
))
#: Advice that tightens: ask, check or confirm first.
TIGHTEN = _c(_alt(
    r"\balways (?:ask|check|confirm|verify|double-check)\b", r"\b(?:ask|check|confirm|verify) \w+(?: \w+){0,8} before (?:quoting|submitting|"
    r"submission|sending|signing|booking|ordering)\b",
    r"(?:提交|报销|发出|寄出|签字?|下单|报价)前[^。；;]{0,10}(?:核|检查|确认|复核|问)", r"先核",
))
#: A customer's payment terms: a currency and the instalments.
TERMS = _c(_alt(r"\bpays? in (?:eur|usd|huf|gbp|chf|cny|rmb|pln|czk)\b", r"\b\d{1,3}% (?:advance|upfront|on delivery|after)\b",
                r"预付\s*\d{1,3}\s*%", r"\d{1,3}\s*%\s*(?:预付|尾款)"))
#: A dress code: the one loosening ("不用穿正装") that is read.
ATTIRE = _c(_alt(r"\bdress code\b", r"\bformal (?:wear|dress|attire)\b", r"\bsuits? and ties?\b", r"正装", r"西装", r"polo衫", r"工服", r"制服"))
#: A power handed to "you", the agent or anyone, or a party speaking for itself or another.
_GRANTED = _c(_alt(
    r"\byou(?:'re| are)? (?:can|may|are allowed|are authori[sz]ed|are permitted|have (?:permission|access|approval))",
    r"\b(?:claims?|says?|said|told|tells|according to|on behalf of|vouche[sd])\b", r"\bwhoever\b", r"\banyone\b",
    r"你(?:可以|能|有权)", r"自称", r"声称", r"说", r"据称", r"冒充", r"代表",
))
#: Said of a public tender, a public procurement or a bid: not data made public.
_PUBLIC_TENDER = _c(_alt(r"\bpublic (?:tenders?|procurement|bids?)\b", r"公开招标"))
_VETO = (DESTRUCTIVE, CREDENTIAL, PRIVILEGE, TRUST, AGENT_ADDRESS, CONTROL, _c(ANYONE), _AGENT, _CHANGE, _SECRECY, _OUTWARD,
         _BULK, _OVERRIDE, _DATA_OUT, _AT_STAKE, _GRANTED)


def states_standing(normalised: str) -> bool:
    """Does the text state how things stand - a third party's qualification, an approval process, advice that tightens,
    payment terms, a dress code - with nothing an attack says (see the module docstring)? ``ON`` off: ``False``."""
    return ON and _states_standing(normalised)


def _states_standing(normalised: str) -> bool:
    attire = bool(ATTIRE.search(normalised))
    if not (HOLDS.search(normalised) or PROCESS.search(normalised) or TIGHTEN.search(normalised)
            or TERMS.search(normalised) or attire):
        return False
    if LOOSEN.search(normalised) and not attire:
        return False
    rest = _PUBLIC_TENDER.sub(" ", normalised)
    if EXPOSURE.search(rest) or (DATA.search(rest) and not attire):
        return False
    if PAYMENT.search(rest) and not TERMS.search(rest):
        return False
    if any(p.search(rest) for p in _VETO):
        return False
    return not waives_check(normalised) and not match_rules(normalised)
