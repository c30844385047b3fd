"""Checksums and shape tests that tell a real identifier from a number that merely looks like one.

Used by the redactor (:mod:`hindsight.safety.redact`): a card number must pass Luhn, an IBAN
ISO 7064 mod-97, a PRC resident ID the GB 11643 check character, a US SSN the SSA's number
ranges; a token must look random (entropy, character classes), a labelled value must not be a template
placeholder (``PLACEHOLDER_VALUE``), and a matched value ends before trailing punctuation (``group_span``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date


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


# IBAN lengths by country (ISO 13616 registry); a code outside it is no IBAN.
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AT": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GI": 23, "GL": 18, "GR": 27, "HR": 21,
    "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "MC": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26, "UA": 29,
    # round 19: the rest of the registry, so that a code outside it ("SF1408823951627", an SF Express waybill that
    # passed mod 97 by chance) is no IBAN
    "AL": 28, "AZ": 28, "BA": 20, "BI": 27, "BY": 28, "CR": 22, "DJ": 27, "DO": 28, "EG": 29, "FK": 18, "GE": 22,
    "GT": 28, "IQ": 23, "LC": 32, "LY": 25, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "NI": 28, "OM": 23,
    "PS": 29, "RU": 33, "SC": 31, "SD": 18, "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "VA": 22, "VG": 24,
    "XK": 20, "YE": 30,
}


def iban_shape(value: str) -> bool:
    """A registered country's IBAN length and form, the mod-97 check not asked: a typo or a made-up check pair is still
    written as somebody's account (the caller asks for a bank or payment word around it)."""
    iban = re.sub(r"[\s-]", "", value).upper()
    if not (re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban) and _IBAN_LENGTHS.get(iban[:2]) == len(iban)):
        return False
    # Check digits run 02-98 in every issued IBAN; "DE00 0000 ..." and a run of one digit are a form's placeholder.
    return 2 <= int(iban[2:4]) <= 98 and len(set(iban[4:])) >= 4


def iban_valid(value: str) -> bool:
    """ISO 13616 IBAN: country code, length, and the ISO 7064 mod-97 check (remainder 1)."""
    iban = re.sub(r"[\s-]", "", value).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    if _IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_ID_PROVINCES = frozenset(
    ["11", "12", "13", "14", "15", "21", "22", "23", "31", "32", "33", "34", "35", "36", "37", "41", "42", "43", "44", "45", "46", "50", "51", "52", "53", "54", "61", "62", "63", "64", "65", "71", "81", "82", "83", "91"]
)


def cn_id_checksum(first17: str) -> str:
    """GB 11643 (ISO 7064 MOD 11-2) check character for the first 17 digits."""
    return _ID_CHECK[sum(int(c) * w for c, w in zip(first17, _ID_WEIGHTS, strict=True)) % 11]


def cn_id_shape(value: str, today: date | None = None) -> bool:
    """18 characters, a province code and a real past birth date (the check character not tested)."""
    value = re.sub(r"[\s-]", "", value).upper()
    if len(value) != 18 or not value[:17].isdigit() or not (value[17].isdigit() or value[17] == "X"):
        return False
    if value[:2] not in _ID_PROVINCES:
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    return date(1880, 1, 1) <= born <= (today or date.today())


def cn_id_valid(value: str, today: date | None = None) -> bool:
    """An 18-character PRC resident ID: province code, a real past birth date, checksum."""
    value = re.sub(r"[\s-]", "", value).upper()
    return cn_id_shape(value, today) and cn_id_checksum(value[:17]) == value[17]


def ssn_valid(value: str) -> bool:
    """A US Social Security number in an issuable range (no 000/666/9xx area, 00 group, 0000 serial)."""
    digits = re.sub(r"[\s-]", "", value)
    if len(digits) != 9 or not digits.isdigit():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def ipv4_valid(value: str) -> bool:
    parts = value.split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 and (p == "0" or not p.startswith("0")) for p in parts)


def shannon_entropy(value: str) -> float:
    """Bits per character; random tokens score ~4-6, words ~2.5-3.5."""
    if not value:
        return 0.0
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


_CLASSES = tuple(re.compile(p) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[_\-./+=~]"))


def looks_random(value: str, min_len: int = 12) -> bool:
    """Long, mixed character classes, high entropy: a generated token, not a word or an identifier."""
    classes = sum(bool(p.search(value)) for p in _CLASSES)
    return len(value) >= min_len and classes >= 2 and shannon_entropy(value) >= 3.0


def itin_valid(value: str) -> bool:
    """A US Individual Taxpayer Identification Number: 9xx-GG-xxxx with the group in 50-65, 70-88, 90-92 or 94-99."""
    digits = re.sub(r"[\s-]", "", value)
    if len(digits) != 9 or not digits.isdigit() or digits[0] != "9":
        return False
    group = int(digits[3:5])
    return 50 <= group <= 65 or 70 <= group <= 88 or 90 <= group <= 92 or 94 <= group <= 99


_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
               **dict(zip("JKLMN", range(1, 6), strict=True)), "P": 7, "R": 9,
               **dict(zip("STUVWXYZ", range(2, 10), strict=True))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_valid(value: str) -> bool:
    """A 17-character vehicle identification number whose 9th character is its ISO 3779 / FMVSS 115 check digit."""
    vin = value.upper()
    if len(vin) != 17 or any(ch not in _VIN_VALUES for ch in vin):
        return False
    total = sum(_VIN_VALUES[ch] * w for ch, w in zip(vin, _VIN_WEIGHTS, strict=True)) % 11
    return vin[8] == ("X" if total == 10 else str(total))


_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5), (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7), (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3), (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4), (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7), (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def verhoeff_valid(digits: str) -> bool:
    """The Verhoeff check (Aadhaar numbers carry it in their last digit)."""
    if not digits.isdigit():
        return False
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


# A template value, not a secret: "<your-key>", "${TOKEN}", "changeme", "os.environ[...]".
PLACEHOLDER_VALUE = re.compile(
    r"^(?:<.*|\$\{.*|\$\(.*|\$[A-Za-z_]+\}?|\{\{?[^}]*\}?\}?|%\w+%?|x{3,}|\*{3,}|\.{3,}|your[_-].*|my[_-].*|changeme|example.*|placeholder|redacted|"
    r"\[redacted.*|null|none|undefined|true|false|todo|tbd|env\..*|os\.environ.*|process\.env.*|secrets\..*|settings\..*)$",
    re.IGNORECASE,
)


def group_span(match: re.Match[str], group: int | str = 1) -> tuple[int, int]:
    """The span of a matched value; trailing sentence punctuation belongs to the sentence, not the secret."""
    start, end = match.span(group)
    value = match.group(group)
    stripped = value.rstrip(".,;:)]}>\"'”。，；")
    return start, end - (len(value) - len(stripped))

# Round 17: a value written from filler words ("test-key-000", "dummy_token_1234", "fake-secret"): a fixture's or a
# template's stand-in, not a credential. Every part is a filler word or a trivial digit run, and one part says so.
_FILLER_MARK = frozenset({"test", "testing", "dummy", "fake", "sample", "demo", "example", "placeholder", "changeme", "foo", "mock"})
_FILLER = _FILLER_MARK | frozenset({"key", "token", "secret", "password", "pass", "pwd", "api", "app", "user", "local", "dev", "my",
                                    "your", "abc", "xyz", "bar", "baz", "value", "string", "here",
                                    # round 30: the words that join fillers into a phrase ("dummy-token-for-test")
                                    "for", "of", "only", "not", "real", "the", "ci", "unit", "use", "in"})


def placeholder_words(value: str) -> bool:
    parts = [p.lower() for p in re.split(r"[-_.]+", value) if p]
    if len(parts) < 2 or not any(p in _FILLER_MARK for p in parts):
        return False
    return all(p in _FILLER or (p.isdigit() and (len(set(p)) == 1 or p in "1234567890")) for p in parts)


# Round 25: a template's stand-in in any finder's hands ("Bearer YOUR_ACCESS_TOKEN", "API_KEY_HERE", "xxxx-xxxx",
# "<token>", "[your key]", "示例密钥", "请替换为你的密钥"; what follows a label inside a placeholder's brackets, "<密码>@host"):
# a name of where a secret goes, not a secret. An all-capitals
# name counts only with no digit and a credential word in it (``ACCESS_TOKEN``; "BLUE_SKY_RIVER" may be a passphrase).
_STAND_IN = re.compile(
    r"(?i)^(?:[>\]}）」】].*|.*[_-](?:here|goes[_-]here)|(?:insert|replace|put|paste|enter|add)[_-].*|\[[^\]]*\]|[x*•●#]{2,}(?:[-_ .][x*•●#]{2,})+|[x*•●]{4,}|…+|"
    r"(?:你的|您的|自己的|示例|样例|替换|请替换|请填写|填写|待填|此处|这里填)[\s\S]*)$"
)
_CAPS_NAME = re.compile(r"[A-Z]+(?:_[A-Z]+)+")
_CAPS_WORD = re.compile(r"(?:^|_)(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PASSWD|PWD|CREDENTIALS?|ID|HERE|VALUE|APIKEY)(?:_|$)")


def stand_in_value(value: str) -> bool:
    """A template's stand-in written where a secret goes, not a secret (round 25; ``PLACEHOLDER_VALUE`` and more)."""
    if PLACEHOLDER_VALUE.match(value) or _STAND_IN.match(value) or placeholder_words(value):
        return True
    return bool(_CAPS_NAME.fullmatch(value) and _CAPS_WORD.search(value))
