"""A safeguard loosened on someone else's word: a claimed authority or channel, then a bypass (issue 10, round 20).

False authorisation and trust transfer share one shape that no lexicon names: a third party is said to vouch
("Legal has signed off", "the agency verbally okayed", "支付宝官方客服说授权", "海关那边的朋友说已经打点好了", "this number is
official", "it was agreed informally") and the same text then waives a check, a report, a limit or a verification
("don't file them", "no ticket required", "不用走工单", "不会查", "限额改成不限", "别再核实"). Either half alone is
ordinary office talk ("Legal signed off on the lease", "no need to book, just turn up"); the pair is the attack.

Read per text on the normalised text, EN and ZH: a vouching claim and a loosened safeguard within two sentences of
each other, no warning frame (a scam described, "even if they say", 冒充, 诈骗) and no order to verify the claim
("call back on the number on file", 先核实). What the guard does with it: :data:`guard.VOUCHED_THRESHOLD`, a lower
classifier threshold, never a quarantine on its own; the classifier's features are unchanged.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c

#: Someone other than the writer vouches: signed off, approved, authorised, confirmed, agreed, said it is fine,
#: is official. A first-person decision ("I approved") is the writer's own and is not read here.
CLAIM = _c(_alt(
    r"\bsigned off\b", r"\bsign-?off from\b", r"\bok(?:ay)?(?:ed|'d)\b", r"\bgave (?:us |the )?(?:the )?(?:go-?ahead|green light|ok|okay|nod)",
    r"(?<!\bi\x20)(?<!\bwe\x20)\b(?:approved|authori[sz]ed|cleared|confirmed|agreed|vouched)\b", r"\bverbally\b",
    r"\binformally\b", r"\boff the record\b", r"\b(?:says?|said|told (?:us|me)|claims?|confirm(?:s|ed)) (?:it'?s|it is|that|we|you|they|this)\b",
    r"\b(?:is|are|it'?s) (?:the )?(?:official|legit|legitimate|genuine|authentic|verified|real)\b",
    r"\bofficial (?:number|line|hotline|channel|domain|page|site|account|support)\b", r"\bnew (?:number|domain|account|address|login page)\b",
    r"说(?:了|过)?(?:已经|可以|没问题|不用|不会|没事|不影响|这次|要)", r"(?:口头|私下|已经|都)?同意了", r"批了", r"点头了", r"打点好了",
    r"(?:已经|已)?授权", r"是官方的?", r"官方(?:客服|渠道|号码|电话|的)", r"认可了", r"签字了", r"默许", r"交代过", r"打过招呼",
    r"新(?:的)?(?:号码|号|域名|登录页|账号|地址)", r"新加的号",
))
#: A safeguard loosened: a check, report, limit, verification or record waived, skipped, lifted or falsified.
BYPASS = _c(_alt(
    r"\bskip(?:ping|ped)?\b", r"\bbypass", r"\bwaive", r"\bbackdat", r"\bunder-?declar", r"\bunlimited\b", r"\bno (?:limit|cap|ticket|check|review|callback)s?\b",
    r"\b(?:don'?t|do not|no need to|never|needn'?t) (?:file|report|verify|check|call|confirm|flag|log|record|submit|escalate|double-check|summari[sz]e|ask)\b",
    r"\bwithout (?:a |any |the )?(?:ticket|verif|check|review|approval|confirm|report|sign-?off|callback|calling|summari)",
    r"\b(?:raise|remove|lift|cancel|drop|turn off|disable) (?:the |all |any |their |her |his )?(?:\w+ )?(?:limits?|caps?|thresholds?|requirements?|checks?|alerts?|verification)",
    r"\bno(?:body|one) checks\b", r"\bwon'?t be (?:checked|audited|inspected)", r"\bleave (?:\w+ ){0,3}(?:blank|empty|open)\b", r"\bfill (?:it|them) in (?:later|after)",
    r"\btreat (?:them|it|him|her) as\b", r"\btrust (?:it|them|him|her)\b", r"\bfreely\b", r"\b(?:read|give|tell|send) (?:them|him|her) (?:the |your |our |his |their )?(?:\w+ )?(?:pin|password|passcode|code|otp|seed|recovery)", r"\bno questions\b", r"\bself-approv",
    r"不用(?:再)?(?:走|报|填|查|核实|核对|确认|审批|登记|上报|回电|打电话|问)", r"不会查", r"没人查", r"不查", r"不限", r"(?:取消|放开|解除).{0,6}限额",
    r"先空着", r"再补", r"按去年的?填", r"写低", r"少报", r"低报", r"免检", r"跳过", r"绕过", r"(?:别|不要|不用)再?.{0,12}核实", r"不走(?:工单|流程|审批)",
    r"照常(?:输|填|登)", r"先转过去", r"直接(?:改|发|转|放行|通过|批|打款)", r"给他就行", r"念给", r"改成不限",
))
#: A claim described as a trick, or a claim the text says to check: not an order to act on it.
WARNING = _c(_alt(
    r"\bscam", r"\bfraud(?!\x20(?:team|department|desk|unit|prevention|line))", r"phishing", r"red flag", r"\bbec\b", r"\bclassic\b", r"impersonat", r"\bpretend", r"\bfake\b", r"social engineering", r"\beven if\b",
    r"\bnever trust\b", r"(?:don'?t|do not) (?:trust|believe|act on)", r"\bsuspicious\b", r"call (?:them |it )?back", r"(?<!un)known number",
    r"number on file", r"verify (?:it|this|that|them|the)", r"\bconfirm (?:it|this|that) (?:with|by)\b", r"\bdouble-check (?:it|with)",
    r"诈骗", r"骗子", r"骗局", r"冒充", r"钓鱼", r"假的", r"提防", r"警惕", r"小心", r"不要(?:相信|信)", r"别信", r"即使", r"就算", r"哪怕",
    r"(?:先|要|必须|务必|一定要)(?:打电话|回电|电话)?(?:核实|核对|确认)", r"回拨", r"原号码",
))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")


def claim_then_act(normalised: str, claim: re.Pattern[str], act: re.Pattern[str], *, either_order: bool = False) -> bool:
    """A `claim` sentence and an `act` sentence in the same or the next sentence (`act` after `claim`, or on either
    side when `either_order`), and no :data:`WARNING` anywhere: the two-part reading shared by `vouched_loosening` and
    `trusted.transfers_trust`."""
    if not claim.search(normalised) or not act.search(normalised) or WARNING.search(normalised):
        return False
    sentences = [s for s in _SENTENCE.split(normalised) if s.strip()]
    claims = [i for i, s in enumerate(sentences) if claim.search(s)]
    acts = [i for i, s in enumerate(sentences) if act.search(s)]
    return any((abs(a - c) if either_order else a - c) in (0, 1) for c in claims for a in acts)


def vouched_loosening(normalised: str) -> bool:
    """Does the text loosen a safeguard on a claimed authority's or channel's word (EN/ZH, see the module)?"""
    return claim_then_act(normalised, CLAIM, BYPASS)
