"""Where does a carried (redacted) contact or key go? Readings used only by the guard's carried-value threshold
(``guard.WriteGuard.threshold_for``; round 20 of redaction, issue 10: "redact, then judge intent on the redacted text").

Blind round 21 quarantined 12 PII notes whose redaction was right: notes that carry a contact or a key and say where
it goes. A note like that is a fact to store redacted unless it orders data *out to an outsider*. Two readings:

- :func:`neutral_spans` masks the spans that name where a value is or was, not where the agent should send it, so the
  order and outward readings (:mod:`carried`, :mod:`outward`) judge the rest:
  - the account a secret belongs to ("他私人邮箱的密码", "her personal Gmail password"): the private mailbox is
    what the password opens, not a destination;
  - a warning given to the value's owner ("我已经提醒她以后验证码别告诉任何人", "told him never to share it"): it
    tightens, it orders nothing;
  - something else declared shareable - a public half or an identifier - in a sentence that carries no value
    ("Its public fingerprint ... is fine to share with the bank", "模板编号 TPL-2024-0087 可以公开给客户");
  - a leak reported after the fact, with its remedy ("someone pasted OPENAI_API_KEY=[key] into a public Slack channel
    and it got auto-revoked", "密钥被人贴到群里，已经作废"): an incident, not an instruction.
- :func:`routes_to_owner`: the contact belongs to a person the note names, and what goes there is routed to that person
  at their own request or as their own ("Mr. Aldridge asked that quarterly statements go to his private address [e]
  from now on", "she wants her payslips sent to [e] instead of the portal", "客户要求以后月报发到 [e]", "司机老陈的私人
  邮箱 [e]，行车记录导出来以后发给他"). A person choosing where their own mail goes says "from now on", "instead of",
  "personal inbox" - the words that mark an order elsewhere - so this reading names the owner instead. It fails when
  the note says anything else an attack that carries a value says (agent address, secrecy, loosening, bulk data,
  trust, override, credentials moved; :mod:`carried`).

It reads the normalised text (lower case, placeholders as ``[pii-...]``). Every pattern is linear (bounded windows).
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c

_SENT = re.compile(r"(?<=[.!?])\s+|[;。！？；\n]+")

# The account a secret opens: "私人邮箱的密码", "个人网盘的登录密码", "personal email password", "private gmail login".
_ACCOUNT_OF_SECRET = _c(_alt(
    r"(?:私人|个人)(?=(?:邮箱|账号|账户|网盘|微信|手机)(?:的)?(?:登录)?(?:密码|口令|验证码|pin))",
    r"\b(?:personal|private)(?= (?:e-?mail|gmail|inbox|account|mailbox|icloud|outlook) (?:account )?(?:password|passcode|login|pin|2fa|code)\b)",
))
# A warning to the value's owner not to pass it on: the verb that warns, a person, then a negated give / tell, to the
# end of the clause.
_WARNING = _c(_alt(
    r"(?:提醒|叮嘱|嘱咐|告诫|劝|交代)(?:了|过)?[\u4e00-\u9fff]{0,10}?(?:别|不要|不能|切勿|不可以)[^,;。，；!?！？\n]{0,30}",
    r"\b(?:reminded|told|warned|asked|advised|cautioned) (?:her|him|them|the (?:client|customer|parent|driver|user|caller|tenant))"
    r" (?:to |that (?:she|he|they) should )?(?:never|not to|not|don'?t)\b[^,;.!?\n]{0,40}",
))
# Where a message came from: "emailed from [e]", "wrote in from [e]", "用 [e] 发来的", "来自 [e]".
_INBOUND = _c(_alt(
    r"\b(?:e-?mailed|wrote|writes|messaged|texted|called|rang|replied|reached out|got in touch|sent (?:it|this|that|them|us|me)?)"
    r"(?: (?:in|us|me|again))? from \[pii-[ep]\]",
    r"(?:用|从)\s*\[pii-[ep]\]\s*(?:发来|来信|打来|发过来|寄来)", r"来自\s*\[pii-[ep]\]",
))
# Something other than the carried value declared shareable: a public half or an identifier, then "fine to share",
# "can be shared", 可以公开 ... (read only in a sentence that carries no placeholder).
_PUBLIC_ITEM = _c(
    r"(?:\bpublic (?:fingerprint|key|half|cert(?:ificate)?)|\bfingerprint|\bpubkey|\.pub\b|公钥|指纹|证书|模板(?:编号|id)?|编号|"
    r"\btemplate (?:id|number|no)|\blisting id|\bpublic id|\bcase (?:id|number))[^;。；\n]{0,80}?"
    r"(?:\b(?:is|are) (?:fine|ok|okay|safe) to (?:share|send|publish|give)|\bcan be (?:shared|published|given)|"
    r"可以(?:公开|分享|发|给)|可(?:公开|分享))"
)
_PLACEHOLDER = re.compile(r"\[pii-[a-z]+\]")
# A leak reported after the fact with its remedy: a past move by someone, and the value revoked / rotated / void.
_PAST_LEAK = _c(_alt(
    r"\b(?:someone|somebody|a (?:contractor|colleague|student|teacher|developer|dev|intern|new hire|user|customer|client)|"
    r"(?:he|she|they) (?:had )?) ?(?:accidentally |mistakenly )?(?:pasted|posted|committed|pushed|leaked|shared|uploaded|sent|typed|wrote)\b",
    r"(?:被人|有人|有用户|有客户|同事|实习生|新人)[\u4e00-\u9fff]{0,10}?(?:不小心|误)?(?:贴|发|传|提交|泄露|写|填)(?:到|在|了)",
    # round 25: "有人把企业微信群机器人的webhook贴到了外部群" - what was leaked named between
    r"(?:被人|有人|有用户|有客户|同事|实习生|新人)(?:不小心|误)?把[^,;。，；:：\n]{1,30}?(?:贴|发|传|提交|泄露|写|填)(?:到|在|了)",
))
_REMEDY = _c(_alt(
    r"\b(?:got |was |been |were |is )?(?:auto-?)?(?:revoked|rotated|invalidated|disabled|deactivated|killed|reset|burned)\b",
    r"\blesson learned\b", r"\bpost-?mortem\b", r"\bincident\b", r"\b(?:told|asked|advised) them to (?:move|rotate|change|reset)",
    r"(?:已经?|被|自动)?(?:作废|吊销|失效|重置|停用|撤销|打回|退回)", r"教训",
))
# Round 25: the remedy may be asked for in its own clause ("..., 请马上去后台重置"); an order word elsewhere still counts.
_CLAUSE = re.compile(r"[,，:：]")
_ORDER_WORD = _c(r"\b(?:please|pls|must|always|from now on|make sure)\b|请|务必|以后")
# Redaction round 21 (blind round 22: 8 PII notes quarantined although their redaction was right).
# A contact word that labels the carried value, the value right after it: "personal email is [e]", "私人邮箱[e]",
# "private address: [e]" - whose contact it is, not a destination (a destination is a move's object: "send to ...").
_LABEL = _c(_alt(
    r"\b(?:personal|private|home|own)\s+(?:e-?mail|inbox|mailbox|gmail|address|number|phone|mobile|cell)(?:\s+address)?"
    r"(?:\s+(?:is|was|=))?\s*[:,=-]*\s*(?=\[pii-(?:e|p|addr)\])",
    r"(?:私人|个人|私用|常用)(?:邮箱|邮件地址|手机号?|电话|号码|地址)(?:是|为)?\s*[:：]?\s*(?=\[pii-(?:e|p|addr)\])",
))
# A move forbidden: "别直接发给他", "不要转到", "never forward it to", "don't send ... there" - it tightens, it orders
# nothing out (to the end of the clause).
_FORBIDDEN_MOVE = _c(_alt(
    r"(?:别|不要|不能|不得|切勿|请勿|禁止|不许)(?:再|直接|私自|擅自|随便|随意)?(?:把[\u4e00-\u9fff]{1,8})?(?:发|寄|转|抄送)"
    r"[^,;。，；!?！？\n]{0,20}",
    r"\b(?:never|don'?t|do not|must not|should not|shouldn'?t)\s+(?:ever\s+|directly\s+)?(?:send|forward|email|e-mail|share|cc|copy)\b"
    r"[^,;.!?\n]{0,40}",
))
# A label is a destination when a move comes before it in its clause ("send it to his personal email [e]",
# "每学期都发一份到往届会长的私人邮箱 [e]").
_MOVE_BEFORE = _c(
    r"(?:\b(?:to|into|cc|via)\s+(?:(?:my|his|her|their|the|a|our|your)\s+)?(?:[a-z]+'s\s+)?$|"
    r"\b(?:send|sent|sending|forward|email|e-mail|mail|copy|copied|cc|post|upload|share)\b[^,;.!?\n]*$|(?:发|寄|转|抄送|传|上传)[^,;。，；!?！？\n]*$)"
)
# A check required before the move: "needs a signed authorisation first", "requires written consent", "需要本人签字授权" -
# a safeguard added, not trust handed over.
_CHECK_REQUIRED = _c(_alt(
    r"\b(?:needs?|requires?|required|pending|after|once (?:we|they|he|she) (?:get|have|receive))\s+(?:a |an |the |his |her |their )?"
    r"(?:signed |written |formal |explicit |verbal )?(?:authori[sz]ation|consent|approval|sign-?off|verification)(?: form)?(?: first)?\b",
    r"(?:需要|须|必须|要先|先)[\u4e00-\u9fff]{0,6}?(?:签字|授权|书面同意|同意书|核实身份|身份核验)",
    r"\b(?:proxy-)?authori[sz]ation\s*:",  # an HTTP header's name ("authorization: basic [pw]"), not a grant
))


# Redaction round 25 (blind round 23: 7 PII notes quarantined although their redaction was right).
# A person's job title that ends in "agent" ("the new ramp agent's payroll file", "gate agent", "travel agent"): a
# person, not the agent this store serves.
_ROLE_AGENT = _c(
    r"\b(?:ramp|gate|travel|(?:real )?estate|booking|ticket(?:ing)?|check-in|customs|shipping|freight|insurance|leasing|"
    r"letting|rental|border|field|station|baggage|cargo|handling|claims|counter|patent|talent|literary|enrol?ment|admissions|"
    r"passenger service|ground|escrow|listing|buyer's|seller's|sports) agents?(?:'s)?\b"
)
# A send reported as a mistake and corrected: "sent the invoice to [e] by mistake, it should have gone to [e]",
# "邮件发错到 [e] 了，应该发给 [e]" - past events, no order (each to the end of its clause).
_MISSENT = _c(_alt(
    r"\b(?:sent|emailed|e-mailed|forwarded|mailed|posted|shipped|delivered|cc'?d|texted)\b[^,;.!?\n]{0,60}?"
    r"\b(?:by mistake|by accident|in error|mistakenly|accidentally|wrongly|to the wrong)\b[^,;.!?\n]{0,30}",
    r"\b(?:it|they|this|that|these|those)\s+should have (?:gone|been sent|been forwarded) (?:to|out to)\b[^,;.!?\n]{0,40}",
    r"(?:发错|寄错|转错|误发|错发|填错)[^,;。，；!?！？\n]{0,30}", r"(?:本来|本该|原本)应该(?:发|寄|转)(?:到|给)[^,;。，；!?！？\n]{0,30}",
))
# A channel the owner of a contact accepts ("WhatsApp is fine", "texts are ok", "微信也行"): how to reach them, not a
# safeguard loosened.
_CHANNEL_OK = _c(_alt(
    r"\b(?:whatsapp|signal|telegram|wechat|sms|texts?|texting|a text|calls?|calling|a call|voicemail|e-?mail|phone)"
    r"(?: or (?:whatsapp|signal|telegram|wechat|sms|texts?|calls?|e-?mail|phone))? (?:is|are) (?:also )?(?:fine|ok|okay)\b",
    r"(?:微信|短信|电话|打电话|发短信|语音)(?:也|都)?(?:行|可以|没问题)",
))
# A price or a count per unit ("co-pay is $35 per trip, three trips a week", "每趟35元"): a quantity, not a recurring order.
_RATE = _c(_alt(
    r"(?:[$£€¥]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:dollars|pounds|euros|usd|gbp|eur))\s*(?:per|a|an|each|/)\s*[a-z-]+",
    r"\b(?:\d+|one|two|three|four|five|six|seven|a few|several)\s+(?:trips|visits|sessions|shifts|rides|classes|lessons|"
    r"appointments|doses|meals|deliveries|runs)\s+(?:a|per|each)\s+(?:day|week|month|year)\b",
    r"每(?:次|趟|单|人|小时)\s*\d[\d,.]*\s*(?:元|块|美元|英镑)",
))


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` replaced by spaces, lengths kept (one pass, however many spans)."""
    if not spans:
        return text
    out, cursor = [], 0
    for start, end in sorted(spans):
        start = max(start, cursor)
        if end > start:
            out += [text[cursor:start], " " * (end - start)]
            cursor = end
    return "".join(out) + text[cursor:]


def neutral_spans(normalised: str) -> str:
    """The text with the spans that say where a value is or was (not where to send it) blanked, lengths kept."""
    spans = [m.span() for pattern in (_ACCOUNT_OF_SECRET, _WARNING, _INBOUND, _FORBIDDEN_MOVE, _CHECK_REQUIRED,
                                      _ROLE_AGENT, _MISSENT, _CHANNEL_OK, _RATE)
             for m in pattern.finditer(normalised)]
    spans += [m.span() for m in _LABEL.finditer(normalised) if not _MOVE_BEFORE.search(normalised, max(0, m.start() - 40), m.start())]
    remedy = bool(_REMEDY.search(normalised))
    pos = 0
    for sentence in _SENT.split(normalised):
        start = normalised.find(sentence, pos)
        if start < 0 or not sentence.strip():
            continue
        pos = start + len(sentence)
        shareable = not _PLACEHOLDER.search(sentence) and _PUBLIC_ITEM.search(sentence)
        leak = remedy and _PAST_LEAK.search(sentence) and not any(
            _ORDER_WORD.search(c) and not _REMEDY.search(c) for c in _CLAUSE.split(sentence))
        if shareable or leak:
            spans.append((start, pos))
    return _blank(normalised, spans)


# The contact's owner: a possessive before the contact word ("his private address", "the buyer's personal inbox",
# "客户的邮箱", "司机老陈的私人邮箱") or a third person who asks for it ("Mr. Aldridge asked that ...", "she wants
# her payslips sent to", "客户 ... 要求 ... 发到").
_CONTACT = r"(?:(?:personal|private|home|own|work|new|usual) )?(?:e-?mail(?: address)?|inbox|address|mailbox|mobile|number|phone)"
_OWNED = _c(_alt(
    r"\b(?:his|her|their)(?: own)? " + _CONTACT,
    r"\b(?:the )?(?:[a-z]+ ){0,2}?[a-z]+'s (?:own )?" + _CONTACT,
    r"[\u4e00-\u9fff a-z]{1,8}(?:的(?:私人|个人|常用|家庭|私用)?|(?:私人|个人))(?:邮箱|邮件地址|地址|手机|电话)",
))
_REQUEST = _c(_alt(
    r"\b(?:he|she|they|mr\.? [a-z]+|mrs\.? [a-z]+|ms\.? [a-z]+|dr\.? [a-z]+|the (?:client|customer|buyer|seller|tenant|"
    r"landlord|employee|member|patient|parent|driver|owner|applicant)) (?:has )?(?:asked|requested|wants|wanted|would like|prefers|"
    r"asks|requests|needs)\b",
    r"(?:客户|他|她|业主|租客|买家|卖家|家长|患者|员工|司机|会员)[\u4e00-\u9fff a-z]{0,8}?(?:要求|希望|想要|让我们|请我们|申请)",
))
# The destination is the owner: "to him / her", "发给他 / 她", "抄送他太太", or their own material ("her payslips").
_TO_OWNER = _c(_alt(
    r"\b(?:to|for|cc) (?:him|her|them)\b", r"(?:发|寄|转|抄送)(?:到)?这(?:里|儿|个)", r"\bto (?:his|her|their|the (?:[a-z]+ ){0,2}?[a-z]+'s) (?:own )?" + _CONTACT, r"(?:发|寄|转|抄送)(?:给)?(?:他|她)(?!们的?(?:同事|朋友))",
    r"\b(?:his|her|their) (?:[a-z-]+ ){0,2}?(?:statements?|payslips?|pay ?stubs?|invoices?|bills?|reports?|documents?|records?|"
    r"results?|letters?|lease|contract|copy|copies|tax forms?)\b",
))
# Material named only by its kind ("月报发到 ..."): the owner's only when the owner asked for it.
_MATERIAL_TO = _c(r"(?:月报|报表|对账单|账单|合同|发票|工资条|记录|报告)[^,;。，；]{0,6}(?:发到|寄到|发给|转到)")
_CONTACT_PLACEHOLDER = re.compile(r"\[pii-(?:e|p|addr)\]")
_SECRET_PLACEHOLDER = re.compile(r"\[pii-(?:pw|key|card|id|x)\]")


# An outsider named as the contact's owner or the destination: then it is data ordered out, whoever asked.
_OUTSIDER = _c(_alt(
    r"\bexternal\b", r"\boutside\b", r"third[- ]part", r"\bconsultant", r"\bvendor", r"\bcontractor", r"\bagency\b",
    r"\bcompetitor", r"外部", r"外网", r"第三方", r"顾问", r"供应商", r"外包", r"中介", r"对方",
))


def routes_to_owner(normalised: str) -> bool:
    """A contact placeholder that belongs to a person the note names, with what goes there routed to that person at
    their request or as their own; never when an outsider is named."""
    if not _CONTACT_PLACEHOLDER.search(normalised) or _SECRET_PLACEHOLDER.search(normalised) or _OUTSIDER.search(normalised):
        return False
    owned = bool(_OWNED.search(normalised))
    asked = bool(_REQUEST.search(normalised))
    return (owned or asked) and bool(_TO_OWNER.search(normalised)) or asked and bool(_MATERIAL_TO.search(normalised))
