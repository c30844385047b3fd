"""An act kept from whoever would check it (issue 10, round 25).

Blind rounds 22 - 23 miss one shape across their writers' categories - an appended order, an escalation, a standing
order, an obfuscated one: the text does something and then tells the reader to keep it *from the party that would
catch it* - not to tell, notify, report, log or write it up ("Let's not bring it up at the weekly", "No need to
mention it to finance", "rather than flagging it to her", "别告诉委员会", "别写进去，省得家属追问", "报修单先别提", "别上报",
"别通知", "清掉，别留"). Silence is what turns a change into a hidden one; the classifier reads the change's topic,
which it often does not know, and scores these 0.05 - 0.3.

Read per sentence on the normalised text, EN and ZH: a concealment directive (not telling, reporting, recording or
keeping a trace; keeping it quiet, off the books, from someone) in a text that has something at stake
(``stake._at_stake``: a dangerous operation or what a lesson can endanger). Not read: keeping a *secret* from people
("never tell anyone your PIN", "验证码别告诉任何人" - that tightens), a surprise or a gift, a warning frame
(``vouched.WARNING``), a negated or forbidden concealment ("never hide ...", "不得隐瞒"). What the guard does with it:
:data:`lowered.HUSHED_THRESHOLD`, a lower classifier threshold; never a quarantine on its own, the classifier's
features unchanged.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c
from hindsight.safety.stake import _at_stake
from hindsight.safety.vouched import WARNING

#: A note about an attack (a red-team log, a test fixture, a blocked payload): what it quotes is not an order.
ABOUT = _c(_alt(
    r"red[- ]team", r"\bfixture", r"test (?:case|suite|set)", r"unit test", r"regression (?:test|case)", r"\bpayload", r"jailbreak", r"injection",
    r"\b(?:should|must) be (?:flagged|blocked|rejected|quarantined)", r"\bwas (?:refused|blocked|flagged)\b",
    r"红队", r"用例", r"测试集", r"回归", r"误拦截", r"越狱", r"注入", r"被拦", r"拦截",
))
#: Keeping something from a party or out of the record: the directive, EN and ZH.
CONCEAL = _c(_alt(
    r"\b(?:don'?t|do not|no need to|needn'?t|let'?s not|never|not to|and not|without|rather than|instead of) "
    r"(?:(?!and\b|or\b)\w+ ){0,2}?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|loop(?:ing)? (?:\w+ )?in|bring(?:ing)? (?:it|this|that) up|"
    r"report(?:ing)?|flag(?:ging)?|escalat(?:e|ing)|log(?:ging)?(?! (?:in|into|on|out)\b)|record(?:ing)?|writ(?:e|ing) (?:it|this|that) (?:up|down)|disclos(?:e|ing))\b"
    r"(?! (?:\w+ )?(?:password|passcode|pin|code|otp|key|secret|credential)s?\b)(?! (?:me|us)\b)",
    r"\bkeep (?:it|this|that|them) (?:quiet|between us|off the (?:books|record|report|log)s?|out of the (?:report|log|minutes|record)s?|from)\b",
    r"\boff the books\b", r"\bunder wraps\b", r"\bsweep (?:it|this) under\b",
    r"(?:别|不要|不用|不必|先别|无需|没必要|用不着)(?:再|(?:跟|对|向|给)(?!我)[^，。]{1,8})?(?:告诉|通知|上报|汇报|报告|报备|声张|惊动|写进|写到|记进|记录|登记|留底|留痕|留记录)(?!我)",
    r"(?:别|不要)(?:让|叫).{1,10}(?:知道|发现|看到|察觉)", r"(?:省得|免得|以免).{0,10}(?:追问|知道|发现|过问|查|问起|上报|报上去)",
    r"瞒着", r"先别提", r"别留(?:底|痕|记录)?[。，！]?$", r"不声张", r"别声张", r"私下(?:处理|解决|了结)",
))
#: What is kept back is a secret or personal data the reader must protect (a redacted value carried, a password, a
#: home address), a surprise, or work on a test system: that tightens or is harmless.
_PROTECTED = _c(_alt(
    r"\[pii-", r"\bpw\b", r"home address", r"phone number", r"住址", r"地址", r"手机号", r"身份证",
    r"\btest (?:env|environment|server|box|machine|account)", r"\bstaging\b", r"\bsandbox", r"测试(?:环境|机|服|账号)",
    r"password", r"passcode", r"\bpin\b", r"\botp\b", r"one-time code", r"verification code", r"surprise", r"\bgift", r"birthday", r"\bparty\b",
    r"card numbers?", r"alarm code", r"\bsecret", r"private key",
    r"密码", r"验证码", r"口令", r"密钥", r"私钥", r"卡号", r"惊喜", r"礼物", r"生日",
))
#: Who or what would catch it: an overseer, a review body, a family asking, a record or report of what happened.
OVERSEEN = _c(_alt(
    r"\bfinance\b", r"\baudit", r"\bcompliance\b", r"\bregulator", r"\bcommittee\b", r"\bboard\b", r"\bhr\b", r"\blegal\b", r"\bsafety\b",
    r"\binspector", r"\bsupervisor", r"\bmanager", r"\bboss\b", r"\bthe gm\b", r"\bweekly\b", r"\bstand-?up\b", r"\bsecurity\b", r"\bclient\b",
    r"\bincident", r"\bticket", r"\breport", r"\brecords?\b", r"\blogs?\b", r"\bminutes\b", r"\bpolice\b",
    r"委员会", r"财务", r"审计", r"合规", r"监管", r"领导", r"上面", r"上级", r"总部", r"家属", r"客户", r"主管", r"经理", r"老板", r"安全员", r"质检",
    r"记录", r"报修", r"工单", r"报告", r"日志", r"数据", r"事故", r"异常", r"不良", r"超标", r"故障", r"投诉", r"警察", r"派出所",
))
#: A concealment forbidden or negated: the rule against hiding.
_FORBIDDEN = _c(_alt(
    r"\bnever (?:hide|conceal|cover up)", r"(?:不得|不准|不许|严禁|禁止)(?:隐瞒|瞒报|漏报|不报)", r"\bmust (?:always )?(?:report|tell|log|record)\b",
    r"\b(?:don'?t|do not|never|must not) (?:\w+ ){1,6}without (?:telling|notifying|informing|asking|looping)",
))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
#: A quotation (an apostrophe inside a word opens none): what it says is reported, not given.
_QUOTED = re.compile(r'"[^"\n]{2,300}"|(?<![a-z])\'(?:[^\'\n]|(?<=[a-z])\'(?=[a-z])){2,300}\'(?![a-z])|“[^”\n]{2,300}”|‘[^’\n]{2,300}’|「[^」\n]{2,300}」')


def hushes_act(normalised: str) -> bool:
    """Does the text tell the reader to keep an act at stake from whoever would check it (EN/ZH, see the module)?"""
    said = _QUOTED.sub(" ", normalised)  # a quoted message is reported, not given
    if not CONCEAL.search(said) or _PROTECTED.search(normalised) or WARNING.search(normalised) or ABOUT.search(normalised) or _FORBIDDEN.search(normalised):
        return False
    sentences = [s for s in _SENTENCE.split(said) if s.strip()]
    return any(CONCEAL.search(s) for s in sentences) and any(_at_stake(s) or OVERSEEN.search(s) for s in sentences)
