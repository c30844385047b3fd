"""Round 20 of redaction (blind round 21's misses by kind): a value that is the note's subject, and values left
because no label named them.

Facts the note is about (reported as kind ``public``, so :mod:`redact_vet` keeps them out of every finding and of the
tagger):

- a property as the object of a property transaction: "the listed property at 22 Quay Street", "listing ID for 12
  Orchard Row", "Tenant screening for 12 Orchard Row:", a payment "reference 'Plot 14 Wren Lane'". The house is what
  is being sold, let or paid for, not where a person lives; "lives at", "home address", "current address" or a
  possessive before it still make it a person's address (found as before).
- a fleet vehicle's plate ("司机老邓 ... 车牌渝B·7K233", "跑重庆到成都这条线，车号渝A·3L882"): a work truck named by its
  driver and route is the company's asset; a plate named as one's own ("我的车牌", "老婆的车", "My plate") stays a
  personal identifier.

Secrets no label named (reported with their kind):

- a code given in apposition to the words that name it ("read me the SMS code over the phone, 3308, so I could");
- a document number after what it is for ("passport number for the student visa letter: PAA847219");
- a NANP number whose exchange starts with 0 or 1 (not dialable, so the shape alone is not a phone; writers use the
  fictional 555 block this way) right after a phone cue ("personal mobile for after-hours callbacks: (555) 014-2297");
- a UK driving licence number by its own shape (5 + 6 + 2 + 1 + 2: "MORGA753116SM9IJ"), after "licence" in its sentence.

Every pattern is bounded (no unbounded backtracking), so each finder is linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_ids import _CN_PLATE, _in_sentence

Span = tuple[str, int, int]

_STREET = (r"(?:Row|Street|St|Lane|Ln|Road|Rd|Close|Avenue|Ave|Drive|Dr|Way|Court|Ct|Place|Pl|Crescent|Terrace|Gardens|"
           r"Square|Hill|Mews|Walk|Grove|Park|Quay|Wharf|Parade|Green|Rise|Boulevard|Blvd)")
_PROPERTY_ADDRESS = re.compile(
    r"(?i:\b(?:listed|listing|for[- ]sale|let|rental|investment)\s+(?:property|house|flat|home|unit|plot)\s+(?:at|on)\s+|"
    r"\blisting\s+(?:id|number|no\.?|page|photos?)?\s*(?:for|at|of)\s+|"
    r"\b(?:tenant|tenancy|rental|letting)\s+(?:screening|application|check|checks|inspection)\s+(?:for|at)\s+|"
    r"\b(?:viewing|valuation|survey|open\s+house|offer|completion|exchange)s?\s+(?:for|at|on)\s+(?:the\s+property\s+at\s+)?|"
    r"\breference\s*[:：]?\s*['\"‘“]?)"
    r"(?P<value>(?:Plot\s+|Lot\s+|Unit\s+)?\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}" + _STREET + r")\b"
)
# A personal cue in the words before the cue: the address is where someone lives or receives mail after all.
_PERSONAL_BEFORE = re.compile(r"(?i)\b(?:lives?|living|home|current\s+address|moved\s+to|his|her|their|my|ship|deliver|mail)\b[^.;\n]{0,40}$")

_FLEET = re.compile(r"司机|货车|卡车|车队|货运|物流|运输|跑[\u4e00-\u9fff]{1,8}线|线路|(?i:\b(?:truck|lorry|van|fleet|driver|haulage|route)\b)")
_OWN_CAR = re.compile(r"我的|我家|我们家|老婆|老公|爱人|太太|先生的|(?i:\b(?:my|our)\s+(?:car|plate|vehicle)\b)")

_CODE_APPOSED = re.compile(
    r"(?i)\b(?:sms|text|verification|one[- ]time|login|sign[- ]?in|security|auth(?:entication)?|2fa|mfa|otp|reset)\s+"
    r"(?:code|pin|passcode)\b[^\n.;!?\d]{0,40}?[,:—–-]\s*(?P<value>\d{4,8})(?=\s*[,;.)]|\s*$|\s+(?:so|and|to|for|which)\b)"
)
_DOC_FOR = re.compile(
    r"(?i)\b(?:passport|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|national\s+id|id\s+card|residence\s+permit|visa)\s+"
    r"(?:number|no\.?|#)\s+(?:for|on)\s+[^\n:：;.]{1,40}?[:：]\s*(?P<value>(?-i:[A-Z]{0,3}\d{6,9}|[A-Z]{1,2}\d[A-Z0-9]{5,9}))(?![A-Za-z0-9])"
)
_NANP_ANY = re.compile(r"(?<![\w.-])(?:\+?1[- ])?\(\d{3}\)\s?[01]\d{2}[.-]\d{4}(?![\w-])|(?<![\w.(-])\d{3}[.-][01]\d{2}[.-]\d{4}(?![\w-])")
_PHONE_BEFORE = re.compile(
    r"(?i)\b(?:phone|mobile|cell|cellphone|tel|telephone|number|callbacks?|call|text|reach|line|whatsapp)\b[^\n.;!?\d]{0,48}$|"
    r"(?:手机|电话|号码)[^\n。；\d]{0,12}$"
)
_UK_LICENCE = re.compile(r"(?<![A-Za-z0-9])[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2}(?![A-Za-z0-9])")
_LICENCE_BEFORE = re.compile(r"(?i)\blicen[cs]e\b[^\n.;]{0,40}$")


def find_subject_values(text: str) -> list[Span]:
    """Ranges that are the note's subject, reported as ``public`` (kept, and shielded from the tagger)."""
    out: list[Span] = []
    for m in _PROPERTY_ADDRESS.finditer(text):
        if not _PERSONAL_BEFORE.search(text, max(0, m.start() - 48), m.start()):
            out.append(("public", *m.span("value")))
    for m in _CN_PLATE.finditer(text):
        if _in_sentence(_FLEET, text, m.start(), m.end()) and not _in_sentence(_OWN_CAR, text, m.start(), m.end()):
            out.append(("public", m.start(), m.end()))
    return out


def find_unlabelled_values(text: str) -> list[Span]:
    """Secrets no label named: an apposed code, a document number after its purpose, an undialable NANP number after a
    phone cue, a UK driving licence number."""
    out: list[Span] = [("otp", *m.span("value")) for m in _CODE_APPOSED.finditer(text)]
    out += [("national_id", *m.span("value")) for m in _DOC_FOR.finditer(text)]
    for m in _NANP_ANY.finditer(text):
        if _PHONE_BEFORE.search(text, max(0, m.start() - 60), m.start()):
            out.append(("phone", m.start(), m.end()))
    for m in _UK_LICENCE.finditer(text):
        if _LICENCE_BEFORE.search(text, max(0, m.start() - 60), m.start()):
            out.append(("national_id", m.start(), m.end()))
    return out
