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

_HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def shown(text: str) -> str:
    """HTML-escaped `text` with bidi controls and zero-width characters as visible markers."""
    return _HIDDEN.sub(lambda m: f"<span class='hidden-char' title='invisible character'>⟦U+{ord(m.group()):04X}⟧"
                                 "</span>", escape(text))


def visible(text: str) -> str:
    """`text` as plain text with bidi controls and zero-width characters as visible markers, for labels that are
    escaped where they are placed (the SVG edge graph's node labels and titles; attack round 13)."""
    return _HIDDEN.sub(lambda m: f"⟦U+{ord(m.group()):04X}⟧", text)
