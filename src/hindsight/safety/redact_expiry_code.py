"""A card's security code right after the card's expiry, under a short label or after a labelled expiry (redaction
round 39, issue 10).

A card record written in prose runs number, expiry, code: "6011 ... (Discover), exp 2027-05, sec 602", "Visa ...,
valid thru 2028-11, sc: 9032", "卡号 ...，有效期 2029-03，sec 558". ``redact_shapes`` reads a code after an MM/YY expiry
with no label, and under the full labels (CVV, CVC, security code); here the expiry may also be written YYYY-MM or
MM/YYYY, and the code's label may be the short one people type (sec, sc, code), or none when the expiry has its own
label (exp, expiry, valid thru, 有效期). Only in a text that names a card. Linear: two bounded patterns.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_shapes import _CARD_CONTEXT

Span = tuple[str, int, int]

_EXPIRY = r"(?:(?:0[1-9]|1[0-2])\s?[/-]\s?(?:20)?\d{2}|20\d{2}[-/](?:0[1-9]|1[0-2]))(?![\d/-])"
_VALUE = r"(?P<value>\d{3,4})(?!\d|[/.,:]\d)"
_SEP = r"\s*[,，;；|]\s*"
# "exp 2027-05, sec 602", "09/28 | sc: 9032": a short code label after any expiry.
_LABELLED_CODE = re.compile(_EXPIRY + _SEP + r"(?i:sec|s/?c|code)\.?\s*[:：#=]?\s*" + _VALUE)
# "valid thru 2028-11, 9032", "有效期 2029-03，558": no label on the code, but one on the expiry.
_LABELLED_EXPIRY = re.compile(r"(?i:\bexp(?:iry|ires|iration)?\b\.?|\bvalid\s+(?:thru|through|until)\b|有效期(?:至)?)\s*[:：]?\s*"
                              + _EXPIRY + _SEP + _VALUE + r"(?!\s*(?:[%$€£¥元]|[A-Za-z]{2,}|[\u4e00-\u9fff]))")


def find_expiry_codes(text: str) -> list[Span]:
    """Security codes after a card's expiry, in a text that names a card."""
    if not _CARD_CONTEXT.search(text):
        return []
    return [("cvv", *m.span("value")) for p in (_LABELLED_CODE, _LABELLED_EXPIRY) for m in p.finditer(text)]
