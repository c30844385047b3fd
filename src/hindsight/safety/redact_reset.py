"""A secret given as the new state of a login or password that was just reset (redaction round 45, issue 10).

People announce the reset first and give the value in the next sentence with no password word before it: "I reset the
login for the cryo tank monitor. It's embryo-Safe-4471 now.", "changed the wifi password again - it's now Tern#2290",
"重置了后台的登录密码，现在是 Lab_2290x". ``redact_shapes`` reads "password was reset, it's now X" (the noun first, the
value in the same sentence); here the verb may come first ("reset the login"), and the value may follow in the next
sentence, as "it's X now" / "it is now X" / "the new one is X" / 现在是 / 新的是.

The value must look like a chosen secret (``redact_shapes.secret_shaped``: letters with digits or symbols, not a
version, a time, a path or an email), so "It's working now" and "It's v2.3 now" stay. Every pattern has bounded gaps.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_shapes import secret_shaped

Span = tuple[str, int, int]

_NOUN = r"(?:login|log-?in|password|passcode|passphrase|pin|pw|pwd|sign-?in)"
_RESET = (
    r"(?i)(?:\b(?:reset|re-?set|changed|rotated|updated)\s+(?:the\s+|my\s+|our\s+|your\s+|his\s+|her\s+|their\s+|its\s+)?"
    r"(?:[\w'-]+\s+){0,2}?" + _NOUN + r"\b|\b" + _NOUN + r"\s+(?:was|has\s+been|got|is)\s+(?:just\s+)?(?:reset|changed|rotated|updated)\b)"
)
# The rest of the sentence, then a sentence break or a clause break, then the value told as what "it" is now.
_TOLD = (
    r"[^\n.;!?]{0,80}?(?:[.;!?]\s+|\s*[,—–:]\s*|\s+-\s+|\s+and\s+)(?:(?:so|and|now)\s+)?"
    r"(?:it'?s|it\s+is|the\s+new\s+one\s+is|new\s+one'?s|new\s+one\s+is)\s+(?:now\s+)?[\"'“(]?"
)
_VALUE = r"(?P<value>[^\s\"'”,;()]{6,40}?)[\"'”)]?(?=(?:\s+now\b)?(?:[\s,;!?)]|[.](?:\s|$)|$))"
_RESET_TOLD = re.compile(_RESET + _TOLD + _VALUE)
_RESET_ZH = re.compile(
    r"(?:(?:重置|重设|修改|更新|改|换)了?(?:一下)?[\u4e00-\u9fff]{0,10}?(?:登录|密码|口令)|(?:登录|密码|口令)[\u4e00-\u9fff]{0,6}?"
    r"(?:重置|重设|修改|更新|改|换)了)[^\n。；！？]{0,40}?[，,。；;]\s*(?:现在|新的|目前)(?:的)?(?:是|为|改成了?|变成了?)\s*[\"'“]?"
    r"(?P<value>[!-~]{4,32}?)(?=[\"'”]?(?:[\s，。；、,;!?！？)）]|$|[\u4e00-\u9fff]))"
)


def find_reset_values(text: str) -> list[Span]:
    """A password-shaped value told as what a login / password is now, after the sentence that reset it."""
    out: list[Span] = []
    for pattern in (_RESET_TOLD, _RESET_ZH):
        for m in pattern.finditer(text):
            value = m.group("value").rstrip(".")
            if secret_shaped(value, 6):
                out.append(("password", m.start("value"), m.start("value") + len(value)))
    return out
