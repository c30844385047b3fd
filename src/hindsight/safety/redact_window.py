"""Secrets found by their shape and a cue within a window (round 10).

Earlier finders read a cue *right before* a value ("key: X", "卡号 X"). Blind writers put words between them ("the
OpenWeather key for the dashboard widget: X", "API Key 被写死在 config.js 里了（值为 X）"), glue an English cue to
Chinese text ("这张Visa：X", where ``\\b`` is no boundary), or name the two halves of a key pair with words no
rule listed ("key X and secret Y", "AK是X，SK是Y", "APP ID X，密钥 Y"). This module reads a value by its shape and
looks for the cue in a window before it, in the same sentence; a look-alike's own cue in the window (hash,
checksum, commit, request/trace ID, public key, tracking number, 哈希, 校验, 公钥, 运单) keeps it.

- **Keys by shape and cue**: 32-64 hex digits, or a 16-64 character token with upper case, lower case and digits,
  with a key/secret/token cue (EN/ZH) at most 48 characters before it.
- **The partner of a found secret**: the ID half of a key pair, named by an ID-ish label (key, ID, AK, app ID,
  access key, 账号) in the same sentence as a secret already found (called only for a credential note).
- **Card numbers by grouping**: a bare "card" (or a card brand glued to Chinese text) and sixteen digits in four
  groups of four, or 13-19 digits; made-up numbers fail Luhn, but the sentence says what they are.
- **UnionPay accounts**: 16-19 digits starting 62 with a bank's name or a transfer verb in the window.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import NOT_PAYMENT_CARD, TEST_CARD
from hindsight.safety.validators import PLACEHOLDER_VALUE, shannon_entropy

Span = tuple[str, int, int]

_WINDOW = 48
_SENTENCE_END = re.compile(r"[.!?。！？\n](?=\s|$)|[。！？\n；;]")
# A key/secret cue: English words bounded by ASCII look-arounds (so "私有KEY=" and "这张Visa" count), Chinese words.
_KEY_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:api[ _-]?key|key|token|secret|credential|apikey|access[ _-]?key)s?(?![A-Za-z])|"
    r"(?<=[a-z])(?-i:Key|KEY|Token|Secret)(?![a-z])|密钥|秘钥|私钥|令牌|凭证|凭据"
)
# Look-alikes of the same shapes announce themselves: a digest, a commit, a request ID, a public key, a parcel.
_LOOKALIKE_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:hash(?:es)?|checksum|digest|sha-?\d*|md5|crc32?|commit|etag|fingerprint|request[ _-]?id|trace[ _-]?id|"
    r"correlation[ _-]?id|session[ _-]?id|uuid|guid|public|pub|cache|idempotency|partition|primary|foreign|sort|row|object|"
    r"tracking|order|invoice|build|version|revision|example|placeholder|dummy|fake|sample|test(?:ing)?|sandbox|ssh-(?:rsa|ed25519|dss)|"
    r"ecdsa-sha2)(?![A-Za-z])|"
    r"哈希|散列|校验和|摘要|指纹|公钥|提交|请求|流水|运单|快递|订单|示例|样例|举例|假的|测试"
)
_HEX_KEY = r"[0-9a-f]{32,64}|[0-9A-F]{32,64}"
_MIXED_KEY = r"(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{16,64}"
_KEY_VALUE = re.compile(r"(?<![A-Za-z0-9_/.+-])(?!0x)(?P<value>" + _HEX_KEY + "|" + _MIXED_KEY + r")(?![A-Za-z0-9_/+=-]|\.\w)")


def _clause_start(text: str, pos: int, window: int = _WINDOW) -> int:
    """The start of the window before ``pos``: at most ``window`` characters, never before the sentence's start."""
    lo = max(0, pos - window)
    last = lo
    for m in _SENTENCE_END.finditer(text, lo, pos):
        last = m.end()
    return last


def find_window_keys(text: str) -> list[Span]:
    """A key-shaped value with a key cue in the window before it and no look-alike cue there."""
    out: list[Span] = []
    for m in _KEY_VALUE.finditer(text):
        value = m.group("value")
        if (PLACEHOLDER_VALUE.match(value) or shannon_entropy(value) < 3.0 or value.startswith("AAAA")
                or re.search(r"(?i)test|fake|example|dummy|sample", value)):  # "sk_test_...", an SSH public key body
            continue
        window = text[_clause_start(text, m.start()) : m.start()]
        if _KEY_CUE.search(window) and not _LOOKALIKE_CUE.search(window):
            out.append(("api_key", *m.span("value")))
    return out


# The ID half of a pair: an ID-ish label, a separator, a value of 8-64 token characters with a digit.
_PARTNER = re.compile(
    r"(?i)(?<![A-Za-z])(?:access[ _-]?key(?:[ _-]?id)?|key[ _-]?id|key|app[ _-]?id|appid|client[ _-]?id|id|ak)(?![A-Za-z])"
    r"\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?(?P<value>(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{8,64})(?![A-Za-z0-9_-])"
)


# The secret half's own label right before it: "secret", "SK", "sk=", "密钥", "secret key".
_SECRET_LABEL = re.compile(r"(?i)(?:(?<![A-Za-z])(?:secret(?:[ _-]?(?:access[ _-]?)?key)?|sk)(?![A-Za-z])|密钥|秘钥)\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?$")


def find_pair_partners(text: str, secrets: list[tuple[int, int]]) -> list[Span]:
    """The ID half of a pair whose secret half was found: labelled, in the same sentence, ending at most 8
    characters before the secret's label ("key X and secret Y", "AK是X，SK是Y", "id X, secret Y")."""
    out: list[Span] = []
    for start, _ in secrets:
        label = _SECRET_LABEL.search(text, max(0, start - 24), start)
        if label is None:
            continue
        for m in _PARTNER.finditer(text, _clause_start(text, label.start(), 96), label.start()):
            if m.end("value") <= label.start() and label.start() - m.end("value") <= 8 and not PLACEHOLDER_VALUE.match(m.group("value")):
                out.append(("api_key", *m.span("value")))
    return out


# "card 6011 4827 3310 5596", "这张Visa：4392260043217789": a card word or brand, a few non-digits, the number.
_CARD_WORD = re.compile(
    r"(?i)(?<![A-Za-z])(?:card|visa|mastercard|amex|discover|unionpay)(?![A-Za-z])[^\d\n]{0,16}?"
    r"(?P<value>(?<![\d-])(?:\d{4}(?:[ -]\d{4}){3}|\d{13,19})(?![\d-]))"
)


def find_card_numbers(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CARD_WORD.finditer(text):
        digits = re.sub(r"\D", "", m.group("value"))
        before = text[max(0, m.start() - 24) : m.start("value")]
        if len(set(digits)) >= 3 and not NOT_PAYMENT_CARD.search(before) and not TEST_CARD.search(before):
            out.append(("card", *m.span("value")))
    return out


# "学费转到 6228480038567712019（农行）": a UnionPay number (62...) with a bank or a transfer in the window.
_UNIONPAY = re.compile(r"(?<![\d-])62\d{14,17}(?![\d-])")
_BANK_CUE = re.compile(
    r"(?i)银行|[农工建中交招浦]行|邮储|转(?:到|账|给|入)|汇(?:到|款|入)|打(?:到|款)|收款|账户|帐户|开户|(?<![A-Za-z])(?:bank|transfer|wire|deposit|account)(?![A-Za-z])"
)


def find_unionpay_accounts(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _UNIONPAY.finditer(text):
        window = text[max(0, m.start() - 24) : m.end() + 12]
        if _BANK_CUE.search(window) and not NOT_PAYMENT_CARD.search(window):
            out.append(("bank_account", m.start(), m.end()))
    return out
