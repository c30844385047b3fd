"""Which script a text is in: one definition of the Han (CJK ideograph) ranges for every module.

`HAN` is the basic CJK Unified Ideographs block (what Chinese text is made of in practice);
`HAN_EXTENDED` adds Extension A (U+3400-U+4DBF), for rules that glue Chinese words across a gap.
"""

from __future__ import annotations

import re

HAN = "\u4e00-\u9fff"
HAN_EXTENDED = "\u3400-\u9fff"
_HAN_RE = re.compile(f"[{HAN}]")


def has_han(text: str) -> bool:
    """True when the text contains at least one Chinese character."""
    return _HAN_RE.search(text) is not None
