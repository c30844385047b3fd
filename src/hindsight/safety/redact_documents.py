"""An identity document's number where no label stands right before it (redaction round 38, issue 10).

Blind round 36 wrote two such places, each a kind of its own:

- **a record's key names the document** (``"dni": "48291736K"``, ``'passportNumber': 'PA77...'``, YAML ``nie: X12...``,
  ``"回乡证": "H12..."``): ``redact_records`` splits the key into words and asks :func:`document_key`; the value is the
  number when it has a document number's shape (:func:`document_number`). A key about the document but not its number
  (``passport_expiry``, ``passport_country``, ``dni_verified``) holds no such value, or ``redact_records``' setting
  words drop it;
- **the number is given in the sentence after the one that names the document** ("the agent wants my passport number
  AGAIN. it's C4RJ7T2K9, same as last time", "她又问我护照号码。是 E39182734", "回乡证号码又要了，就是 M12345678"): the
  next sentence or clause (at most 48 characters on, no digit between) opens with a pronoun's lead - it's / it is /
  that's / mine is / 是 / 就是 / 号码是 - and then the number, which ends there. A lead with no number after it ("It's
  valid until 2035", "It's on page 2") and a flight or an order in that place ("It's ORD2231") give none.

A document number: capitals and digits, 6 - 20 characters, no lower case, at least five digits, or three in eight
characters or more (K8TR2M4P7) - the rule the document cue's own reader (``redact_cues``) keeps. Linear: every
pattern is bounded and each cue is read once.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import DOC_CUE

Span = tuple[str, int, int]

_NUMBER = re.compile(r"[A-Z]{0,4}\d[A-Z0-9]{4,19}|\d{6}(?:19|20)\d{9}[\dX]")
_KEY_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# A key's words that name an identity document (one word, or a pair: "driver license", "residence permit").
_DOCUMENT_WORDS = {"passport", "dni", "nie", "nif", "curp", "cedula", "nric", "hkid", "nino", "pesel", "bsn", "aadhaar",
                   "personalausweis", "reisepass", "tfn",
                   # round 40: the passport's and the identity card's local names
                   "pasaporte", "passeport", "passaporto", "paspoort", "paszport", "ausweis", "ausweisnummer", "passnummer"}
_DOCUMENT_PAIRS = ({"driver", "license"}, {"driver", "licence"}, {"driving", "licence"}, {"driving", "license"},
                   {"residence", "permit"}, {"work", "permit"}, {"travel", "permit"}, {"return", "permit"},
                   {"green", "card"}, {"national", "insurance"}, {"tax", "file"})
_DOCUMENT_HAN = re.compile(r"护照|回乡证|通行证|台胞证|旅行证|居留证|居留许可|驾驶证|驾照|军官证|绿卡|"
                           r"パスポート|旅券|在留カード|運転免許|マイナンバー|여권|외국인등록|운전면허|주민등록")  # round 40: JP / KR


def document_number(value: str) -> bool:
    """Capitals and digits in an identity document number's shape (no date, no word)."""
    if not _NUMBER.fullmatch(value):
        return False
    digits = sum(ch.isdigit() for ch in value)
    return digits >= 5 or digits >= 3 and len(value) >= 8


def document_key(key: str) -> bool:
    """Does a record's key name an identity document ("dni", "passport_no", "passportNumber", "回乡证")?"""
    if _DOCUMENT_HAN.search(key):
        return True
    words = {w.lower() for w in _KEY_WORDS.findall(key)}
    return bool(words & _DOCUMENT_WORDS) or any(pair <= words for pair in _DOCUMENT_PAIRS)


# A pronoun's lead and a number after it, then (looked for only before such a number) the document named in the
# sentence or clause before it: its cue, the rest of that sentence (no digit: a number there is the cue reader's), its end.
_LEAD_NUMBER = re.compile(
    r"(?<![A-Za-z])(?i:it'?s|it\s+is|its|that'?s|that\s+is|mine'?s|mine\s+is|here\s+it\s+is|(?:号码?)?是|就是|号码?为)\s*[:：]?\s*[\"'“]?"
    r"(?P<value>[A-Z0-9]{6,20})(?![A-Za-z0-9/-])"
)
_NAMED_BEFORE = re.compile(
    DOC_CUE + r"[^\d\n.!?。！？;；,，—–]{0,48}?(?:[.!?]\s+|[。！？;；,，]\s*|\s*[—–]\s*|\s+-\s+)\Z"
)
_REACH = 80  # the cue, the rest of its sentence and the break before the lead


def find_followed_numbers(text: str) -> list[Span]:
    """A document's number given in the sentence or clause right after the one that names the document."""
    out: list[Span] = []
    for m in _LEAD_NUMBER.finditer(text):
        if document_number(m.group("value")) and _NAMED_BEFORE.search(text[max(0, m.start() - _REACH) : m.start()]):
            out.append(("national_id", *m.span("value")))
    return out


# Round 40: an identity, health or bank document's number named by its local-language noun - Japanese, Korean and
# European names (在留カード番号, 運転免許証, 保険証, 여권번호, Steuer-ID, numéro de sécurité sociale, tessera sanitaria ...;
# 口座番号, 계좌번호, Kontonummer, RIB ...) - then, after at most 14 characters with no digit and no clause break
# ("の記号番号は", " n."), capitals and digits in up to eight groups with six digits or more: no date, no amount.
_ID_NOUN = (
    r"在留カード|個人番号|旅券番号|パスポート番号|運転免許証|免許証番号|保険証|被保険者番号|基礎年金番号|외국인등록번호|여권\s?번호|"
    r"운전면허(?:증)?\s?번호|건강보험증?\s?번호|(?i:\bSteuer-?ID\b|\bSteuer(?:identifikations)?nummer|"
    r"\b(?:Sozial|Renten|Kranken)versicherungsnummer|\bVersichertennummer|\bF(?:ü|ue)hrerscheinnummer|\bAusweisnummer|"
    r"\bnum[ée]ro\s+de\s+s[ée]curit[ée]\s+sociale|\bnum[ée]ro\s+fiscal|\bcarte\s+vitale|\bnum[ée]ro\s+de\s+passeport|"
    r"\bpermis\s+de\s+conduire|\bn[úu]mero\s+de\s+(?:la\s+)?seguridad\s+social|\bn[úu]mero\s+de\s+pasaporte|"
    r"\btessera\s+sanitaria|\bnumero\s+di\s+passaporto|\bpatente\s+di\s+guida|\bpaspoortnummer|\bburgerservicenummer|"
    r"\bnumer\s+dowodu)"
)
_BANK_NOUN = (r"口座(?:番号)?|계좌\s?(?:번호)?|(?i:\bKontonummer|\bnum[ée]ro\s+de\s+compte|\bn[úu]mero\s+de\s+cuenta|"
              r"\bconto\s+corrente|\bnumero\s+di\s+conto|\brekeningnummer|\bnumer\s+konta)|(?-i:\bRIB\b)")
_LOCAL = re.compile(r"(?:(?P<id>" + _ID_NOUN + r")|(?P<bank>" + _BANK_NOUN + r"))"
                    r"(?:[^\d\n,，.。;；、(（]|(?<=\b[nN])\.|(?<=\b[nN][rRoO])\.){0,14}?"
                    r"(?P<v>[A-Z0-9]{1,20}(?:[ -][A-Z0-9]{1,12}){0,7})(?![A-Za-z0-9])")
_GROUP_WORD = re.compile(r"[A-Z]{3,}")
_LOCAL_DATE = re.compile(r"(?:19|20)\d{2}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-(?:19|20)\d{2}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")
_AMOUNT_AFTER = re.compile(r"(?i)\s*(?:円|원|€|EUR\b|yen\b|won\b|年|月|日|歳|살|년|개|명|건|件|人|回)")


def find_local_numbers(text: str) -> list[Span]:
    """A document's or an account's number after its local-language noun."""
    out: list[Span] = []
    for m in _LOCAL.finditer(text):
        value = m.group("v")
        if (sum(ch.isdigit() for ch in value) < 6 or any(_GROUP_WORD.fullmatch(g) for g in re.split("[ -]", value))
                or _LOCAL_DATE.fullmatch(value) or _AMOUNT_AFTER.match(text, m.end("v"))):
            continue
        out.append(("national_id" if m.group("id") else "bank_account", *m.span("v")))
    return out


# Round 47 (blind r41): the document named, then in the same sentence (no digit, no sentence end between) its number
# under a number noun - "passport details for the Lhasa flight: number 533380006", "护照信息……号码E39182734".
DOC_NUMBER_NOUN = True
_NAMED_NUMBER = re.compile(
    DOC_CUE + r"[^\d\n.!?。！？;；]{0,48}?(?:(?<![A-Za-z])(?:number|no\.|nr\.|#)|号码|证号)\s*(?:is\s+|[:：#是为]\s*)?[\"'“]?"
    r"(?P<value>[A-Z0-9]{6,20})(?![A-Za-z0-9/-])"
)


def find_named_numbers(text: str) -> list[Span]:
    """A document's number under a number noun later in the sentence that names the document."""
    if not DOC_NUMBER_NOUN:
        return []
    return [("national_id", *m.span("value")) for m in _NAMED_NUMBER.finditer(text) if document_number(m.group("value"))]
