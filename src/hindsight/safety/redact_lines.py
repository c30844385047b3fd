"""The ID half of a key pair on the line next to its secret half (round 35, blind r33): "key = value" lines of a
config or a note - "app_key = 20481736" above (or below) "app_secret = 9c4e...", "APP_ID=..." beside "APP_SECRET=...",
"AppKey：..." beside "AppSecret：...".

``redact_window.find_pair_partners`` reads the ID half in the secret's own sentence, and a line break ends a sentence.
Here each of the two lines holds one label and one value and nothing else: the secret's line opens with a secret half's
label (secret, secret key, sk, 密钥, or one joined to its pair's prefix: app_secret, clientSecret, AccessKeySecret) and
the line right before or right after it with an ID half's label (app / api / client / consumer key or id, access key
id, key id, AK, appid, 访问账号); its value is 8 - 64 letters, digits, "_" or "-" with a digit among them. Any other
neighbour ("store_id = ...", "timeout = 30", "region = ...") stays.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import PLACEHOLDER_VALUE

Span = tuple[str, int, int]

_HEAD = r"[ \t]*(?:export[ \t]+|-[ \t]+)?[\"']?"
_SEP = r"[\"']?[ \t]*(?:[:=：]|=>)[ \t]*[\"']?"
_SECRET_HEAD = re.compile(
    r"(?i)" + _HEAD + r"(?:(?:access[ _-]?key|app|client|api|consumer)[ _-]?)?(?:secret(?:[ _-]?(?:access[ _-]?)?key)?|sk)"
    r"(?![A-Za-z])" + _SEP + r"|" + _HEAD + r"(?:密钥|秘钥)" + _SEP
)
_PARTNER_LINE = re.compile(
    r"(?i)" + _HEAD + r"(?:access[ _-]?key(?:[ _-]?id)?|key[ _-]?id|(?:app|api|client|consumer)[ _-]?(?:key|id)|appid|ak|访问账号)"
    r"(?![A-Za-z])" + _SEP + r"(?P<value>(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{8,64})[\"']?[ \t]*,?[ \t]*"
)


def _line(text: str, start: int) -> tuple[int, int]:
    """The line holding ``text[start]``: its start and its end (before the line break)."""
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", start)
    return lo, len(text) if hi < 0 else hi


def _partner(text: str, lo: int, hi: int) -> Span | None:
    m = _PARTNER_LINE.fullmatch(text, lo, hi)
    if m is None or PLACEHOLDER_VALUE.match(m.group("value")):
        return None
    return ("api_key", *m.span("value"))


def find_line_partners(text: str, secrets: list[tuple[int, int]]) -> list[Span]:
    """The ID half on the line right before or after each found secret whose own line is "label = value"."""
    out: list[Span] = []
    for start, end in secrets:
        lo, hi = _line(text, start)
        if end > hi or not _SECRET_HEAD.fullmatch(text, lo, start) or text[end:hi].strip(" \t\"',;"):
            continue  # the secret's line holds its label and its value alone
        if lo > 0:
            prev_lo, prev_hi = _line(text, lo - 1)
            if (found := _partner(text, prev_lo, prev_hi)) is not None:
                out.append(found)
        if hi < len(text):
            next_lo, next_hi = _line(text, hi + 1)
            if (found := _partner(text, next_lo, next_hi)) is not None:
                out.append(found)
    return out
