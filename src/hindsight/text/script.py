"""Which script a text is written in: Chinese ('zh') or English-like ('en')."""

from __future__ import annotations

import re
from typing import Literal

_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD_RE = re.compile(r"[A-Za-z]+")


def script_of(text: str) -> Literal["zh", "en"]:
    """'zh' when Han characters make up a real share of the letters, else 'en'.

    Used to pick per-script hygiene thresholds (the same model compresses Chinese similarities higher
    than English ones) and, at search time, to tell a cross-lingual match from a same-language one.
    """
    han = len(_HAN_RE.findall(text))
    latin_words = len(_LATIN_WORD_RE.findall(text))
    return "zh" if han and han >= latin_words * 2 else "en"
