"""A national ID after its cue with the holder's name before it (round 35, blind r33): "身份证号：刘洋320106...",
"身份证：李秀兰 330102...", "ID card number: Zhang Wei, 440305...", "National ID for the train ticket: Wang Fang 1101...".

An 18-character PRC ID whose check character is right is found anywhere by its checksum (``redact_contacts``); one
whose check character is wrong needs its cue, and ``redact_ids._CUED_ID`` wants the number right after the cue's
separator - a name between them (glued, or set off by a space or a comma) left it. Here the name is two to four Han
characters (a transliterated name with "·" too) or one to four capitalised words, and the number still needs a real
province and birth date (``cn_id_shape``); a sentence that calls it a sample or its check character wrong
(``declared_invalid``) keeps it.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import declared_invalid
from hindsight.safety.validators import cn_id_shape

Span = tuple[str, int, int]

_CUE = (r"(?:身份证|身分证|身分證|居民身份证|公民身份号码|证件号码?|(?i:\bID\s+card(?:\s+(?:no\.?|number))?|\bnational\s+id(?:entity)?"
        r"(?:\s+(?:card|no\.?|number))?|\bresident\s+id(?:\s+(?:card|no\.?|number))?))")
_NAME = r"(?:[\u4e00-\u9fff]{2,4}(?:·[\u4e00-\u9fff]{2,6})?|[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,3})"
_NAMED_ID = re.compile(
    _CUE + r"[^\n\d:：。；;!?！？]{0,30}?(?:\s*(?:[:：=]|(?i:\bis\b)|是|为|号码|号)\s*){1,3}"
    + r"(?P<name>" + _NAME + r")[ \t]*[,，、]?[ \t]*(?P<value>\d{17}[\dXx])(?![A-Za-z0-9])"
)


def find_named_ids(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _NAMED_ID.finditer(text):
        if cn_id_shape(m.group("value")) and not declared_invalid(text, *m.span("value")):
            out.append(("national_id", *m.span("value")))
    return out
