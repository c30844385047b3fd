"""Labels and values paired in order: "X and Y are A and B respectively", "X、Y分别为A、B" (redaction round 33, issue 10).

A writer who names two credentials jointly gives their values jointly: "the access key and secret key are A and B
respectively", "AccessKey和SecretKey分别是A和B", "the PIN and PUK are 4827 and 7301 8462, respectively", "用户名和密码分别是
deploy和X". The finders that read a value right after its own label see only the last label before the first value, so
the first value was read as the second label's (or not at all). Here the labels and the values are split on their list
words (and / , / & / 和 / 、 / 及 / 与) and paired from the end of the label list (the words before it are the
sentence's, not labels), and each value takes its own label's verdict:

- a password's label (password, passcode, PIN, PUK, 密码, 口令): a password-shaped value (``redact_replaced.written_password``)
  or 4-12 digits is a password;
- a key's label (access / secret / API / app key, secret, token, AK / SK, 密钥, 令牌): a value of eight characters or more
  with letters and digits is a key;
- a one-time code's label (verification / SMS / one-time code, 验证码, 动态码): a code-shaped value is a code;
- an account's or a service's name (user name, login, host, port, region, bucket, endpoint, 用户名, 主机, 端口): the value
  stays (kind ``public``), but only beside a secret of the same list - the list is a login, and its name is no secret.

A label with no noun of its own shares the next one's ("the admin and guest passwords", "门锁和保险柜的密码"). In English
the head noun comes before "for / of / on ..." ("the PUK for the new SIM"). The pairing cue is required (respectively,
分别); a list without it is left to the other readings. Every pattern is anchored and bounded: linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_replaced import written_password
from hindsight.safety.redact_roles import code_shaped

Span = tuple[str, int, int]

_V = r"[\"'“‘`]?[^\s,，、;；。()（）\[\]<>\"'”’`\u4e00-\u9fff]{2,64}[\"'”’`]?"
_SEP_EN = r"(?:\s*,?\s*(?:and|&)\s+|\s*,\s*)"
_SEP_ZH = r"\s*(?:以及|和|、|及|与|/)\s*"
# "... are A and B respectively", "... were: A, B and C, respectively"
_EN_AFTER = re.compile(r"(?i)\s(?:are|were)\s*[:：]?\s+(?P<vals>" + _V + r"(?:" + _SEP_EN + _V + r"){1,7}?)\s*,?\s*\brespectively\b")
# "... are respectively A and B", "..., respectively: A and B"
_EN_BEFORE = re.compile(r"(?i)(?:\s(?:are|were))?\s*,?\s*\brespectively\b\s*[:：,]?\s*(?P<vals>" + _V + r"(?:" + _SEP_EN + _V + r"){1,7})")
_ZH = re.compile(r"分别(?:是|为|设为|设置为|设成|改成|改为|更新为|：|:)\s*(?P<vals>" + _V + r"(?:" + _SEP_ZH + _V + r"){1,7})")
_LABEL_REGION_END = re.compile(r"[。！？；;:：\n，]|[.!?,](?=\s)")
_ITEM_SEP = re.compile(r"(?i)\s*(?:,\s*and\s+|,\s*|\s+and\s+|\s*&\s*|以及|和|、|及|与)\s*")
_HEAD_END = re.compile(r"(?i)\s(?:for|of|on|in|at|to|from|with)\s")

_A = r"(?<![A-Za-z])"
_Z = r"(?![A-Za-z])"
_NOUNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("password", re.compile(r"(?i)" + _A + r"(?:pass(?:word|code|phrase)s?|passwd|pwd|(?-i:PIN|PUK)s?|(?:pin|puk)\s+(?:codes?|numbers?))" + _Z
                            + r"|密码|口令|(?-i:PIN|PUK)码")),
    ("api_key", re.compile(r"(?i)" + _A + r"(?:(?:access|secret|api|app|private|signing|client|master|encryption)[ _-]?(?:keys?|secrets?)(?:[ _-]?ids?)?|"
                           r"(?:api|auth|access|refresh|bearer)?[ _-]?tokens?|secrets?|(?-i:AK|SK))" + _Z + r"|密钥|秘钥|私钥|令牌")),
    ("otp", re.compile(r"(?i)" + _A + r"(?:verification|one[- ]time|sms|login|2fa|mfa|otp|backup|recovery)\s+codes?" + _Z
                       + r"|验证码|动态码|短信码|恢复码|备用码")),
    ("public", re.compile(r"(?i)" + _A + r"(?:user\s?names?|users?|logins?|account\s+names?|host(?:name)?s?|ports?|regions?|buckets?|"
                          r"endpoints?|domains?)" + _Z + r"|用户名|账户名|账号名|登录名|主机名?|端口|地域|区域|域名")),
)


def _label_kind(item: str) -> str | None:
    """The verdict of one label: its head noun's kind (the last noun; in English the one before "for / of ...")."""
    head = _HEAD_END.split(item, maxsplit=1)[0]
    best: tuple[int, str] | None = None
    for kind, pattern in _NOUNS:
        for m in pattern.finditer(head):
            if best is None or m.start() >= best[0]:
                best = (m.start(), kind)
    return best[1] if best else None


def _values(text: str, start: int, end: int, zh: bool) -> list[tuple[int, int]]:
    sep = re.compile(_SEP_ZH if zh else _SEP_EN)
    out: list[tuple[int, int]] = []
    pos = start
    for part in sep.split(text[start:end]):
        at = text.index(part, pos)
        pos = at + len(part)
        lo, hi = at, at + len(part)
        while hi > lo and text[hi - 1] in "\"'”’`.,;:!?":
            hi -= 1
        while lo < hi and text[lo] in "\"'“‘`":
            lo += 1
        out.append((lo, hi))
    return out


def _shaped(kind: str, value: str) -> bool:
    if kind == "password":
        return written_password(value) or value.isdigit() and 4 <= len(value) <= 12
    if kind == "api_key":
        return len(value) >= 8 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value) and not value.startswith("[REDACTED")
    if kind == "otp":
        return code_shaped(value)
    return "@" not in value and not (value.isdigit() and len(value) >= 7)  # a name or a host; a mailbox or a phone is no name


def _pair(text: str, labels_end: int, values: list[tuple[int, int]]) -> list[Span]:
    lo = max(0, labels_end - 100)
    stops = [m.end() for m in _LABEL_REGION_END.finditer(text, lo, labels_end)]
    items = [i for i in _ITEM_SEP.split(text[stops[-1] if stops else lo : labels_end]) if i.strip()]
    n = len(values)
    if n < 2 or len(items) < n:
        return []
    kinds: list[str | None] = [_label_kind(i) for i in items[-n:]]
    for i in range(n - 2, -1, -1):  # a label with no noun of its own shares the next one's ("admin and guest passwords")
        kinds[i] = kinds[i] or kinds[i + 1]
    out = [(k, a, b) for k, (a, b) in zip(kinds, values, strict=True) if k is not None and _shaped(k, text[a:b])]
    if not any(k != "public" for k, _, _ in out):
        return []  # names alone (a host and a port): nothing secret in the list
    return out


def find_respective_values(text: str) -> list[Span]:
    """Values paired in order with jointly named labels (respectively / 分别)."""
    if "espectively" not in text and "分别" not in text:
        return []
    out: list[Span] = []
    for m in _ZH.finditer(text):
        out += _pair(text, m.start(), _values(text, m.start("vals"), m.end("vals"), zh=True))
    for pattern in (_EN_AFTER, _EN_BEFORE):
        for m in pattern.finditer(text):
            out += _pair(text, m.start(), _values(text, m.start("vals"), m.end("vals"), zh=False))
    return out
