"""Which script a text is in: one definition of the Han (CJK ideograph) ranges for every module.

`HAN` is the basic CJK Unified Ideographs block (what Chinese text is made of in practice);
`HAN_EXTENDED` adds Extension A (U+3400-U+4DBF), for rules that glue Chinese words across a gap.
`script_of` tells Chinese ('zh') from English-like ('en') text.
"""

from __future__ import annotations

import re
from typing import Literal

HAN = "\u4e00-\u9fff"
HAN_EXTENDED = "\u3400-\u9fff"
_HAN_RE = re.compile(f"[{HAN}]")
_ANY_HAN_RE = re.compile(f"[{HAN_EXTENDED}\uf900-\ufaff]")  # with compatibility ideographs
_LATIN_WORD_RE = re.compile(r"[A-Za-z]+")


def has_han(text: str) -> bool:
    """True when the text contains at least one Chinese character."""
    return _HAN_RE.search(text) is not None


def script_of(text: str) -> Literal["zh", "en"]:
    """'zh' when Han characters make up a real share of the letters, else 'en'.

    Used to pick per-script hygiene thresholds (the same model compresses Chinese similarities higher
    than English ones) and, at search time, to tell a cross-lingual match from a same-language one.
    """
    han = len(_ANY_HAN_RE.findall(text))
    latin_words = len(_LATIN_WORD_RE.findall(text))
    return "zh" if han and han >= latin_words * 2 else "en"
