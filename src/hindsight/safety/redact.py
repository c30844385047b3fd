"""Redact secrets and personal data before a memory is stored.

A memory outlives the conversation that produced it and is replayed into many
later prompts, so a pasted API key or phone number would leak again and again.
Redaction replaces the sensitive *value* with a typed placeholder such as
``[REDACTED:email]`` and keeps the sentence, so the memory stays useful ("the
user's email is [REDACTED:email]").

Precision matters as much as recall: a memory store full of version strings,
git hashes, order numbers and timestamps must not be shredded. So every numeric
kind is validated, not just matched: Chinese resident IDs by date and the
ISO 7064 MOD 11-2 checksum, card numbers by issuer prefix and Luhn, tokens by
known prefixes or by entropy after an explicit ``key=``/``token:`` label.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

KINDS: tuple[str, ...] = ("private_key", "api_key", "password", "email", "cn_id", "card", "cvv", "phone", "address")
# Lower number wins when two findings overlap.
_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}


@dataclass(frozen=True)
class Finding:
    """One redacted span of the *original* text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    """The redacted text and what was removed from where."""

    text: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def kinds(self) -> list[str]:
        """Distinct kinds found, in a stable order."""
        found = {f.kind for f in self.findings}
        return [k for k in KINDS if k in found]


def placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


# --------------------------------------------------------------------------- validators


def luhn_valid(digits: str) -> bool:
    """Luhn mod-10 check used by every payment card number."""
    if not digits.isdigit() or len(digits) < 12:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_CARD_PREFIX = re.compile(
    r"^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|6011|65|64[4-9]|62|35(?:2[89]|[3-8]\d)|30[0-5]|36|38|9792|8[1-8])"
)
_CARD_LENGTHS = {13, 14, 15, 16, 17, 18, 19}


def card_valid(digits: str) -> bool:
    """A plausible payment card: known issuer prefix, card length and Luhn."""
    if len(digits) not in _CARD_LENGTHS or len(set(digits)) < 2:
        return False
    return bool(_CARD_PREFIX.match(digits)) and luhn_valid(digits)


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_ID_PROVINCES = {
    "11",
    "12",
    "13",
    "14",
    "15",
    "21",
    "22",
    "23",
    "31",
    "32",
    "33",
    "34",
    "35",
    "36",
    "37",
    "41",
    "42",
    "43",
    "44",
    "45",
    "46",
    "50",
    "51",
    "52",
    "53",
    "54",
    "61",
    "62",
    "63",
    "64",
    "65",
    "71",
    "81",
    "82",
    "83",
    "91",
}


def cn_id_checksum(first17: str) -> str:
    """ISO 7064 MOD 11-2 check character for the first 17 digits."""
    return _ID_CHECK[sum(int(c) * w for c, w in zip(first17, _ID_WEIGHTS, strict=True)) % 11]


def cn_id_valid(value: str, today: date | None = None) -> bool:
    """An 18-character PRC resident ID: province code, a real past birth date, checksum."""
    value = value.replace(" ", "").upper()
    if len(value) != 18 or not value[:17].isdigit() or not (value[17].isdigit() or value[17] == "X"):
        return False
    if value[:2] not in _ID_PROVINCES:
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    if not (date(1880, 1, 1) <= born <= (today or date.today())):
        return False
    return cn_id_checksum(value[:17]) == value[17]


def shannon_entropy(value: str) -> float:
    """Bits per character; random tokens score ~4-6, words ~2.5-3.5."""
    if not value:
        return 0.0
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(value: str) -> bool:
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[_\-./+=~]"))
    return len(value) >= 12 and classes >= 2 and shannon_entropy(value) >= 3.0


_PLACEHOLDER_VALUE = re.compile(
    r"^(?:<[^>]*>|\$\{?[A-Za-z_]+\}?|\{\{?[^}]*\}?\}|x{3,}|\*{3,}|\.{3,}|your[_-].*|my[_-].*|changeme|example.*|placeholder|redacted|"
    r"\[redacted.*|null|none|undefined|true|false|todo|tbd|env\..*|os\.environ.*|process\.env.*|secrets\..*|settings\..*)$",
    re.IGNORECASE,
)

# Words that follow "password:"/"password is" in prose about passwords, not in a
# disclosure of one ("the password is required", "password: must be 12 chars").
_PASSWORD_STOPWORDS = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "must", "should", "shall", "will", "would", "can", "could", "may", "might", "need", "needs", "needed", "required", "optional", "mandatory", "reset", "resets", "changed", "change", "expired", "expires", "expiring", "stored", "saved", "hashed", "encrypted", "salted", "set", "not", "too", "very", "incorrect", "wrong", "correct", "invalid", "valid", "weak", "strong", "long", "short", "empty", "missing", "blank", "same", "different", "hidden", "visible", "protected", "case-sensitive", "sensitive", "in", "on", "at", "of", "for", "with", "from", "by", "to", "into", "now", "still", "also", "only", "never", "always", "your", "my", "our", "their", "its", "this", "that", "these", "those", "here", "there", "policy", "policies", "field", "fields", "rules", "requirements", "requirement", "length", "strength", "manager", "managers", "prompt", "prompts", "hint", "hints", "reuse", "reused", "rotation", "rotated", "updated", "update", "generated", "random", "secure", "insecure", "unknown", "forgotten", "forgot", "lost", "locked", "unchanged", "something", "nothing", "anything", "same-as", "shared", "sharing", "auth", "login", "authentication", "based", "less", "free", "protected", "what", "which", "who", "whatever", "how", "when", "where", "why", "it", "he", "she", "they", "we", "you", "i", "me", "him", "her", "them", "us", "yes", "no", "ok", "okay", "sent", "emailed", "texted", "stolen", "leaked", "compromised"]
)

# --------------------------------------------------------------------------- patterns

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
)
_TOKEN_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|live-|test-|ant-(?:api|admin)\d{2}-)?[A-Za-z0-9_-]{20,}"
    ),
    re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    re.compile(r"(?<![A-Za-z0-9])LTAI[0-9A-Za-z]{12,24}(?![0-9A-Za-z])"),  # Alibaba Cloud AccessKey ID
    re.compile(r"(?<![A-Za-z0-9])xox[abprse]-[A-Za-z0-9-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}"),
    re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"),
    re.compile(r"(?<![A-Za-z0-9])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}"),
    re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
)
_BEARER = re.compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
_KEYED_SECRET = re.compile(
    r"(?i)(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?(?:access[_-]?)?key)?|"
    r"client[_-]?secret|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|app[_-]?secret|signing[_-]?key|"
    r"webhook[_-]?secret)s?[\"']?\s*(?:[:=]|=>|\bis\b|:=|是|为)\s*[\"']?([A-Za-z0-9_\-./+=~]{12,})"
)
_KEYED_SECRET_ZH = re.compile(
    r"(?i)(?:密钥|秘钥|私钥|令牌|访问令牌|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key)\s*(?:是|为|:|：|=)\s*[\"'“]?([A-Za-z0-9_\-./+=~]{12,})"
)
_PASSWORD_EN = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:[A-Za-z0-9]+_)*(?:password|passwd|passphrase|passcode|requirepass|pwd|pin(?: code)?)"
    r"(?:\s+(?:for|of|on|to)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w.@/-]{1,40}(?:\s+[\w.@/-]{1,20})?(?=\s+(?:is|was|are)\s))?"
    r"(?P<sep>\s*(?:[:=]|=>|：)\s*|\s+(?:was changed to|is changed to|changed to|was set to|is set to|set to|is now|is|was|to|are|"
    r"has been changed to|has been set to|got changed to)\s*:?\s+|\s*(?:设置成了?|设成了?|改成了?|改为|设为|设置为|是|为|换成了?)\s*|\s+)"
    r"[\"'`“]?(?P<value>[^\s\"'`,;，。；”]{3,64})"
)
# "pass: x", "pw=x", "login admin / x": short labels only count with an explicit separator.
_PASSWORD_SHORT = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:pass|pw|pwd|passwort|mot de passe)\s*(?:[:=]|：)\s*[\"'`]?(?P<value>[^\s\"'`,;，。；]{3,64})"
)
_USER_SLASH_PASS = re.compile(
    r"(?i)(?:\b(?:login|account|credentials|creds|user(?:name)?)|账号|帐号|登录)\s*[:：]?\s*[\w.@+-]{2,40}\s*(?:/|\s\|\s)\s*(?P<value>[^\s/\"'`,;，。；]{4,64})"
)
# "qa.tester@example.com / Winter2024!": a login and its password written as a pair.
# "Grafana login for the team: admin / velvet-Moon7": a labelled "user / password" pair (spaced slash).
_LABELLED_PAIR = re.compile(r"[：:]\s*[\w.+-]{2,40}\s+/\s+(?P<value>[^\s/\"'`,;，。；]{4,64})")
_EMAIL_SLASH_PASS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|\s\|\s)\s*(?P<value>[^\s/\"'`,;，。；]{4,64})")
_BASIC_AUTH = re.compile(r"(?i)\bbasic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_CVV = re.compile(
    r"(?i)(?:\b(?:cvv2?|cvc2?|cid|csc|card security code|security code)|安全码|校验码|卡背面?(?:的)?(?:三位|3位)(?:数|数字|码)?|cvv码)"
    r"\s*(?:code|number)?(?:\s+(?:on|at|from|printed on)\s+(?:the\s+)?\w+)?\s*(?:[:=：]|is|是|为)?\s*(?P<value>\d{3,4})(?!\d)"
)
# The secret half of an access-key pair: a labelled 30-64 character random string.
_KEY_SECRET_HALF = re.compile(
    r"(?i)(?:secret(?:[ _-]?access)?(?:[ _-]?key)?|access[ _-]?key[ _-]?secret|secretaccesskey|accesskeysecret|\bsk\b|密钥|秘钥|私钥)"
    r"[\"']?\s*(?:[:=：]|is|是|为)?\s*[\"']?(?P<value>[A-Za-z0-9/+=_-]{30,64})(?![A-Za-z0-9/+=_-])"
)
_PASSWORD_ZH = re.compile(
    r"(?i)(?:密码|口令|登录密码|支付密码|开机密码|wifi ?密码|PIN码?|取款密码)(?P<sep>\s*(?:是|为|:|：|=|改成了?|改为|设置为|设置成|设成了?|设为|换成了?)\s*|\s+)[\"'“]?(?P<value>[!-~]{3,64})"
)
_URL_CREDENTIALS = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://[^/\s:@]*:([^/\s@]{3,})@")
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
_CN_ID = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5} ?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]) ?\d{3}[\dXx](?![0-9A-Za-z])"
)
_CARD = re.compile(r"(?<![\d.,/:-])\d(?:[ -]?\d){12,18}(?![\d-]|[.,]\d)")
_CN_MOBILE = re.compile(r"(?<![\d+])(?:(?:\+|00)86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?![\d])")
_CN_MOBILE_PAREN = re.compile(r"\(\s*\+?86\s*\)\s*1[3-9]\d(?:[\s-]?\d{4}){2}(?!\d)")
_CN_LANDLINE = re.compile(r"(?<![\d-])0\d{2,3}-\d{7,8}(?![\d-])")
_INTL_PHONE = re.compile(
    r"(?<![\w+])\+[1-9]\d{0,2}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){1,4}(?![\d])"
)
_NANP = re.compile(r"(?<![\w.-])(?:\(\d{3}\)\s?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w-])")

_STREET_TYPE = (r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Close|Crescent|"
                r"Parkway|Pkwy|Highway|Hwy|Square|Sq|Row|Mews|Gardens|Hill)")
# "221B Baker Street, London NW1 6XE", "1600 Amphitheatre Pkwy, Mountain View, CA 94043", "Apt 4B, 55 Elm St."
_EN_ADDRESS = re.compile(
    r"(?:\b(?:Apt|Apartment|Unit|Suite|Flat)\.?\s*#?\w{1,5},?\s+)?"
    r"\b\d{1,5}[A-Za-z]?(?:-\d{1,4})?\s+(?:[A-Z][A-Za-z'.-]*\s+){1,5}" + _STREET_TYPE + r"\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Unit|Suite|Flat|Floor|Fl)\.?\s*#?\w{1,5})?"
    r"(?:,\s*[A-Z][a-z][A-Za-z.-]*(?:\s+[A-Z][a-z][A-Za-z.-]*){0,2})?"
    r"(?:,?\s*(?:[A-Z]{2}\s+\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}))?"
)
_PO_BOX = re.compile(r"(?i)\bP\.?\s*O\.?\s*Box\s+\d{1,6}\b")
# 北京市海淀区中关村大街27号院3号楼502室 / 上海浦东新区张江路 88 弄 6 号 1201 室: a road or lane with a house number.
_ZH_ADDRESS = re.compile(
    r"(?:[\u4e00-\u9fff]{2,7}(?:省|自治区))?(?:[\u4e00-\u9fff]{2,7}市)?(?:[\u4e00-\u9fff]{1,7}(?:区|县|镇|乡))?"
    r"[\u4e00-\u9fffA-Za-z0-9]{0,12}?(?:路|街|大街|大道|巷|弄|胡同|里|村)\s*\d{1,5}\s*(?:号|弄)"
    r"(?:\s*(?:院|大院|小区))?(?:\s*[\dA-Za-z一二三四五六七八九十]{1,4}\s*(?:号楼|栋|幢|座|单元|层|楼|室|号|户))*"
)
_ZH_ADDRESS_LEAD = re.compile(r"(?:到了|到|在|是|为|：|:|寄|送|址)")

Span = tuple[str, int, int]


def _group_span(match: re.Match[str], group: int | str = 1) -> tuple[int, int]:
    start, end = match.span(group)
    # Trailing sentence punctuation belongs to the sentence, not the secret.
    value = match.group(group)
    stripped = value.rstrip(".,;:)]}>\"'”。，；")
    return start, end - (len(value) - len(stripped))


def _find_secrets(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _PRIVATE_KEY.finditer(text):
        out.append(("private_key", m.start(), m.end()))
    for pattern in _TOKEN_PATTERNS:
        for m in pattern.finditer(text):
            out.append(("api_key", m.start(), m.end()))
    for m in _BEARER.finditer(text):
        out.append(("api_key", *_group_span(m)))
    for m in _KEY_SECRET_HALF.finditer(text):
        value = m.group("value")
        if not _PLACEHOLDER_VALUE.match(value) and _looks_random(value):
            out.append(("api_key", *_group_span(m, 1)))
    for m in _BASIC_AUTH.finditer(text):
        out.append(("password", *_group_span(m, 1)))
    for pattern in (_KEYED_SECRET, _KEYED_SECRET_ZH):
        for m in pattern.finditer(text):
            value = m.group(1).rstrip(".,;:")
            if _PLACEHOLDER_VALUE.match(value) or not _looks_random(value):
                continue
            out.append(("api_key", *_group_span(m)))
    return out


def _find_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _PASSWORD_EN.finditer(text):
        value = m.group("value").rstrip(".,;:)]}\"'")
        if len(value) < 3 or value.lower() in _PASSWORD_STOPWORDS or _PLACEHOLDER_VALUE.match(value):
            continue
        if m.group("sep").isspace() and not re.search(r"[\d\W_]", value):
            continue  # "password manager", "pin the tab": bare word after the label is prose
        out.append(("password", *_group_span(m, "value")))
    for m in _PASSWORD_ZH.finditer(text):
        value = m.group("value")
        if _PLACEHOLDER_VALUE.match(value):
            continue
        if m.group("sep").isspace() and not (re.search(r"\d", value) and re.search(r"[A-Za-z\W_]", value)):
            continue  # "密码 reset" / "密码 123": only password-shaped values without a separator word
        out.append(("password", *_group_span(m, "value")))
    for pattern in (_PASSWORD_SHORT, _USER_SLASH_PASS, _EMAIL_SLASH_PASS, _LABELLED_PAIR):
        for m in pattern.finditer(text):
            value = m.group("value").rstrip(".,;:)]}\"'")
            if len(value) < 3 or value.lower() in _PASSWORD_STOPWORDS or _PLACEHOLDER_VALUE.match(value):
                continue
            if pattern is not _PASSWORD_SHORT and not (re.search(r"\d", value) and re.search(r"[A-Za-z]", value)):
                continue  # "user / admin" is a role pair, not a password
            if value.isdigit() and len(value) < 6:
                continue  # "tests pass: 312 of 312"
            out.append(("password", *_group_span(m, 1)))
    for m in _URL_CREDENTIALS.finditer(text):
        out.append(("password", *m.span(1)))
    return out


def _find_contacts(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _EMAIL.finditer(text):
        local = m.group(0).split("@", 1)[0].lower()
        if local == "git" and text[m.end() : m.end() + 1] == ":":
            continue  # git@github.com:org/repo.git is a remote, not a mailbox
        out.append(("email", m.start(), m.end()))
    for m in _CN_ID.finditer(text):
        if cn_id_valid(m.group(0)):
            out.append(("cn_id", m.start(), m.end()))
    for m in _CARD.finditer(text):
        raw = m.group(0)
        digits = re.sub(r"[ -]", "", raw)
        if not card_valid(digits):
            continue
        groups = re.split(r"[ -]", raw)
        if len(groups) > 1 and (any(len(g) < 3 for g in groups) or len(set(re.findall(r"[ -]", raw))) > 1):
            continue  # "1 2345 6789 ..." or mixed separators: a list of numbers, not a card
        out.append(("card", m.start(), m.end()))
    for pattern in (_CN_MOBILE_PAREN, _CN_MOBILE):
        for m in pattern.finditer(text):
            out.append(("phone", m.start(), m.end()))
    for m in _CN_LANDLINE.finditer(text):
        out.append(("phone", m.start(), m.end()))
    for m in _INTL_PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 8 <= len(digits) <= 15:
            out.append(("phone", m.start(), m.end()))
    for m in _NANP.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if digits[0] in "23456789" and digits[3] in "23456789":
            out.append(("phone", m.start(), m.end()))
    return out


def _find_card_codes_and_addresses(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CVV.finditer(text):
        out.append(("cvv", *m.span("value")))
    for pattern in (_EN_ADDRESS, _PO_BOX):
        for m in pattern.finditer(text):
            out.append(("address", m.start(), m.end()))
    for m in _ZH_ADDRESS.finditer(text):
        # The region prefix is greedy over any Han characters: keep the sentence's own words
        # ("公司搬到了", "父母家的地址是") out of the span by cutting after the last lead-in
        # marker that comes before the first place suffix.
        span = m.group(0)
        first_place = re.search(r"省|自治区|市|区|县|路|街|大道|巷|弄|胡同", span)
        head = span[: first_place.start()] if first_place else ""
        leads = list(_ZH_ADDRESS_LEAD.finditer(head))
        out.append(("address", m.start() + (leads[-1].end() if leads else 0), m.end()))
    return out


_FINDERS: tuple[Callable[[str], list[Span]], ...] = (_find_secrets, _find_passwords, _find_contacts, _find_card_codes_and_addresses)


def find_sensitive(text: str, kinds: Iterable[str] | None = None) -> list[Finding]:
    """Non-overlapping findings, left to right; on overlap the higher-priority kind (then the longer span) wins."""
    wanted = set(kinds) if kinds is not None else set(KINDS)
    spans = [s for finder in _FINDERS for s in finder(text) if s[0] in wanted and s[2] > s[1]]
    spans.sort(key=lambda s: (_PRIORITY[s[0]], -(s[2] - s[1]), s[1]))
    taken: list[Finding] = []
    for kind, start, end in spans:
        if all(end <= f.start or start >= f.end for f in taken):
            taken.append(Finding(kind, start, end))
    return sorted(taken, key=lambda f: f.start)


def redact(text: str, kinds: Iterable[str] | None = None) -> RedactionResult:
    """Replace every sensitive value in ``text`` with ``[REDACTED:<kind>]``.

    ``findings`` carry offsets into the original ``text``.
    """
    if not text:
        return RedactionResult(text or "", [])
    findings = find_sensitive(text, kinds)
    if not findings:
        return RedactionResult(text, [])
    parts: list[str] = []
    cursor = 0
    for f in findings:
        parts.append(text[cursor : f.start])
        parts.append(placeholder(f.kind))
        cursor = f.end
    parts.append(text[cursor:])
    return RedactionResult("".join(parts), findings)


def redactor(text: str) -> tuple[str, list[str]]:
    """Adapter for the write pipeline's ``Redactor`` protocol: (new text, kinds found)."""
    result = redact(text)
    return result.text, result.kinds
