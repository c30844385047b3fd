"""Text a person reads in the console as it is, not as a bidi override makes it look.

`html.escape` keeps U+202A-U+202E and U+2066-U+2069 (bidi embeddings, overrides, isolates): a memory holding
`\u202etxt.dwssap` is shown to a reviewer as `password.txt` while an agent reads the other order (the "Trojan
Source" trick; attack round 6). `shown` escapes HTML and writes each such character, and the zero-width ones, as a
visible marker (`⟦U+202E⟧`), so what the reviewer sees is what is stored. Editable fields (textareas) keep plain
`html.escape`: their value is sent back as it is.
"""

from __future__ import annotations

import re
from html import escape

# Attack round 31: also the Arabic letter mark (U+061C, a bidi control the set missed) and Unicode tag characters,
# which spell ASCII a model reads while a screen shows nothing (a memory an older version stored may hold them; new
# writes refuse them, write/text_rules.py); an emoji flag's tag sequence (U+1F3F4 ... U+E007F) is kept as it renders.
_FLAG = "\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,6}\U000e007f"
_HIDDEN = re.compile(f"({_FLAG})|[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
                     "\U000e0000-\U000e007f]")


def _marked(match: re.Match[str], html: bool) -> str:
    if match.group(1):
        return match.group(1)
    mark = f"⟦U+{ord(match.group()):04X}⟧"
    return f"<span class='hidden-char' title='invisible character'>{mark}</span>" if html else mark


def shown(text: str) -> str:
    """HTML-escaped `text` with bidi controls, zero-width and tag characters as visible markers."""
    return _HIDDEN.sub(lambda m: _marked(m, True), escape(text))


def visible(text: str) -> str:
    """`text` as plain text with bidi controls, zero-width and tag characters as visible markers, for labels that are
    escaped where they are placed (the SVG edge graph's node labels and titles; attack round 13)."""
    return _HIDDEN.sub(lambda m: _marked(m, False), text)
