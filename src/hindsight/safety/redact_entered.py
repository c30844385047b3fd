"""A code told to be entered somewhere, with no code word before it (redaction round 44, blind r39).

A login approval or a sign-in prompt gives its one-time code as an instruction: "enter 19 04 77 in the app", "type
482 913 into the authenticator prompt", "在App里输入 19 04 77", "输入 482913 到验证器". The verb (enter / type / key in /
input / punch in / 输入) and the place the code goes (an app, an authenticator, a prompt, a login / sign-in /
verification page; App / 应用 / 验证器 / 登录页) stand on either side of the value, so no code noun is needed; a sign-in's words stand near it (log in, approval, verify, 2FA, code; 登录, 验证). The value is
digits, whole or in groups of two to four, and must pass :func:`redact_cues.otp_ok` (four digits at least, not
"123456", not a quantity or a year). Two anchored patterns with bounded gaps: linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import declared_invalid, otp_ok

Span = tuple[str, int, int]

_VALUE = r"(?P<value>\d{2,4}(?:[ -]\d{2,4}){1,3}|\d{4,8})(?![A-Za-z0-9_-]|[.,]\d)"
_PLACE_EN = r"(?:app|authenticator|prompt|(?:login|log-in|sign-?in|verification|2fa|mfa)\s+(?:page|screen|prompt|box|field))\b"
_ENTER_EN = re.compile(
    r"(?i)\b(?:enter|type|key\s+in|input|punch\s+in|tap\s+in)\s+" + _VALUE
    + r"\s+(?:in|into|on|at)\s+(?:the\s+|your\s+|my\s+|his\s+|her\s+|their\s+|our\s+)?(?:[A-Za-z-]{2,16}\s+){0,2}?" + _PLACE_EN
)
_PLACE_ZH = r"(?:App|APP|app|应用|验证器|登录页|登录框|验证框)"
_ENTER_ZH = re.compile(
    r"(?:在|到)[^\n，。,；;]{0,12}?" + _PLACE_ZH + r"[里上中内]?\s*(?:输入|填入|填写)\s*" + _VALUE
    + r"|(?:输入|填入|填写)\s*" + _VALUE.replace("value", "value2") + r"\s*(?:到|进)[^\n，。,；;]{0,10}?" + _PLACE_ZH
)

# A sign-in's words near the instruction (96 characters before, 60 after): a number entered in an app for any other
# purpose ("enter 5000 in the app as your budget") is none.
_SIGN_IN = re.compile(r"(?i)\b(?:log-?in|log\s+in|sign-?in|sign\s+in|approv\w*|verif\w*|2fa|mfa|otp|authenticat\w*|"
                      r"one[- ]time|code|passcode)\b|登录|登陆|验证|认证|审批|授权")


def find_entered_codes(text: str) -> list[Span]:
    """Codes an instruction says to enter into an app, a prompt or a page; see the module."""
    out: list[Span] = []
    for pattern in (_ENTER_EN, _ENTER_ZH):
        for m in pattern.finditer(text):
            group = "value" if m.group("value") else "value2"
            start, end = m.span(group)
            if (otp_ok(text, m.group(group), end) and not declared_invalid(text, start, end)
                    and (_SIGN_IN.search(text, max(0, start - 96), start) or _SIGN_IN.search(text, end, end + 60))):
                out.append(("otp", start, end))
    return out
