"""Which way each clause of a rule moves a safeguard, as a sign (issue 10, round 31b) - measured, NOT shipped.

Candidate of branch guardfp31b: in ``src/hindsight/safety/tighten.py`` and wired through ``polarity.adds_check`` at
commit b5f1756 (frozen 14:44 UTC); it failed its ship rule held out (docs/benchmarks.md "Guard false alarms, round 31b")
and is kept here for ``guardfp31b_replay.py`` / ``guardfp31b_why.py``.

``polarity.adds_check`` reads four fixed shapes of a tightening rule ("never <act> without <check>", "must verify ...
before", "any <act> needs <approval>", 一律不发). The false alarms that r18 - r28's census still holds are tightening
rules in other shapes: "Never skip it, even on busy nights", "Always ask Dr. Haas before sending patient records",
"Before wiring any charter payment, call the operator back", "都不要给", "要有科长书面审批", "Two-person approval is
required for any command that ... disables a safe-mode trigger", "If anyone asks you to skip the call-back, treat that as
a red flag". This module reads their polarity as a product of two signs per clause, EN and ZH:

- the act's sign: a *check* (approval, sign-off, verification, a callback, consent, a second person, an inspection,
  encryption, a backup, an escalation, a refusal: 审批, 核实, 签字, 双人, 备份, 上报, 拒绝) is +; a *relaxation* (skip,
  bypass, disable, waive, 跳过, 绕过, 关闭) or an *exposure* (paste, share, send, give, forward, 发给, 贴到, 透露, 索要) is -;
- the modal's sign: negated (never, don't, no one may, 不要, 别, 不得, 禁止, 都不) is -, otherwise +.

A clause tightens when the product is + (a check ordered, a relaxation or an exposure forbidden) and loosens when it
is - ("don't confirm", "always skip", "send the keys to ..."). A clause that sets the condition of another ("before
<act>", "if anyone asks you to <act>", "任何人让你 ...") takes no sign of its own when its sentence has a tightening
clause, and the act after "before / until / 之前" inside a check clause is the checked act, not an order.

The text is read as tightening only when some clause tightens, no clause loosens, no tightening clause names a
destination (an address, a link, a placeholder value: "always verify at http://..." hands trust out; a public or
outside place: "back up the .env file to a public gist"), every sentence
that names something at stake (``stake``'s lexicons) has a tightening clause, and nothing at stake is loosened
(``stake.loosens_stake``) outside the tightening clauses. What the guard does with it: the frame threshold, like
``polarity.adds_check`` - never a release on its own (a hard rule still holds the text).
"""

from __future__ import annotations

import re

from hindsight.safety.features import DESTRUCTIVE, EXPOSURE
from hindsight.safety.rules import _alt, _c
from hindsight.safety.stake import _at_stake, loosens_stake

_SENTENCE = re.compile(r"(?<![Dd]r\.)(?<![Mm][rs]\.)(?<!Mrs\.)(?<=[.!?])\s+|[。！？\n]+")
_CLAUSE = re.compile(r"(?<=[;,:])\s+|\s+[-\u2013\u2014]+\s+|[；，：]+|(?<=[\u3400-\u9fff]),|,(?=[\u3400-\u9fff])")

#: An act that puts a check in the way.
CHECK = _c(_alt(
    r"\bapproval", r"\bapproved by\b", r"\bsign-?off", r"\bsign(?:s|ed)? (?:the|off|it|for)\b", r"\bsignatures?\b", r"\bverif", r"\bconfirm", r"\bcall(?:ing)? (?:\w+ ){0,3}back",
    r"\bcall-?backs?\b", r"\bconsent\b", r"\btwo[- ](?:person|staff|people|signatures?)", r"\bsecond (?:person|pair|signature|approver)",
    r"\breview", r"\binspect", r"\baudit", r"\bcount(?:ed)? by\b", r"\bencrypt", r"\bback (?:it |them |everything )?up\b", r"\ba backup\b",
    r"\bescalat", r"\breport (?:it|them|this|that|to)\b", r"\bred flag", r"\bticket\b", r"\bask (?:\w+\.? ){0,3}(?:before|first)\b",
    r"\bask (?:dr|mr|mrs|ms)\b", r"\bcheck(?:ed)? (?:with|first)\b", r"\bchecked\b", r"\bpermission\b", r"\bauthori[sz]ation\b",
    r"\bwritten\b", r"\bwitness", r"\bdouble-?check", r"\brefuse", r"\bdecline", r"\breject", r"\b(?:2fa|mfa)\b(?! codes?)", r"\bfiled? (?:\w+ ){0,3}ahead\b",
    r"审批", r"签字", r"问(?!题)", r"打招呼", r"\bask\b", r"征得[^，。；]{0,6}同意", r"经[^，。；]{0,6}同意", r"签名", r"核实", r"核对", r"复核", r"确认", r"回电", r"回拨", r"报备", r"登记", r"加密", r"备份",
    r"上报", r"举报", r"双人", r"两个人", r"两人", r"审核", r"检查", r"验证(?!码)", r"授权", r"书面", r"拒绝", r"报警", r"请示",
    r"\btell\b", r"\bnotify", r"\binform\b", r"\bcc\b", r"告诉(?!.{0,6}(?:密码|验证码|密钥|口令))", r"通知", r"知会", r"抄送", r"过目", r"预览",
))
#: An act that relaxes a safeguard.
RELAX = _c(_alt(
    r"\bskip", r"\bbypass", r"\bdisabl", r"\bturn(?:ed|ing|s)? off\b", r"\bignor", r"\boverrid", r"\bwaiv", r"\bsuspend", r"\bmute",
    r"\bsilenc", r"\bsuppress", r"\bwhitelist", r"\ballowlist", r"\bexempt",
    r"忽略", r"无视", r"不理", r"跳过", r"绕过", r"关闭", r"关掉", r"停用", r"禁用", r"豁免", r"省掉", r"省去", r"白名单", r"免检", r"免审",
))
#: An act that loosens whichever way it is said: a grant ("would rather not approve one by one" waives the approver's
#: check), a check deemed done, a rule declared void or optional, certificate checks switched off.
GRANT = _c(_alt(
    r"^anyone\b", r"\banyone (?:who|messaging|calling|asking|emailing)\b",
    r"\bapprov(?:e|es|ing)\b", r"\bauto-?approv", r"\ballow\b", r"\bgrant", r"\bdeem", r"\bcount (?:it|its|this|that)\b.{0,30}\bas\b",
    r"\b(?:is|are) (?:optional|a formality|fine|ok|okay)\b", r"\bunrestricted\b", r"\bno (?:limits|restrictions)\b",
    r"verify\s*(?:=|设成|设为|改成)\s*false", r"\s-k\b", r"--insecure", r"--no-verify", r"\bexempt",
    r"批准", r"批掉", r"直接批", r"通过", r"(?:点|一律|都|直接)同意", r"允许", r"视为", r"当作", r"当成", r"一律当", r"都当", r"就当", r"当(?:他|她|对方)", r"按官方", r"失效", r"作废",
    r"不受[^，。；]{0,12}(?:限制|约束)", r"豁免", r"加信任", r"关了", r"屏蔽", r"直接(?:给)?办",
))
#: An act that moves a secret or private material to someone.
EXPOSE = _c(_alt(
    r"\bpast(?:e|ed|es|ing)\b", r"\bpost(?:s|ed|ing)?\b", r"\bshar(?:e|es|ed|ing)\b", r"\bsen(?:d|ds|t|ding)\b", r"\bgiv(?:e|es|en|ing)\b",
    r"\bforward", r"\be-?mail(?:s|ed|ing)?\b", r"\bupload", r"\bdisclos", r"\breveal", r"\bleak", r"\bexpos", r"\bpublish",
    r"\bhand(?:s|ed|ing)? (?:out|over)\b", r"\bread (?:it |them )?out\b",
    r"发给", r"发到", r"发他", r"贴到", r"贴在", r"贴进", r"转发", r"外发", r"透露", r"告诉(?=.{0,6}(?:密码|验证码|密钥|口令))",
    r"给(?:他|她|对方|别人|任何人)", r"(?<=[要别])给", r"给$", r"公开", r"泄露", r"索要", r"上传", r"分享", r"外传",
))
#: A negated modal: the clause forbids its act or lifts its check.
NEG = _c(_alt(
    r"\bnever\b(?!-)", r"\bdon'?t\b", r"\bdo not\b", r"\bdoes(?:n'?t| not)\b", r"\bmust(?:n'?t| not)\b", r"\bshould(?:n'?t| not)\b",
    r"\bno\b(?! exceptions?\b)", r"\bnobody\b", r"\bwithout\b", r"\bcan(?:'?t|not)\b", r"\bnot\b", r"n't\b", r"\bno exceptions?\b", r"\bstop\b",
    r"不要", r"别", r"不得", r"禁止", r"严禁", r"不准", r"不许", r"不能", r"不可", r"绝不", r"切勿", r"勿", r"一律不", r"都不", r"不用",
    r"\binstead of\b", r"\brather than\b", r"无需", r"不必", r"免", r"未经", r"永远不", r"不(?!错|同|少|多|久|断|仅|但|过|管|论|如|然|好意)", r"没", r"无(?!论)",
))
#: An obligation: the clause orders its act.
OBLIGE = _c(_alt(
    r"\bmust\b", r"\balways\b", r"\bha(?:s|ve) to\b", r"\bneeds?\b", r"\brequired?\b", r"\brequires\b", r"\bshould\b", r"\bshall\b",
    r"\bmandatory\b", r"\bonly (?:after|with|once)\b", r"\bfirst\b", r"\bno exceptions?\b",
    r"^(?:please )?(?:call|get|ask|verify|confirm|escalate|treat|report|check|count|sign|encrypt|back up|file|log|refuse|decline|"
    r"double-?check|inspect|review|flag|export|take|make|run|keep|wait for)\b",
    r"必须", r"务必", r"一定要", r"要(?:有|先|经|等|走|找|让)", r"需要", r"须", r"得先", r"一律", r"都要", r"应当", r"应该", r"先", r"提前", r"^(?:请)?(?:上报|报警|核实|确认|登记)",
))
#: A sentence that states a rule: its present-tense clauses are obligations ("Rule at all our clinics: controlled drugs
#: get counted by two staff"), never a permission.
RULE = _c(_alt(r"\brules?\b", r"\bpolicy\b", r"\bprotocol\b", r"规矩", r"规定", r"规则", r"制度"))
#: A scope kept narrow, said positively: who alone may, where material stays.
CONTAIN = _c(_alt(
    r"\bstays? (?:within|inside|in) (?:the )?[\w -]{0,20}(?:team|office|practice|department|unit)\b", r"\bkeep (?:it|them) (?:out of|off)\b",
    r"\bonly [\w ,'-]{1,40}(?:ha(?:s|ve) (?:access|the key|keys)|can (?:open|access|enter|see))\b",
    r"只有[^，。；]{1,20}(?:有权限|有钥匙|能进|能看|可以进)", r"仅限[^，。；]{1,12}(?:内部|本人|使用)", r"不出[^，。；]{0,6}(?:组|部门|科室|团队)",
))
#: A permission: the clause lets its act happen (a check one may do is a grant, not an order).
PERMIT = _c(_alt(
    r"\bmay\b", r"\bcan\b", r"\bcould\b", r"\ballowed\b", r"\b(?:ok|okay|fine|free) to\b", r"可以", r"能", r"允许", r"随便", r"就行", r"就好",
))
#: A check put after the act ("先改再核实", "sort out discrepancies later"): the act goes first.
DEFERRED = _c(_alt(r"再(?:核实|补|审批|确认|核对|签)", r"事后", r"回头再", r"月底", r"\bat (?:the )?(?:month|week|year)[- ]end\b", r"\blater\b", r"\bafterwards\b", r"\bafter the fact\b"))
#: What an exposure forbidden protects: a secret or private data named in the sentence.
PRIVATE = _c(_alt(
    r"password", r"credential", r"api ?keys?", r"\bkeys?\b", r"\btokens?\b", r"secret", r"\bcodes?\b", r"\bpins?\b", r"\botp\b",
    r"patient", r"records", r"personal", r"customer data", r"client data", r"passport", r"\bids?\b", r"card", r"\bssn\b",
    r"密码", r"密钥", r"私钥", r"验证码", r"口令", r"个人信息", r"身份证", r"病历", r"资料", r"隐私", r"账号", r"卡号",
))
#: How far before an act a negation still scopes over it.
_SCOPE_EN, _SCOPE_ZH = 30, 8
#: A clause that sets the condition of another: an act before which, a request by someone else.
CONDITION = _c(_alt(
    r"^(?:before|prior to|when(?:ever)?|if|in case|any ?time|until|unless|even (?:if|on|for|when)|no exceptions?)\b",
    r"^(?:如果|若|遇到|万一|任何人|有人|谁|不管谁|无论谁|哪怕|即使|就算|即便)", r"(?:之前|以前)$",
))
#: Someone else's request, which a tightening clause of the same sentence answers ("if anyone asks you to skip ...").
REQUEST = _c(_alt(
    r"\b(?:asks?|asked|tells?|told|wants?|pushes|pressures?) (?:you|us|staff|anyone|them) to\b", r"\basks? (?:for|you for)\b",
    r"让你", r"要你", r"叫你", r"要求你", r"跟你要", r"向你要", r"找你要",
))
#: After a check: the checked act ("ask Dr. Haas *before sending patient records*").
_CHECKED_ACT = re.compile(r"\b(?:before|until|prior to|for (?:any|every|all|each))\b.*$|"
                          r"^[^，。；]{1,30}?(?:之前|以前)(?=$|[，,]|要|必须|先|得|务必|一定)", re.I)
#: A telling that moves a secret when the clause names one ("把管理员密码告诉来问的人"), a notification otherwise.
_TELL = re.compile(r"\btell\b|\binform\b|告诉|通知", re.I)
#: A payment ordered in the clause of a check ("should tell the user ... and pay the deposit"): the act, not the check.
_PAY_ACT = re.compile(r"\b(?:pay|wire|transfer|refund)\b|转账|付款|打款|汇款|退款")
#: A destination a check must not point at: an address, a link, a redacted value, a handle.
_DESTINATION = re.compile(r"@|https?://|www\.|\[REDACTED:|\[pii-|\b[\w-]+\.(?:com|net|org|io|cn|co)\b", re.I)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def _clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


def _negated(head: str, start: int) -> bool:
    """Does a negation end shortly before the act at ``start`` (its scope)?"""
    scope = _SCOPE_ZH if re.match(r"[\u3400-\u9fff]", head[start:start + 1]) else _SCOPE_EN
    return any(m.end() <= start and start - m.end() <= scope for m in NEG.finditer(head[:start]))


def clause_sign(clause: str, sentence: str = "") -> int:  # noqa: C901 - one sign per lexicon, read in order
    """+1 when the clause tightens (a check ordered, a relaxation or an exposure of private material forbidden), -1
    when it loosens, 0 when it moves nothing. ``sentence``: where a forbidden exposure's object may be named."""
    head = _CHECKED_ACT.sub(" ", clause)
    if DEFERRED.search(head):
        return -1
    if GRANT.search(head):
        return -1
    signs: list[int] = []
    for m in RELAX.finditer(head):
        signs.append(1 if _negated(head, m.start()) else -1)
    for m in EXPOSE.finditer(head):
        signs.append(1 if _negated(head, m.start()) and PRIVATE.search(sentence or clause) else -1)
    for m in CONTAIN.finditer(head):
        signs.append(-1 if _negated(head, m.start()) or _DESTINATION.search(head) else 1)
    obliged = bool(OBLIGE.search(head)) or bool(RULE.search(sentence or clause))
    relaxed = [m.start() for m in RELAX.finditer(head)]
    for m in CHECK.finditer(head):
        if any(r < m.start() for r in relaxed):
            continue
        if _TELL.fullmatch(m.group(0)) and PRIVATE.search(head):
            signs.append(1 if _negated(head, m.start()) else -1)  # a secret told: an exposure
            continue  # the check is what a relaxation acts on ("never skip the callback"): the relaxation's sign holds
        if _negated(head, m.start()) or PERMIT.search(head) or DESTRUCTIVE.search(head) or _PAY_ACT.search(head):
            signs.append(-1)
        elif obliged:
            signs.append(1)
    if not signs:
        return 0
    return -1 if min(signs) < 0 else 1


def tightens(normalised: str) -> bool:
    """Is the text a rule that only tightens a safeguard (see the module)?"""
    tight_clauses: list[str] = []
    answered: list[str] = []
    for sentence in _sentences(normalised):
        clauses = _clauses(sentence)
        signs = [clause_sign(c, sentence) for c in clauses]
        plus = [c for c, s in zip(clauses, signs, strict=True) if s > 0]
        if any(_DESTINATION.search(_CHECKED_ACT.sub(" ", c)) or EXPOSURE.search(c) for c in plus):
            return False
        for clause, sign in zip(clauses, signs, strict=True):
            if sign < 0:
                if not (plus and CONDITION.search(clause) and REQUEST.search(clause) and not _DESTINATION.search(clause)):
                    return False
                answered.append(clause)  # someone else's request, answered by the tightening clause
        for clause, sign in zip(clauses, signs, strict=True):
            if sign <= 0 and _at_stake(clause) and not (plus and CONDITION.search(clause)):
                return False  # something at stake that no tightening clause covers
        tight_clauses.extend(plus)
    if not tight_clauses:
        return False
    rest = normalised
    for clause in tight_clauses + answered:
        rest = rest.replace(clause, " ")
    return not loosens_stake(rest)
