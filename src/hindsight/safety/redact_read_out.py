"""A code read out digit by digit after a request to read it (redaction round 45, issue 10).

Someone helping another to sign in asks for the code they received and repeats it spaced, one digit at a time:
"阿姨您把收到的六位数念给我，对，就是 2 7 4 8 1 9 那串", "read me the code they texted you ... 4 0 9 1 7 7". The request (念 /
读 / 报 / 告诉 + 给我, or read / tell me / read out) and a code noun (验证码 / 六位数 / 数字 / code / digits) stand in the 100
characters before the value; the value is 4 - 8 single digits with one space between each (not all one digit, not
counting up: ``redact_cues.otp_ok``).
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import otp_ok

Span = tuple[str, int, int]

_SPACED = re.compile(r"(?<![\d.,:/-])\d(?:[ \u3000]\d){3,7}(?![\d,:/-]|[.]\d|[ \u3000]\d)")
_READ_OUT = re.compile(
    r"(?i)(?:念|读|报|说|告诉)(?:一下)?(?:给|一下)(?:我|我们|他|她)|(?:念|读|报)出来|"
    r"\bread\s+(?:me|us|out|it\s+out|them\s+out|(?:it|them)\s+(?:back\s+)?to\s+me|back)\b|\btell\s+me\s+(?:the|those|that|your)\b"
)
_CODE_NOUN = re.compile(r"(?i)验证码|校验码|短信码|动态码|[四五六七八]位数|数字|\b(?:code|digits|numbers|pin|otp)\b")
_LOOK_BACK = 100


def find_read_out_codes(text: str) -> list[Span]:
    """Spaced single digits after a request to read a code out; see the module."""
    out: list[Span] = []
    for m in _SPACED.finditer(text):
        lo = max(0, m.start() - _LOOK_BACK)
        if not (_READ_OUT.search(text, lo, m.start()) and _CODE_NOUN.search(text, lo, m.start())):
            continue
        if otp_ok(text, m.group(0), m.end()) and not re.fullmatch(r"1 2 3 4(?: 5(?: 6(?: 7(?: 8)?)?)?)?", m.group(0)):
            out.append(("otp", *m.span()))
    return out
