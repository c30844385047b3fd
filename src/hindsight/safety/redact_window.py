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

Round 11 (the same idea, for kinds that several writers missed the same way):

- **Card numbers by what follows**: a card-shaped number with its security code or expiry word right after it
  ("... | exp: 02/28 | cvv", "/ 有效期 12/26", "with CVC 556").
- **One-time codes by shape and cue**: six digits, plain or grouped 3-3 / 2-2-2, with a one-time-code cue at
  most 40 characters before them in the sentence and no reference / order / ticket word after the cue.
- **Pairs under a joint label**: "AK/SK", "key/secret", "access key/secret key", then both values.
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


# The ID half of a pair: an ID-ish label (round 11: a bare "access", 账号), a separator, a value of 8-64 token characters with a digit
# (round 41, blind r38: or 6-7 digits - "开发者ID 108472,签名密钥...", "client id 884213, client secret ...").
_PARTNER = re.compile(
    # round 34: a key named by its pair's prefix, glued or spaced ("appKey", "api_key", "clientKey", "consumer key")
    r"(?i)(?:(?<![A-Za-z])(?:access(?:[ _-]?key)?(?:[ _-]?id)?|key[ _-]?id|key|(?:app|api|client|consumer)[ _-]?key|app[ _-]?id|appid|"
    r"client[ _-]?id|id|ak)(?![A-Za-z])|访问账号|账号)"
    r"\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?(?P<value>(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{8,64}|\d{6,7})(?![A-Za-z0-9_-])"
)


# The secret half's own label right before it: "secret", "SK", "sk=", "密钥", "secret key".
# Round 18: also joined to the pair's own prefix ("accessKeySecret", "access_key_secret", "appSecret", "clientSecret").
# Round 44 (blind r39): a secret named by what it signs ("key id hk_2f9a71c3 with signing secret whsec_...").
_SECRET_LABEL = re.compile(
    r"(?i)(?:(?<![A-Za-z])(?:(?:access[ _-]?key|app|client|api|signing|webhook|shared|hmac)[ _-]?)?(?:secret(?:[ _-]?(?:access[ _-]?)?key)?|sk)(?![A-Za-z])|密钥|秘钥)"
    r"\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?$"
)


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


def _payment_card(text: str, start: int, end: int) -> bool:
    """Not a run of one or two digits, and not announced as a loyalty / transit card or a processor's test card."""
    before = text[max(0, start - 24) : start]
    return len(set(re.sub(r"\D", "", text[start:end]))) >= 3 and not NOT_PAYMENT_CARD.search(before) and not TEST_CARD.search(before)


def find_card_numbers(text: str) -> list[Span]:
    return [("card", *m.span("value")) for m in _CARD_WORD.finditer(text) if _payment_card(text, *m.span("value"))]


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


# Round 11. "4716-2290-8831-4402 | exp: 02/28 | cvv: 019", "5187 1002 6634 9018 / 有效期 12/26", "... with CVC 556": a
# card-shaped number with no card word before it, but its security code or expiry right after it (round 14: "过期时间
# 11/27", "到期", "good through 04/29" name the expiry too).
_CARD_SHAPE = re.compile(r"(?<![\d-])(?:\d{4}(?:[ -]\d{4}){3}|\d{4}[ -]\d{6}[ -]\d{5}|\d{15,16})(?![\d-])")
_CARD_AFTER = re.compile(
    r"[^\d\n.。;；]{0,12}?(?:(?i:(?<![A-Za-z])(?:cvv2?|cvc2?|cvn2?|csc|security\s+code|exp(?:iry|ires|iring|iration)?|valid\s+thru)"
    # round 30: a fuel / fleet card's PIN right after its number ("..., PIN 4471", "，密码 8812") names a card too
    r"(?![A-Za-z]))|(?-i:PIN)\s*[:：]?\s*\d{4,6}(?!\d)|密码\s*[:：]?\s*\d{4,6}(?!\d)|有效期|安全码|背面|"
    # other words for the expiry count only with the date after them ("那笔定期明年二月到期" is a deposit's term)
    r"(?:(?i:(?<![A-Za-z])(?:valid\s+(?:through|until|till)|good\s+(?:thru|through))(?![A-Za-z]))|有效至|过期|到期|失效)"
    r"(?:时间|日期|日)?\s*[:：]?\s*(?:0[1-9]|1[0-2])\s?/\s?(?:20)?\d{2}(?![\d/]))"
)


# Round 47 (blind r41): a card word (卡 / card) a few characters before a 13 - 19 digit run that is no card's usual
# shape ("这张卡：6222021001122334455，CVN2是308") names it a card when its code or expiry follows, as above.
CARD_WORD_ANY_LENGTH = True
_NAMED_LONG = re.compile(r"(?i)(?:卡|(?<![A-Za-z])cards?(?![A-Za-z]))[^\d\n.。;；]{0,8}?(?P<value>(?<![\d-])\d{13,19}(?![\d-]))")


def find_cards_by_what_follows(text: str) -> list[Span]:
    """A card number named by the security code or expiry that follows it (made-up numbers fail Luhn)."""
    out = [("card", *m.span()) for m in _CARD_SHAPE.finditer(text) if _CARD_AFTER.match(text, m.end()) and _payment_card(text, *m.span())]
    if CARD_WORD_ANY_LENGTH:
        out += [("card", *m.span("value")) for m in _NAMED_LONG.finditer(text)
                if _CARD_AFTER.match(text, m.end("value")) and _payment_card(text, *m.span("value"))]
    return out


# "fallback code, 118 402,", "today's was 77 31 05", "verification code, 482913": a one-time code named a few words
# before a value in a code's own shape (six digits, or grouped three-three / two-two-two), in the same sentence.
_CODE_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:(?:login|sign-?in|verification|security|sms|text|fallback|backup|one[- ]time|auth(?:entication)?|2fa|mfa|otp)"
    r"[ _-]?(?:code|passcode|pin)s?|otp|2fa|mfa|passcode|texted|code\s+(?:from|in)\s+(?:the|my|her|his|their|that)\s+(?:text|sms|message))"
    r"(?![A-Za-z])|验证码|校验码|动态码|短信码|访客码|门禁码|通行码"
)
_CODE_LOOKALIKE = re.compile(r"(?i)(?<![A-Za-z])(?:error|status|order|invoice|ticket|tracking|zip|postal|ref(?:erence)?|case|id)(?![A-Za-z])|订单|单号|工单")
_CODE_SHAPE = re.compile(r"(?<![A-Za-z0-9_.,:/-])(?P<value>\d{3} \d{3}|\d{2} \d{2} \d{2}|(?:[A-Z]-)?\d{6})(?![A-Za-z0-9_-]|[.,:/]\d| \d)")
_UNIT_AFTER = re.compile(r"(?i)\s*(?:%|元|块|次|个|分钟|秒|位|字)|\s*(?:dollars|usd|eur|rmb|yuan|digits?|times|seconds?|minutes?|ms|kb|mb|gb)\b")
_CODE_WINDOW = 40


def find_window_codes(text: str) -> list[Span]:
    """A six-digit code (plain or grouped) with a one-time-code cue at most 40 characters before it, in its sentence."""
    out: list[Span] = []
    for m in _CODE_SHAPE.finditer(text):
        value = m.group("value").replace(" ", "")
        if re.fullmatch(r"(\d)\1{5}|123456|654321", value) or _UNIT_AFTER.match(text, m.end()):
            continue
        window = text[_clause_start(text, m.start(), _CODE_WINDOW) : m.start()]
        cues = list(_CODE_CUE.finditer(window))
        if cues and not _CODE_LOOKALIKE.search(window, cues[-1].end()):  # nothing else named after the nearest cue
            out.append(("otp", *m.span("value")))
    return out


# "ak/sk：AKLT... / TVRV...", "AK/SK 分别是 X 和 Y", "key/secret: X, Y": a pair's joint label, then both values.
_PAIR_LABEL = re.compile(
    r"(?i)(?<![A-Za-z])(?:ak\s*/\s*sk|access[ _-]?key(?:[ _-]?id)?\s*/\s*secret(?:[ _-]?(?:access[ _-]?)?key)?|(?:app[ _-]?)?(?:key|id)\s*/\s*(?:app[ _-]?)?secret|(?:api[ _-]?)?key[ _-]?pair|credential[ _-]?pair|密钥对|秘钥对|(?:一|那|这)对\s*(?:密钥|秘钥|凭证|凭据|(?:api[ _-]?)?key))"
    r"(?![A-Za-z])(?:\s+for\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2})?(?:[^\n.。;；A-Za-z0-9]|\b(?:is|are)\b){1,12}"
)
_PAIR_TOKEN = r"(?=[A-Za-z0-9+/=_-]*\d)[A-Za-z0-9+/_-]{12,96}=*"
_PAIR_VALUES = re.compile(r"(?P<a>" + _PAIR_TOKEN + r")\s*(?:/|,|，|、|和|与|及|\band\b|:|;)\s*(?P<b>" + _PAIR_TOKEN + r")(?![A-Za-z0-9+/=_-])")


def find_labelled_pairs(text: str) -> list[Span]:
    """Both halves of a key pair announced together by a joint label ("AK/SK", "key/secret")."""
    out: list[Span] = []
    for label in _PAIR_LABEL.finditer(text):
        m = _PAIR_VALUES.match(text, label.end())
        if m and not PLACEHOLDER_VALUE.match(m.group("a")) and not PLACEHOLDER_VALUE.match(m.group("b")):
            out += [("api_key", *m.span("a")), ("api_key", *m.span("b"))]
    return out


# "TOTP seed for the admin panel (scan into Authy ...): JBSWY3DP...", "谷歌验证器的密钥：GEZD GNBV ...": an
# authenticator's shared secret is RFC 4648 base32 (A-Z, 2-7; often grouped by four) and is named by an OTP / 2FA cue.
_OTP_SEED_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:[th]otp|otp|2fa|mfa|two[- ]factor|2-step|two[- ]step|authenticator|authy)(?![A-Za-z])|"
    r"两步验证|二次验证|双因素|双重验证|动态口令|身份验证器|验证器"
)
_BASE32 = re.compile(r"(?<![A-Za-z0-9+/=-])(?P<value>[A-Z2-7]{4}(?:[ -]?[A-Z2-7]{4}){3,15}[A-Z2-7]{0,3}=*)(?![A-Za-z0-9+/=-])")
_SEED_WINDOW = 64


def find_otp_seeds(text: str) -> list[Span]:
    """A base32 authenticator seed (16-64 characters, letters and 2-7 mixed) with an OTP / 2FA cue before it in its
    sentence and no look-alike cue (example, test, hash ...) there."""
    out: list[Span] = []
    for m in _BASE32.finditer(text):
        value = re.sub(r"[ =-]", "", m.group("value"))
        if (not any(c.isdigit() for c in value) or sum(c.isalpha() for c in value) < 8 or shannon_entropy(value) < 3.0
                or PLACEHOLDER_VALUE.match(value)):
            continue  # "ABCDEFGHIJKLMNOP" or a word in capitals is no seed
        window = text[_clause_start(text, m.start(), _SEED_WINDOW) : m.start()]
        if _OTP_SEED_CUE.search(window) and not _LOOKALIKE_CUE.search(window):
            out.append(("otp", *m.span("value")))
    return out
