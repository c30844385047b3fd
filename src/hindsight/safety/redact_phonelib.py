"""Phones in the national forms no hand-written reader takes, read by libphonenumber's data (round 46, issue 10).

The hand-written readers of ``redact_phones`` know a few countries' shapes; a German "030 / 1234 5678", a Spanish
"612 48 93 07", a Belgian "0450 00 12 34" or a Brazilian "(11) 96123-4567" escaped them. The ``phonenumbers`` package
(Google's libphonenumber metadata, maintained upstream) knows every country's numbering plan *and how its numbers
are grouped when written*. A digit run with separators is a phone here only when some country's plan both accepts
the number and writes it with exactly the text's grouping (``Leniency.EXACT_GROUPING``): an order number, a date, a
version, an ISBN, a coordinate or a lottery line is valid in some plan now and then, but almost never grouped the way
that plan writes its phones. What the grouping cannot tell - an order, invoice, build or batch number written like a
phone, a time range "0900-1730" - the context rules below take out; public lines are kept later by ``redact_vet``
like every other phone.

The package is imported lazily; without it (or with ``ON`` False) the reader finds nothing.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from typing import Any

from hindsight.safety.redact_phones import ascii_phone_form, find_phones, is_quantity

Span = tuple[str, int, int]

ON = False  # measured, NOT shipped (round 46): held out it moved 2 released rows down (docs/benchmarks.md)
# The order / invoice / build noun read for the hand-written readers' phones too (``find_all_phones``). Measured, NOT
# shipped (round 46): held out it unredacted one non-PII text's business line for a wrong reason ("开发票这类...请打 X":
# 发票 is not the number's noun), which the declared rule does not allow.
ID_NOUN_VETO = False
# The countries whose plans are read. Each costs one parse per candidate, so the list stays short: the countries the
# released and our own sets write numbers of, and their neighbours' forms.
REGIONS: tuple[str, ...] = ("GB", "IE", "DE", "AT", "CH", "FR", "BE", "NL", "ES", "IT", "PT", "PL", "SE", "US", "BR", "RU",
                            "AU", "JP", "KR", "IN", "CN", "HK", "TW")

# A digit run with separators (space, dot, hyphen, slash, brackets) that no letter, digit group or decimal touches.
_CANDIDATE = re.compile(r"(?<![\w.,:/+-])(?<!\d )\+?\(?\d[\d ()./-]{6,22}\d(?![\w-]|[.,:/]\d| \d)")
_SEPARATED = re.compile(r"\d[ ()./-]+\d")
_FRENCH_DOTS = re.compile(r"0\d(?:\.\d{2}){4}")  # "01.42.68.53.00" is a phone, dotted
_DOTTED = re.compile(r"\(?\d{1,4}(?:\.\d{1,4}){2,}\)?")  # an IP address or a version ("192.168.10.21", "124.0.6367.91")
# The number is an order, invoice, build, tracking or reference number (EN, DE, FR, ES, IT, ZH nouns) ...
_ID_NOUN = re.compile(
    r"(?i)(?:\b(?:order|invoice|inv|ref|reference|tracking|serial|build|version|release|ticket|case|booking|confirmation|"
    r"policy|isbn|issn|sku|item|receipt|transaction|txn|bestellnummer|bestellung|rechnung|rechnungsnummer|auftrag|"
    r"auftragsnummer|kundennummer|commande|facture|pedido|factura|ordine|fattura|patch|kb)\b|"
    r"订单号?|单号|发票号?码?|编号|型号|版本号?|序列号|批次|流水号|工单号?)[^\n\d]{0,14}$")
# ... or "No. / Nr. / n° / #" with no phone word before it ("Rechnung Nr. ...", "Commande n° ...").
_NUMBER_SIGN = re.compile(r"(?i)(?<!phone )(?<!tel )(?<!tel\. )(?<!mobile )(?<!fax )(?:\bno\.|\bnr\.?|\bn[°º]|#)\s*$")
_DATE = re.compile(r"^(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2})$")
_CLOCK_RANGE = re.compile(r"^(?:[01]\d|2[0-3])[0-5]\d\s?[-/]\s?(?:[01]\d|2[0-3])[0-5]\d$")
_EXTENSION = re.compile(r"(?i)\s*(?:ext\.?|x|extension|转|分机|#).*$")


@cache
def _library() -> Any:
    """The ``phonenumbers`` module, or None where it is not installed."""
    try:
        return importlib.import_module("phonenumbers")
    except ImportError:  # pragma: no cover - the package is a dependency; a bare checkout reads no such phones
        return None


def _counted(value: str) -> bool:
    groups = [int(g) for g in re.findall(r"\d+", value)]
    steps = {b - a for a, b in zip(groups, groups[1:], strict=False)}
    return len(groups) >= 4 and len(steps) == 1


def _grouped_phones(lib: Any, window: str) -> list[tuple[int, int]]:
    """Spans in ``window`` that some region's plan accepts and groups exactly as written."""
    spans: set[tuple[int, int]] = set()
    exact = lib.Leniency.EXACT_GROUPING
    for region in REGIONS:
        try:  # a parse costs a tenth of a match: the matcher reads only where the plan accepts the number at all
            if not lib.is_valid_number(lib.parse(window, region)):
                continue
        except lib.NumberParseException:
            continue
        for m in lib.PhoneNumberMatcher(window, region, leniency=exact):
            raw = _EXTENSION.sub("", m.raw_string)
            spans.add((m.start, m.start + len(raw)))
        if spans:
            break  # one region that writes it so is enough; the first found is the widest read
    return sorted(spans)


_PHONE_WORD = re.compile(r"(?i)phone|\btel\b|mobile|\bcell|\bcall|handy|telefon|portable|móvil|cellulare|电话|手机|座机|联系")


def numbered_as_id(text: str, start: int) -> bool:
    """An order, invoice, build or reference noun (or "Nr." / "n°" / "#") right before the number, no phone word
    between: "Bestellnummer 030 1234 5678", "Commande n° 06 71 24 93 58", not "Ref: my mobile 0161 496 0732"."""
    before = text[max(0, start - 32) : start]
    m = _ID_NOUN.search(before) or _NUMBER_SIGN.search(before)
    return m is not None and not _PHONE_WORD.search(before, m.start())


def _ruled_out(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    digits = sum(c.isdigit() for c in value)
    return (not 8 <= digits <= 15 or not _SEPARATED.search(value) or _DATE.match(value) is not None
            or (_DOTTED.fullmatch(value) is not None and not _FRENCH_DOTS.fullmatch(value))
            or _CLOCK_RANGE.match(value) is not None or _counted(value) or is_quantity(text, start, end)
            or numbered_as_id(text, start))


def find_grouped_phones(text: str, taken: list[Span]) -> list[Span]:
    """Phones no other reader took (``taken``), in any country's own written grouping."""
    if not ON or not any(c.isdigit() for c in text):
        return []
    lib = _library()
    if lib is None:
        return []
    out: list[Span] = []
    for m in _CANDIDATE.finditer(text):
        if any(s < m.end() and m.start() < e for _, s, e in taken) or _ruled_out(text, m.start(), m.end()):
            continue  # the context rules are read first: they cost a regex, the plans a parse per region
        for a, b in _grouped_phones(lib, m.group(0)):
            start, end = m.start() + a, m.start() + b
            if not _ruled_out(text, start, end):
                out.append(("phone", start, end))
    return out


def find_all_phones(text: str) -> list[Span]:
    """``redact_phones.find_phones`` and, after it, the phones only a country's own grouping shows."""
    found = find_phones(text)
    if ID_NOUN_VETO:
        found = [s for s in found if not numbered_as_id(text, s[1])]
    return found + find_grouped_phones(ascii_phone_form(text), found)
