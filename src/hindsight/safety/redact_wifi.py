"""A Wi-Fi password told as what the Wi-Fi "is", with no password word (round 35, blind r33): "guest Wi-Fi at the
Harbour Inn is Gull$Nest42", "the wifi in the back office is Latte*7731", "店里的WiFi是Mocha#5520", "客房无线网：Sea!Breeze2024".

What a Wi-Fi "is" may be its network's name ("the Wi-Fi is Pawsome_5G", "HarbourInn-Guest"), so the value must be
shaped like a password and not like a name: letters, a digit and a symbol other than the "_", "-" and "." names are
joined with (!, @, #, $, %, ^, &, *, ?, ~, +, =). A name's word between the cue and the value (name, SSID, network,
called, 名, 叫) keeps it, as does a word that says what the Wi-Fi's state is ("is down", "is slow": no digit, no symbol).
"""

from __future__ import annotations

import re

from hindsight.safety.validators import PLACEHOLDER_VALUE

Span = tuple[str, int, int]

_VALUE = r"[\"'“‘]?(?P<value>[!-~]{6,32}?)[\"'”’]?(?=[\s,;，。；、)）]|[.!?](?:\s|$)|[\u4e00-\u9fff]|$)"
_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?:wi-?fi|wlan|hotspot)(?![A-Za-z])(?P<between>(?:\s+(?:at|in|for|of|on)\s+[^\n.;:!?]{1,40}?)?)"
    r"\s*(?:\bis\b|[:=])\s*" + _VALUE
)
_ZH = re.compile(r"(?i)(?:(?<![A-Za-z])wi-?fi(?![A-Za-z])|无线网络?|热点)(?P<between>[\u4e00-\u9fff]{0,4}?)(?:是|为|：|:)\s*" + _VALUE)
_NAME_WORD = re.compile(r"(?i)\b(?:name[ds]?|ssid|network|called)\b|名|叫")
_SYMBOL = re.compile(r"[!@#$%^&*?~+=]")


def _password_shaped(value: str) -> bool:
    """Letters, a digit and a password's symbol; not a URL or a mailbox."""
    if "://" in value or re.search(r"@[A-Za-z0-9-]+\.[A-Za-z]", value):
        return False
    return bool(re.search(r"[A-Za-z]", value) and re.search(r"\d", value) and _SYMBOL.search(value.rstrip("!?")))


def find_wifi_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_EN, _ZH):
        for m in pattern.finditer(text):
            value = m.group("value")
            if _NAME_WORD.search(m.group("between")) or PLACEHOLDER_VALUE.match(value) or not _password_shaped(value):
                continue
            out.append(("password", *m.span("value")))
    return out
