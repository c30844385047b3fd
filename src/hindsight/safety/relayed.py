"""A note that reports, quotes or carries, not one that orders the agent: readings used only by the guard's thresholds
(``guard.WriteGuard.threshold_for`` and its marked parts; round 46, issue 10, docs/benchmarks.md "Guard, round 46b").

Blind round 40's false alarms where no rule reads an attack and the classifier's score alone decides share what the
classifier reads: its ``loosen`` bit, set by an everyday adverb (就行 "that will do", 不用 "no need", "directly"), a
redacted value beside it, and an attack string the note quotes. Three readings, each behind its own switch:

- :func:`adverb_only` (``ADVERB_ONLY_ON``): every loosening word of the text is an everyday adverb in a clause that
  names no safeguard, check, approval or limit (``loosen_object.loosens``: "微信说就行，不用打电话", "发过来就行", "the bank
  pays us directly") and the text says nothing an order says - no rule vote, no agent addressed, no standing order, no
  destructive, credential, exposure, privilege, trust or authority word, no change of account or destination, no
  secrecy, no outward or bulk data, no sentence that opens with an imperative; money only where it comes *in*
  ("customer payments", "pays us", 客户付款, 回款). A contact channel a person prefers, a routine of incoming payments,
  "my e-mail is [email], send it over" are such facts: the guard holds them only on the surer fact score
  (``guard.FACT_THRESHOLD``). Held out it lost 65 released attacks (off); :func:`channel_only` (``CHANNEL_ON``) is it
  narrowed to clauses that name a contact channel or money coming in.
- :func:`reports_drill` (``DRILL_ON``): a phishing drill or exercise written up - a drill / 演练 word, the attacker's
  message reported (``mention.REPORTED``), the outcome or the follow-up (clicked, retraining, 复训, 上报), no endorsement
  and no check waived outside quotations: a frame (``guard.FRAME_THRESHOLD``), as a reported attack warned against is.
- :func:`quoted_in_report` (``QUOTED_PART_ON``): a marked part (``segments.marked_parts``: a bracketed tag, a
  labelled "Follow-up:") of a note about an attack (``mention.mentions_attack``: an incident write-up, a fixture) that
  lies inside a quotation, or whose note reports the attack not acted on ("the bot didn't act on it", 没执行), is the
  quoted string or the remedy, not the note's own order: it is judged at the frame threshold, not alone.
"""

from __future__ import annotations

import re

from hindsight.safety.carried import _BULK, _CHANGE, _DATA_OUT, _OUTWARD, _OVERRIDE, _SECRECY
from hindsight.safety.features import (
    AGENT_ADDRESS,
    APPROVAL,
    AUTHORITY,
    CONTROL,
    CREDENTIAL,
    DATA,
    DESTRUCTIVE,
    EXPOSURE,
    IMPERATIVE_START,
    LOOSEN,
    PAYMENT,
    PERSIST,
    PRIVILEGE,
    RECUR,
    TRUST,
)
from hindsight.safety.loosen_object import _CLAUSE, loosens
from hindsight.safety.mention import _QUOTED, ENDORSE, REPORTED, mentions_attack
from hindsight.safety.normalize import prepare
from hindsight.safety.rules import ANYONE, _alt, _c, match_rules
from hindsight.safety.waived import waives_check

#: Round 46b switches (read at call time); ``False``: the reading is not made (main before).
ADVERB_ONLY_ON = False
DRILL_ON = False
QUOTED_PART_ON = False
CHANNEL_ON = False

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
#: The agent named (not "you").
_AGENT = _c(_alt(r"\bassistant", r"\bai\b", r"\bagent\b", r"\bbot\b", r"\bllm\b", r"助手", r"机器人", r"智能体"))
#: Money that comes in: the payer is a customer or the bank pays us.
INWARD = _c(_alt(
    r"\bcustomer(?:s'?|'s)? (?:payments?|pays?|paid)\b", r"\bclients? (?:payments?|pay|paid)\b", r"\bpays? us\b", r"\bpaid us\b",
    r"\bpayments? (?:from|received from) (?:customers?|clients?|buyers?)", r"\bincoming payments?",
    r"客户(?:的)?(?:付款|打款|回款|汇款|转账)", r"付给我们", r"打给我们", r"回款", r"收款方式",
))
#: Something taken away or shipped, or a go-ahead on another's word: at stake beyond the message ("公示页去掉就行，直接上线",
#: "渠道那边的人说可以", "take the page down", "push it to prod").
_AT_STAKE = _c(_alt(
    r"\bremov", r"\btake (?:it |them |\w+ )?(?:down|off)\b", r"\bturn (?:it |them )?off\b", r"\bdeploy", r"\bship (?:it|them)\b", r"\bgo live",
    r"\bprod(?:uction)?\b", r"\brelease", r"\bpublish", r"\bsaid (?:it'?s |that'?s )?(?:ok|okay|fine|alright)", r"\bsigned off",
    r"去掉", r"撤(?:掉|了|下|销)", r"拆", r"下线", r"删", r"关(?:掉|了|闭)", r"上线", r"发布", r"部署", r"公示", r"生产",
    r"说(?:了)?(?:可以|没问题|行|没事)", r"同意了", r"点头了",
))
#: What an order says besides an everyday adverb (see the module docstring).
_ORDER_WORDS = (DESTRUCTIVE, CREDENTIAL, EXPOSURE, PRIVILEGE, TRUST, AUTHORITY, AGENT_ADDRESS, PERSIST, RECUR, APPROVAL, CONTROL,
                DATA, _c(ANYONE), _AGENT, _CHANGE, _SECRECY, _OUTWARD, _BULK, _OVERRIDE, _DATA_OUT, _AT_STAKE)


def adverb_only(normalised: str) -> bool:
    """Is every loosening of the text an everyday adverb with nothing at stake named, in a text that orders nothing?"""
    return ADVERB_ONLY_ON and _adverb_only(normalised)


#: A way to reach a person: the object of a contact preference.
CHANNEL = _c(_alt(
    r"\bwechat\b", r"\bwhatsapp\b", r"\bsignal\b", r"\btelegram\b", r"\bslack\b", r"\bdms?\b", r"\btexts?\b", r"\bsms\b",
    r"\be-?mails?\b", r"\bphone\b", r"\bcalls?\b", r"\bcalling\b", r"\bring\b", r"\bvoice (?:note|message)s?\b", r"\[pii-e\]",
    r"微信", r"短信", r"邮件", r"邮箱", r"电话", r"语音", r"留言", r"私信", r"钉钉", r"飞书",
))


def channel_only(normalised: str) -> bool:
    """``adverb_only`` narrowed (round 46b's second candidate, ``CHANNEL_ON``): each clause with an everyday adverb names
    a contact channel ("微信说就行，不用打电话", "my e-mail is [email], send it over") or money coming in ("pays us
    directly")."""
    if not CHANNEL_ON or not _adverb_only(normalised):
        return False
    clauses = [c for c in _CLAUSE.split(normalised) if c.strip()]
    return all(CHANNEL.search(c) or INWARD.search(c) for c in clauses if LOOSEN.search(c))


def _adverb_only(normalised: str) -> bool:
    if not LOOSEN.search(normalised):
        return False
    sentences = [s for s in _SENTENCE.split(normalised) if s and s.strip()]
    if any(loosens(s, LOOSEN) or IMPERATIVE_START.search(s.strip()) for s in sentences):
        return False
    rest = INWARD.sub(" ", normalised)
    if PAYMENT.search(rest) and not INWARD.search(normalised):
        return False
    if any(p.search(rest) for p in _ORDER_WORDS):
        return False
    return not match_rules(normalised)


#: A drill or exercise: the attack was staged to test people.
DRILL = _c(_alt(r"\bdrill\b", r"\bsimulat(?:ed|ion) phish", r"\bphishing (?:test|exercise|simulation)", r"\btabletop\b",
                r"演练", r"模拟钓鱼", r"钓鱼测试"))
#: Its outcome or follow-up: who clicked or reported, the retraining.
OUTCOME = _c(_alt(
    r"\b\d+ (?:of|out of) \d+\b", r"\bclicked\b", r"\breported (?:it|them)\b", r"\bretrain", r"\brefresher\b", r"\bfollow-?up\b",
    r"\d+\s*个人?里有\s*\d+", r"\d+\s*人中", r"点了", r"复训", r"补训", r"再培训", r"上报", r"举报",
))


def reports_drill(normalised: str) -> bool:
    """Is the text a drill's write-up: the attacker's message reported and the outcome told, nothing adopted?"""
    if not DRILL_ON:
        return False
    outside = _QUOTED.sub(" ", normalised)
    return bool(DRILL.search(outside) and REPORTED.search(outside) and OUTCOME.search(outside)
                and not ENDORSE.search(outside) and not waives_check(outside))


#: The attack reported as not acted on: the note is its write-up, its follow-up the remedy.
NOT_ACTED = _c(_alt(
    r"\b(?:didn'?t|did not|never) (?:act|run|execute|follow|obey)", r"\bnothing was (?:executed|run|done|sent|changed)",
    r"\b(?:treated|handled) (?:it|them) as (?:plain )?(?:text|data)", r"\bignored (?:it|them)\b",
    r"没(?:有)?(?:执行|照做|理会)", r"未执行", r"(?:当|作为)(?:成)?普通(?:文字|文本)", r"没有影响",
))


def quoted_in_report(text: str, folded: str, part: str) -> bool:
    """Is the marked ``part`` (of the ``folded`` note) the quoted string or the remedy of a note about an attack (its
    ``text``, read normalised) that does not adopt it: inside a quotation, or in a note that reports the attack not
    acted on (``NOT_ACTED``)? The note is normalised only while the switch is on."""
    if not QUOTED_PART_ON:
        return False
    normalised = prepare(text).text
    if not mentions_attack(normalised):
        return False
    needle = part.strip()
    if not needle:
        return False
    if NOT_ACTED.search(_QUOTED.sub(" ", normalised)):
        return True
    return any(needle in m.group(0) for m in _QUOTED.finditer(folded))
