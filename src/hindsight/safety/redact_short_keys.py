"""A key named by its short name right before its value (redaction round 45, issue 10).

Map, cloud and payment consoles call the pair "ak / sk" or "appkey": "骑手导航接口用的地图ak是Gx7Lq2ZmP9vR4tWn8YcK3hJ6",
"sk: 9fQ2...", "appkey=...". The name stands alone (no letter or digit glued before or after it), a separator follows
(是 / 为 / : / = / is), and the value is a long random token (``validators.looks_random``: 16 characters at least, two
character classes, high entropy), so "sk: 10" or "ak是什么" stays.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import PLACEHOLDER_VALUE, looks_random

Span = tuple[str, int, int]

_SHORT_KEY = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:ak|sk|appkey|app_key|secretkey|accesskey|mapkey|map_key)(?![A-Za-z0-9_])"
    r"\s*(?:[:=：]|是|为|\bis\b)\s*[\"'“`]?(?P<value>[A-Za-z0-9_\-+/=~]{16,64})(?![A-Za-z0-9_\-+/=~])"
)


def find_short_keys(text: str) -> list[Span]:
    """A random token after a short key name ("ak是X", "sk: X", "appkey=X")."""
    return [("api_key", *m.span("value")) for m in _SHORT_KEY.finditer(text)
            if looks_random(m.group("value"), 16) and not PLACEHOLDER_VALUE.match(m.group("value"))]
