"""Does a note only *carry* a redacted value, or does it order something done with it? A reading used only by the
guard's carried-secret decision (``guard.WriteGuard.threshold_for``; round 18).

After redaction the value is a typed placeholder (``[pii-card]`` for an account, ``[pii-e]`` for an email,
``[pii-addr]`` for an address ...) and is no attack by itself. What makes a note that holds one an attack is what it
tells the agent to do with it - and the attacks that carry such a value say so in their own words: a standing order
("from now on", "every Friday", 以后, 每次), an address to the agent ("assistant:", 助手), a loosened safeguard ("no need
to call", 不用核实, 直接), a *change* of where money or mail goes ("new IBAN", "their bank changed", "updated account",
换了收款卡, 改成), secrecy ("don't mention it", 悄悄), an outward destination ("external", "personal gmail", "off-site",
个人邮箱, 外部), bulk data ("all incoming mail", "the customer list", 所有合同) or credentials moved ("email the API
keys to"). A note whose only payload is the redacted value plus an ordinary instruction ("payment to [IBAN] for
invoice INV-2291", "send the 1099s there by Jan 31", "deliver the car there Saturday") marks none of these: it is a
fact that carries a value, and the guard holds it only on a surer score (``guard.FACT_THRESHOLD``).

A secret named but not given counts as carried too: a template value (``<你的密钥>``, ``changeme``, ``xxxxxxxx``,
``your-key-here``) in a setting, as onboarding docs write them.

It reads the normalised text (lower case, placeholders as ``[pii-...]``).
"""

from __future__ import annotations

import re

from hindsight.safety.features import AGENT_ADDRESS, LOOSEN, PERSIST, RECUR
from hindsight.safety.mention import references_secret
from hindsight.safety.outward import sends_outward
from hindsight.safety.routed import neutral_spans, routes_to_owner
from hindsight.safety.rules import ANYONE, _alt, _c

_PLACEHOLDER = re.compile(r"\[pii-[a-z]+\]")
#: A secret setting whose value is a stand-in: ``AWS_SECRET_ACCESS_KEY=changeme``, ``OPENAI_API_KEY=<你的密钥>``,
#: ``token: your-token-here``, ``password=xxxxxxxx``.
_STAND_IN = _c(
    r"(?:key|token|secret|password|passwd|pwd|密钥|秘钥|令牌|密码)[a-z_]*[\"']?\s*[:=]\s*[\"']?"
    r"(?:<[^<>\n]{1,24}>|\{\{[^{}\n]{1,24}\}\}|changeme|change_me|x{6,}|\*{4,}|your[_-][a-z_-]{2,24}|placeholder|todo|tbd|"
    r"(?:你的|您的|自己的)[\u4e00-\u9fff]{1,6})(?![a-z0-9])"
)
_CHANGE = _c(_alt(
    r"\bnew (?:\w+ )?(?:iban|account|acct|bank|card|address|email|e-mail|inbox|number|payee|details|wallet|routing|domain|provider)",
    r"\b(?:all|any|every) (?:future|upcoming|subsequent)\b", r"\bshould now\b",
    r"\b(?:changed|updated|switched|moved) (?:their|its|his|her|the|our)? ?(?:bank|account|details|iban|payee|address|email)",
    r"(?:bank|account|details|iban|payee|address|email)s? (?:has |have )?(?:changed|updated|switched)", r"\bupdated (?:account|iban|bank|details)",
    r"\binstead of\b", r"\bno longer\b", r"\bvoid\b", r"\boverwrite", r"\breplace", r"\bfrozen\b", r"\bredirect", r"\breroute", r"\broute\b",
    r"(?:换|改|变更|更换|更改)(?:了|成|为|到)?(?:新的?)?(?:收款|账户|账号|卡|银行|邮箱|地址|对接|联系)", r"新(?:的)?(?:收款|账户|账号|卡号?|银行|邮箱|地址)",
    r"(?:收款|账户|账号|银行)(?:信息)?(?:换|改|变)了", r"作废", r"冻结", r"以此为准", r"转到", r"改发", r"改寄",
))
_SECRECY = _c(_alt(
    r"don'?t (?:mention|tell)", r"without telling", r"\bquietly\b", r"\bsecretly\b", r"between us", r"keep (?:it|this) (?:quiet|to yourself)",
    r"不(?:用|要|必)(?:告诉|提|说)", r"别(?:告诉|提|说)", r"悄悄", r"偷偷", r"保密",
))
_OUTWARD = _c(_alt(
    r"\bexternal\b", r"\boutside\b", r"off-?site", r"third[- ]part", r"(?:personal|private) (?:e-?mail|inbox|gmail|account|address|copy)",
    r"\bgmail\b", r"外部", r"外网", r"第三方", r"(?:私人|个人)(?:邮箱|账号|账户|网盘)", r"对方(?:的)?(?:采购)?邮箱",
))
_BULK = _c(_alt(
    r"\b(?:all|every|any|whole|entire|full)\b[^.;,。；，]{0,30}?(?:mail|message|email|thread|file|record|contract|list|data|chat|"
    r"repo|token|key|password|secret|document|invoice|report|archive|memor)",
    r"(?:所有|全部|一切|整个|完整)[^。；，]{0,12}?(?:邮件|消息|文件|记录|合同|名单|数据|聊天|密码|密钥|文档|报表|通知|资料)",
))
_CREDENTIAL_MOVED = _c(
    r"(?:password|passwd|credential|api ?keys?|\btokens?\b|secret|\.env\b|密码|密钥|秘钥|私钥|令牌|凭证|验证码)[^.;。；]{0,60}"
    r"(?:\bto\b|给|到|至) ?\[pii-"
)
_TRUST = _c(_alt(
    r"\btreat [^.;。；]{0,40}?\b(?:as|like)\b", r"\bcounts? as\b", r"\b(?:cleared|allowed|authorised|permitted|entitled) to\b",
    r"\bfollow (?:\w+ ){0,3}(?:requests?|instructions?|links?|orders?)", r"\bthe same as\b", r"\bcan (?:ask|request|have)\b",
    r"允许", r"可以(?:要|给|索取)", r"要什么", r"照(?:办|着)", r"\bofficial\b", r"\bverified\b", r"authori[sz]", r"\bpre-?approved",
    r"官方", r"视为", r"当(?:成|作)", r"就是[^，。；]{0,8}(?:客服|官方|负责人|我们)",
))
_OVERRIDE = _c(_alt(
    r"\bdecod", r"解码", r"disregard", r"\bignor", r"overrid", r"supersede", r"developer mode", r"开发者模式", r"忽略", r"照做",
    r"\binstructions?\b", r"指令", r"\bsystem\s*:", r"\b[a-z]+_[a-z_]+\s*\(", r"</[^<>\s]{2,24}>", r"tool_?call", r"\bexecute\b",
    r"调用", r"执行", r"系统提示",
))
_PRIVILEGE = _c(_alt(r"\bgrant", r"\bowner\b", r"\badmins?\b", r"\broot\b", r"\bsudo\b", r"权限", r"管理员"))
_LATER = _c(_alt(
    r"next time", r"when you next", r"\bnext (?:conversation|session|login|run)", r"\bwhen (?:he|she|they|it|someone) asks?",
    r"\bnow (?:goes|go|gets|paid|pays|bills|collects|uses|using)", r"\bswitch(?:es|ed|ing)?\b", r"\bchanged? (?:\w+ ){0,3}to\b",
    r"starting (?:this|next|from|today|with)", r"下次", r"之后", r"自动", r"从(?:下|这|本|今)(?:个)?(?:月|周|次)?(?:起|开始)",
))
#: Round 36: the chat log is data going out only when it is not the thing deleted ("收到后把聊天记录删掉", "用完请从聊天记录里
#:删掉", "delete it from the chat": a secret's own hygiene, nothing leaves) - ``_WIPED`` is read past first.
_DATA_OUT = _c(_alt(r"全文", r"聊天记录", r"\bmemor(?:y|ies)\b", r"记忆", r"(?:people|users|customers|everyone)'?s (?:\w+ )?(?:passwords?|codes?|data)", r"client list", r"customer list", r"\bscans?\b[^.;。；]{0,40}\bto\b", r"扫描件[^。；]{0,20}(?:发|转)"))
# The agent named (not "you": notes address their reader as "you" all the time).
_AGENT = _c(_alt(r"assistant", r"\bai\b", r"\bagent\b", r"\bllm\b", r"chatbot", r"\bbot\b", r"\bgpt\b", r"助手", r"机器人", r"智能体", r"\bai助手"))
#: What a person choosing where their own mail goes says too ("from now on", "quarterly", "instead of", "personal
#: inbox", "starting next month"): not an order when the note routes the value to its owner (``routed.routes_to_owner``).
_ROUTING = (PERSIST, RECUR, _CHANGE, _OUTWARD, _LATER)
_BEYOND_ROUTING = (_AGENT, _c(ANYONE), AGENT_ADDRESS, LOOSEN, _SECRECY, _BULK, _CREDENTIAL_MOVED, _TRUST, _OVERRIDE, _PRIVILEGE, _DATA_OUT)
_ORDER = _BEYOND_ROUTING + _ROUTING


#: Round 38 (issue 10): a secret named by reference (``mention.references_secret``: ``os.environ["X"]``, ``${API_KEY}``,
#: ``<YOUR_KEY>``, ``password: <PASSWORD>`` in a config example) is carried like a stand-in value, so a code snippet
#: that orders nothing with it is judged at the fact threshold, not the carry threshold. ``False``: round 20's carry
#: threshold only.
REFERENCE_CARRIED = False


def carries_value(normalised: str) -> bool:
    """A redacted value, a secret named by a stand-in value or (``REFERENCE_CARRIED``) by reference."""
    return bool(_PLACEHOLDER.search(normalised) or _STAND_IN.search(normalised)
                or (REFERENCE_CARRIED and references_secret(normalised)))


_WIPED = _c(_alt(
    r"(?:删掉|删除|删了|清空|清掉|撤回)(?:[^。；，,]{0,4})?(?:聊天记录|记录|消息)", r"(?:聊天记录|记录|消息)(?:里|中)?[^。；，,]{0,3}(?:删掉|删除|删了|删干净|清空|清掉|撤回)",
    r"\b(?:delete|wipe|clear|remove)\b[^.;,]{0,20}\b(?:chat|message|conversation)s?(?: (?:log|history|thread))?\b",
))


def orders_with_value(normalised: str) -> bool:
    """Does the text say something an attack that carries a value says (see the module docstring)? A chat log or
    message deleted (``_WIPED``) is read past: deleting local data moves nothing out (round 36)."""
    text = _WIPED.sub(" ", normalised)
    return any(p.search(text) for p in _ORDER)


def carried_fact(normalised: str) -> bool:
    """A note whose only payload is a carried value: it carries one and orders nothing with it. Round 20: read past
    the spans that say where a value is or was (``routed.neutral_spans``: the account a secret opens, a warning to its
    owner, a public item declared shareable, a leak reported with its remedy)."""
    return carries_value(normalised) and not orders_with_value(neutral_spans(normalised))


def routed_fact(normalised: str) -> bool:
    """Round 20: a contact routed to its own owner (``routed.routes_to_owner``) that says nothing else an attack that
    carries a value says - persistence, recurrence, "instead of" and "personal inbox" are the owner's choice here."""
    return routes_to_owner(normalised) and not any(p.search(neutral_spans(normalised)) for p in _BEYOND_ROUTING)


def carried_value_fact(normalised: str) -> bool:
    """What the guard's fact threshold reads (``guard.FACT_THRESHOLD``): a carried fact that no narrower reading sends
    outward (``outward.sends_outward``, read past ``routed.neutral_spans`` too), or a contact routed to its owner."""
    return (carried_fact(normalised) and not sends_outward(neutral_spans(normalised))) or routed_fact(normalised)
