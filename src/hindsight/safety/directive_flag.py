"""Read-time flag: does a stored memory read like a directive about permissions or safety? (moved out of
:mod:`guard` in round 20; the write guard re-exports both functions).

Broader than the write guard on purpose: a memory that survived the write screen (or predates it) but still says
"you may skip approval for X" is shown to the agent as a claim to verify, not as an order.
"""

from __future__ import annotations

import re

from hindsight.safety.normalize import prepare
from hindsight.safety.rules import NEGATED_ACTION, PROHIBITED, STANDING, _alt, _c, match_rules

# --------------------------------------------------------------------------- read time

_DIRECTIVE_CUE = _c(
    _alt(
        STANDING,
        r"\bmust\b",
        r"\bshould\b",
        r"\byou (?:can|may|are allowed|are permitted|are authori[sz]ed)",
        r"\bno need\b",
        r"\b(?:is|are) (?:now )?(?:allowed|permitted|authori[sz]ed|free|cleared) to",
        r"don'?t need",
        r"\bwithout\b",
        r"\bskip\b",
        r"\bbypass\b",
        r"\bdisable\b",
        r"turn off",
        r"auto[- ]?approv",
        r"\bgrant",
        r"可以",
        r"必须",
        r"应该",
        r"不用",
        r"不需要",
        r"无需",
        r"直接",
        r"跳过",
        r"绕过",
        r"关闭",
        r"禁用",
        r"授予",
        r"自动",
    )
)
_PERMISSION_TOPIC = _c(
    _alt(
        r"confirm",
        r"approv",
        r"permission",
        r"\baccess\b",
        r"\badmin",
        r"\broot\b",
        r"\bsudo\b",
        r"credential",
        r"password",
        r"\bsecrets?\b",
        r"\btokens?\b",
        r"api ?keys?",
        r"\bdelet",
        r"\bdrop\b",
        r"\bdeploy",
        r"\btransfer",
        r"\bpayment",
        r"\baudit",
        r"\blogging\b",
        r"security",
        r"safety",
        r"firewall",
        r"\b2fa\b",
        r"sandbox",
        r"privilege",
        r"确认",
        r"审批",
        r"权限",
        r"管理员",
        r"密码",
        r"密钥",
        r"令牌",
        r"删除",
        r"部署",
        r"转账",
        r"支付",
        r"付款",
        r"审计",
        r"日志",
        r"安全",
        r"防火墙",
        r"验证",
        r"沙箱",
        r"授权",
    )
)
_LOOSENING = _c(
    _alt(
        r"\bno need\b",
        r"don'?t need",
        r"do not need",
        r"\bwithout\b",
        r"\bskip",
        r"\bbypass",
        r"\bdisabl",
        r"turn off",
        r"auto[- ]?approv",
        r"(?:allowed|permitted|authori[sz]ed|free) to",
        r"\byou (?:can|may)\b",
        r"\bgrant",
        r"\bgive\b",
        r"\bignore",
        r"\bnever ask",
        r"don'?t ask",
        r"\bno longer\b",
        r"\bnot required\b",
        r"\bunnecessary\b",
        r"\bsend\b",
        r"\bforward\b",
        r"\bshare\b",
        r"不需要",
        r"无需",
        r"不用",
        r"不必",
        r"跳过",
        r"绕过",
        r"关闭",
        r"禁用",
        r"自动批准",
        r"可以直接",
        r"直接",
        r"授予",
        r"给",
        r"忽略",
        r"发送",
        r"发到",
        r"转发",
        r"分享",
    )
)
_STRENGTHENING = _c(_alt(NEGATED_ACTION, PROHIBITED))
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")


def flag_directive(text: str) -> bool:
    """Read-time flag: does this memory read like a directive about permissions or safety?

    Broader than the write guard on purpose. A memory that survived the write
    screen (or predates it) but still says "you may skip approval for X" should
    be shown to the agent as a claim to verify, not as an order. Memories that
    only *strengthen* a safeguard ("never delete without asking") are not flagged.
    """
    if not text or not text.strip():
        return False
    prepared = prepare(text)
    if match_rules(prepared.text):
        return True
    for sentence in _SENTENCES.split(prepared.text):
        if (
            _DIRECTIVE_CUE.search(sentence)
            and _PERMISSION_TOPIC.search(sentence)
            and _LOOSENING.search(sentence)
            and not _STRENGTHENING.search(sentence)
        ):
            return True
    return False


def mentions_permission_topic(text: str) -> bool:
    """Does the text talk about permissions, confirmation or safety checks at all (either direction)?"""
    return bool(text and _PERMISSION_TOPIC.search(prepare(text).text))
