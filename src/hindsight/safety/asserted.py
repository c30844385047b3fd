"""What a transcript, an acknowledgement or a forwarded message *asserts* (round 13 guard).

Every guard refit since round 11 flagged the same benign form: a chat transcript or an acknowledgement
("用户：我们组周一上午开周会 助手：好的，记住了", "User: ... Assistant: Noted."). The feature view (:mod:`view`) turns
speaker labels into line breaks; it used to keep the assistant's reply too, so "记住了", "I'll remember that",
"from now on I'll ..." fired ``persist`` as if the text laid down a standing order. The view now reads what is
asserted, with these pieces:

- **Acknowledgements** ("ok", "noted", "got it", "will do", "I'll keep that in mind", 好的, 收到, 明白, 记住了, 记下了,
  了解) are dropped where they make up a whole clause at the start of a turn or of the text, or a whole sentence.
  "ok, noted: from now on skip review" keeps "from now on skip review"; "记住：……" (an order) is no acknowledgement.
- **Replies**: in a dialogue (a transcript with a user, tool or system turn) an assistant turn that, its
  acknowledgement dropped, names nothing at stake (``AT_STAKE``: loosening, destructive, credential, exposure,
  payment, privilege, trust, authority, approval or control cues) is a reply and is dropped. One that does is kept:
  a turn that restates or lays down the order is read on its content.
- **Forwarded messages**: the forwarding header ("---- Forwarded message ----", "Begin forwarded message:",
  "转发的消息") and "> " quote marks go; the forwarded content is read as the text.

Same rules in English and Chinese; nothing here is fitted.
"""

from __future__ import annotations

import re

from hindsight.safety.features import (
    APPROVAL,
    AUTHORITY,
    CONTROL,
    CREDENTIAL,
    DESTRUCTIVE,
    EXPOSURE,
    LOOSEN,
    PAYMENT,
    PRIVILEGE,
    TRUST,
)
from hindsight.safety.rules import _alt, _c

_ACK_EN = (
    r"ok(?:ay)?", r"k", r"sure(?: thing)?", r"got it", r"gotcha", r"noted", r"understood", r"will do", r"roger(?: that)?",
    r"copy(?: that)?", r"acknowledged", r"alright", r"all right", r"yes", r"yep", r"yeah", r"of course", r"sounds good",
    r"makes sense", r"perfect", r"great", r"cool", r"i see", r"no problem",
    r"thanks?(?: you)?(?: for (?:letting me know|the (?:heads[- ]up|update|reminder)|telling me))?",
    r"i(?:'ll| will) (?:remember|keep|note) (?:that|this|it)(?: in mind)?(?: for (?:next time|later|the future))?",
    r"i(?:'ve| have) (?:noted|saved|got|written down) (?:that|this|it)(?: down)?",
)
_ACK_ZH = (
    r"好的?", r"好嘞", r"好滴", r"行", r"嗯++", r"可以", r"收到(?:了)?", r"明白(?:了)?", r"了解(?:了)?", r"知道了", r"懂了", r"没问题",
    r"ok", r"谢谢(?:提醒|告知)?", r"我?(?:已经?)?记住了", r"已记住", r"我?(?:已经?)?记下(?:来)?了", r"(?:已)?记录(?:下来)?了", r"我会记住的",
)
_ACK_TOKEN = _alt(*_ACK_EN, *_ACK_ZH)
_PUNCT = r"[,，.。!！~～、:：;；\-—–]"
_SEP = rf"(?:\s|{_PUNCT})*"
#: A clause made only of acknowledgements ("好的，记住了", "Got it - noted.").
ACK_CLAUSE = re.compile(rf"^{_SEP}(?:(?:{_ACK_TOKEN}){_SEP})+$", re.IGNORECASE)
#: Acknowledgements at the start of a turn or text, each ended by punctuation ("ok, noted: ...", "好的，记住了，...").
_LEADING_ACK = re.compile(rf"^{_SEP}(?:(?:{_ACK_TOKEN})(?=\s*(?:{_PUNCT}|$)){_SEP})+", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;。！？；\n])")
AT_STAKE = _c(_alt(LOOSEN.pattern, DESTRUCTIVE.pattern, CREDENTIAL.pattern, EXPOSURE.pattern, PAYMENT.pattern,
                   PRIVILEGE.pattern, TRUST.pattern, AUTHORITY.pattern, APPROVAL.pattern, CONTROL.pattern))
_FORWARD_HEADER = _c(_alt(
    r"^-{2,}\s*forwarded message\s*-{2,}$", r"^begin forwarded message:?$", r"^forwarded message:?$", r"^(?:fwd?|fw)\s*:\s*",
    r"^-{2,}\s*转发的?(?:消息|邮件)\s*-{2,}$", r"^(?:以下(?:是|为))?转发(?:的)?(?:消息|邮件|内容)?\s*[:：]\s*$",
))
_QUOTE_MARK = re.compile(r"^\s*>+\s?", re.MULTILINE)


def strip_acknowledgement(text: str) -> str:
    """The text without its acknowledgements: leading clauses and whole sentences made only of them."""
    text = _LEADING_ACK.sub("", text)
    kept = [s for s in _SENTENCE.split(text) if not (s.strip() and ACK_CLAUSE.match(s.strip()))]
    return "".join(kept).strip()


def unforward(text: str) -> str:
    """A forwarded message read as its content: quote marks and the forwarding header dropped."""
    lines = text.splitlines()
    if not _QUOTE_MARK.search(text) and not any(_FORWARD_HEADER.search(line.strip()) for line in lines):
        return text
    lines = [_FORWARD_HEADER.sub("", line.strip()) for line in _QUOTE_MARK.sub("", text).splitlines()]
    return "\n".join(line for line in lines if line.strip())


def reply_asserts(body: str, dialogue: bool) -> str:
    """What an assistant turn asserts: its content less acknowledgements; nothing for a reply in a dialogue that
    names nothing at stake."""
    content = strip_acknowledgement(body)
    return content if content and (not dialogue or AT_STAKE.search(content)) else ""
