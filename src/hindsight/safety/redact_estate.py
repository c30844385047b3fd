"""A Chinese home address written in English unit first - "Room 1101, Building 6, Sunshine Garden, Nanshan District,
Shenzhen 518052" - and a home address given with what it is for between its label and the value ("Home address for
the embassy form: Flat 1203, Tower 2, Riverside Court, ...") (round 35, blind r33).

``redact_address._CN_EN_ADDRESS`` reads the English-written form by its house number and road ("No. 18 Jianshe North
Road", "Lane 12"); a flat in a named estate has neither. As in Chinese (``_BUILDING_ROOM``: a building with its room
number is a home), a room or flat, a building or tower and an estate's name ending in a residential word (Garden,
Court, Residence, Estate, Village, Community, Compound, Mansion, Apartments, Jiayuan, Huayuan, Xiaoqu ...) read as a
home's street line; the district and the city after it stay, the postcode goes (``_EN_POSTCODE``). Under a home label
(home / residential address, residence, where a person lives), also with "for the visa letter" before its colon, one
unit part and any capitalised name will do. An organisation's or a public place's address (an office, a park, a
centre; ``is_public_address`` / ``public_address``) stays, as for every address.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_address import _EN_POSTCODE, is_public_address
from hindsight.safety.redact_public import public_address

Span = tuple[str, int, int]

_ROOM = r"\b(?:Room|Rm|Flat|Apt|Apartment|Unit|Suite)\.?\s*[\dA-Z]{1,5}(?:-\d{1,4})?"
_BUILDING = r"\b(?:Building|Bldg|Block|Blk|Tower)\.?\s*[\dA-Z]{1,4}"
_NAME = r"(?:[A-Z][a-z'-]+\s+){1,3}"
_ESTATE_WORD = (r"(?:Gardens?|Court|Residences?|Estate|Village|Community|Compound|Mansions?|Apartments|Jiayuan|Huayuan|Xiaoqu|"
                r"Xincun|Heights|Manor|Villas?)\b")
_ESTATE = re.compile(_ROOM + r",\s*" + _BUILDING + r",\s*" + _NAME + _ESTATE_WORD)
# A home label, then at most a short "for ..." before its colon: "My home address for the visa letter:".
_HOME_LABEL = re.compile(
    r"(?i)(?<![A-Za-z])(?:home\s+address|residential\s+address|residence|lives?\s+at|living\s+at|resides\s+at)"
    r"(?:\s+for\s+(?:the\s+|my\s+|his\s+|her\s+|their\s+|our\s+|a\s+|an\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)?\s*[:：-]?\s*"
)
_PLACE_NAME = r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,3}(?=,)"
_LABELLED = re.compile(_ROOM + r",\s*(?:" + _BUILDING + r",\s*)?" + _PLACE_NAME + r"|" + _BUILDING + r",\s*" + _PLACE_NAME)


def find_estate_addresses(text: str) -> list[Span]:
    spans: list[tuple[int, int]] = [m.span() for m in _ESTATE.finditer(text)]
    for label in _HOME_LABEL.finditer(text):
        m = _LABELLED.match(text, label.end())
        if m:
            spans.append(m.span())
    out: list[Span] = []
    for start, end in spans:
        if is_public_address(text, start) or public_address(text, start, end):
            out.append(("public", start, end))
            continue
        out.append(("address", start, end))
        post = _EN_POSTCODE.match(text, end)
        if post:
            out.append(("address", *post.span(next(g for g in ("zip", "ca", "au", "post") if post.group(g)))))
    return out
