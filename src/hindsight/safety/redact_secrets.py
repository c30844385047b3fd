"""Keys and tokens found by their own shape or their label (moved out of ``redact``, round 46: split by job).

A private key block (whole, or cut off before its END line), a provider token by its known prefix, an Authorization
header's or a Bearer / Basic credential, an access-key pair's secret half, and a long random value after a key / token /
secret label or a bare key word (``looks_random``: a word path, a hash, a UUID or a version is none).
"""

from __future__ import annotations

import re

from hindsight.safety.redact_credentials import code_expression
from hindsight.safety.validators import PLACEHOLDER_VALUE as _PLACEHOLDER_VALUE
from hindsight.safety.validators import group_span as _group_span
from hindsight.safety.validators import looks_random

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?!-----BEGIN )[\s\S])*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
)  # the body never crosses another BEGIN: many headers without an END cost linear time, not quadratic
# A pasted key cut off before its END line: the header and every base64 line after it.
_PRIVATE_KEY_CUT = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:\s|\\n)*+(?:[A-Za-z-]+: [^\n]*|[A-Za-z0-9+/=]{12,}+))++"
)
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}")
_TOKEN_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|live-|test-|ant-(?:api|admin)\d{2}-)?[A-Za-z0-9_-]{20,}"
    ),
    re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    re.compile(r"(?<![A-Za-z0-9])LTAI[0-9A-Za-z]{12,24}(?![0-9A-Za-z])"),  # Alibaba Cloud AccessKey ID
    re.compile(r"(?<![A-Za-z0-9])AKID[0-9A-Za-z]{32}(?![0-9A-Za-z])"),  # Tencent Cloud SecretId
    re.compile(r"(?<![A-Za-z0-9])xox[abprse]-[A-Za-z0-9-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}"),
    re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"),
    re.compile(r"(?<![A-Za-z0-9])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}"),
    re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),  # SendGrid
    re.compile(r"(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![0-9A-Za-z])"),  # Twilio API key
    re.compile(r"(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),  # Shopify
    re.compile(r"(?<![A-Za-z0-9])do[por]_v1_[a-f0-9]{64}"),  # DigitalOcean
    re.compile(r"(?<![A-Za-z0-9])pypi-[A-Za-z0-9_-]{50,}"),
    re.compile(r"(?<![A-Za-z0-9])key-[0-9a-f]{32}(?![0-9a-f])"),  # Mailgun
    re.compile(r"(?<![A-Za-z0-9])ya29\.[A-Za-z0-9_-]{20,}"),  # Google OAuth access token
    re.compile(r"(?<![A-Za-z0-9:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),  # Telegram bot
    re.compile(r"(?<![A-Za-z0-9])(?:glc|gldt|glrt|glptt)-[A-Za-z0-9_-]{20,}"),  # GitLab
    re.compile(r"(?<![A-Za-z0-9])xapp-\d-[A-Za-z0-9-]{20,}"),  # Slack app token
    re.compile(r"(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{20,}"),  # webhook signing secret
    re.compile(r"(?<![A-Za-z0-9])dapi[0-9a-f]{32}(?![0-9a-f])"),  # Databricks
    # DeepL's API key: a UUID with the free plan's ":fx" (a bare UUID is an identifier and needs a label)
    re.compile(r"(?i)(?<![A-Za-z0-9-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx(?![A-Za-z0-9])"),
)
# Whatever follows an Authorization header's scheme is a credential ("Authorization: Token 9944b0...").
_AUTH_HEADER = re.compile(
    r"(?i)\b(?:proxy-)?authorization\s*[:=]\s*[\"']?(?:bearer|token|basic|digest|apikey|api-key|key|sso-key)?\s*"
    r"(?P<value>(?=[^\s\"']*\d)[A-Za-z0-9._~+/=:-]{8,})"
)
_BEARER = re.compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
_KEYED_SECRET = re.compile(
    r"(?i)(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?(?:access[_-]?)?key)?|"
    r"client[_-]?secret|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|app[_-]?secret|app[_-]?key|signing[_-]?key|"
    r"webhook[_-]?secret|salt|signature|cookie|session(?:[_-]?id)?|credentials?|account[_-]?key|passkey|sas)s?[\"']?\s*(?:[:=]|=>|\bis\b|:=|是|为)\s*[\"']?([A-Za-z0-9_\-./+=~]{12,})"
)
# "with key SG.x", "令牌 ghx...": a bare key word and a long random value, whatever its shape.
_BARE_KEY = re.compile(
    r"(?i)(?:\b(?:key|token|secret|credential)s?|(?<=[a-z])(?-i:Key|Token|Secret)s?|密钥|秘钥|私钥|令牌|凭证|凭据)\s*(?:\bis\b|:|：|是|为)?\s*[\"'“`]?"
    r"([A-Za-z0-9_\-./+=~]{20,})"
)
_HEX_OR_UUID = re.compile(r"(?i)^(?:[0-9a-f]{20,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|sha\d*[:-].*|v?\d+(?:\.\d+)+.*)$")
_KEYED_SECRET_ZH = re.compile(
    r"(?i)(?:密钥|秘钥|私钥|令牌|访问令牌|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key)\s*(?:是|为|:|：|=)\s*[\"'“]?([A-Za-z0-9_\-./+=~]{12,})"
)
_BASIC_AUTH = re.compile(r"(?i)\bbasic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
# "AKIA... / wJalr...": an access-key ID written next to its secret half.
_KEY_PAIR = re.compile(
    r"(?<![A-Za-z0-9])(?:AKIA|ASIA|LTAI|AKID)[A-Za-z0-9]{12,36}\s*(?:/|,|:|\||\s)\s*(?P<value>[A-Za-z0-9/+=_-]{30,64})(?![A-Za-z0-9/+=_-])"
)
# The secret half of an access-key pair: a labelled 30-64 character random string.
_KEY_SECRET_HALF = re.compile(
    r"(?i)(?:secret(?:[ _-]?access)?(?:[ _-]?key)?|access[ _-]?key[ _-]?secret|secretaccesskey|accesskeysecret|\bsk\b|密钥|秘钥|私钥)"
    r"(?:\s+(?:for|of)\b[^\n:=：]{1,40}?\s(?:is|was)\b)?"  # "secret access key for the reporting user is X"
    r"[\"']?\s*(?:[:=：]|is|是|为)?\s*[\"']?(?P<value>[A-Za-z0-9/+=_-]{30,64})(?![A-Za-z0-9/+=_-])"
)
Span = tuple[str, int, int]


def _wordy(value: str) -> bool:
    """A path or identifier made of words ("reports/2024/summary.csv", "user_profile_cache_v2"), not a token."""
    parts = [p for p in re.split(r"[/._:-]+", value) if p]
    plain = sum(len(p) for p in parts if p.isdigit() or (p.isalpha() and (p.islower() or p.istitle()))
                or (len(p) <= 8 and p.islower()))
    return plain >= 0.7 * sum(len(p) for p in parts)


def find_secrets(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_PRIVATE_KEY, _PRIVATE_KEY_CUT):
        for m in pattern.finditer(text):
            if _KEY_BODY.search(m.group(0)):  # "paste -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----" names the block
                out.append(("private_key", m.start(), m.end()))
    for pattern in _TOKEN_PATTERNS:
        for m in pattern.finditer(text):
            if len(set(m.group(0)[-16:].lower())) <= 2:
                continue  # "sk-xxxxxxxxxxxxxxxx", "ghp_0000...": a template placeholder
            out.append(("api_key", m.start(), m.end()))
    for m in _AUTH_HEADER.finditer(text):
        if not m.group("value").startswith("[REDACTED"):
            out.append(("api_key", *_group_span(m, "value")))
    for m in _BEARER.finditer(text):
        out.append(("api_key", *_group_span(m)))
    for m in _KEY_PAIR.finditer(text):
        if looks_random(m.group("value")):
            out.append(("api_key", *m.span("value")))
    for m in _KEY_SECRET_HALF.finditer(text):
        value = m.group("value")
        if not _PLACEHOLDER_VALUE.match(value) and looks_random(value):
            out.append(("api_key", *_group_span(m, 1)))
    for m in _BASIC_AUTH.finditer(text):
        out.append(("password", *_group_span(m, 1)))
    for pattern in (_KEYED_SECRET, _KEYED_SECRET_ZH):
        for m in pattern.finditer(text):
            value = m.group(1).rstrip(".,;:")
            if _PLACEHOLDER_VALUE.match(value) or not looks_random(value) or code_expression(text, *_group_span(m)):
                continue
            out.append(("api_key", *_group_span(m)))
    for m in _BARE_KEY.finditer(text):
        value = m.group(1).rstrip(".,;:")
        if (_PLACEHOLDER_VALUE.match(value) or _HEX_OR_UUID.match(value) or _wordy(value) or not looks_random(value, 20)
                or value.startswith("MII") or code_expression(text, *_group_span(m))):  # DER in base64: a private key is found
            continue  # by its shape (redact_ids), a public key stays
        out.append(("api_key", *_group_span(m)))
    return out
