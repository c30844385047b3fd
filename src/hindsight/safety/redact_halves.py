"""The public half of a key pair, declared public by the text (redaction round 44, blind r39).

A pair's two halves often stand side by side ("appid是wx8f...，appsecret是3e9b..."; a WireGuard config's
"PrivateKey = ..." and "PublicKey = ..."), and the pair readings take the ID half with the secret one
(``redact_window.find_pair_partners``, ``redact_credentials.find_key_ids``, ``redact_roles``). When the text says a
half is public, that half stays, in either of two ways:

- right after the value, with no bracket ("PublicKey = R2lu... 可以公开", "... is public"), where
  ``redact_vet``'s bracketed declaration ("（可以公开）", "(public)") does not reach;
- by the name of its key, later in the text ("appid可以公开，secret绝对不行", "The app ID is public; the secret is not"):
  the key named right before the value (its label, letters and digits, or 公钥 / 应用ID) is declared public by a
  name that ends in the same letters, case, spaces, "_" and "-" aside.

A question ("可以公开吗？", "is it public?") declares nothing. Bounded patterns: linear in the text.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

_DECLARATION = (r"(?:可以公开|能公开|是公开的|可公开|不用保密|不需要保密|无需保密|不是秘密|"
                r"(?i:(?:is|are)\s+(?:public|not\s+(?:a\s+)?secret|safe\s+to\s+share|fine\s+to\s+share)|can\s+be\s+(?:public|shared)))"
                r"(?![^\n。.！!]{0,6}[吗?？])")
_RIGHT_AFTER = re.compile(r"[ \t]*[,，]?[ \t]*(?:也|都|本身|就)?\s*" + _DECLARATION)
# The key right before the value: a label of letters, digits, "_", "-" or a space between words, or a Chinese key
# noun, then a separator.
_LABEL_BEFORE = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z][A-Za-z0-9_-]*)?|公钥|应用ID|应用id)[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?$"
)
_DECLARED = re.compile(_DECLARATION)
# The name a declaration is said of, read back from the declaration (at most 60 characters).
_NAME_BEFORE = re.compile(r"(?P<name>(?<![A-Za-z0-9_-])[A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z][A-Za-z0-9_-]*){0,2}|公钥|应用ID|应用id)\s*(?:也|都|本身|就)?\s*$")


def _norm(name: str) -> str:
    return re.sub(r"[ _-]+", "", name).lower()


_AT_MOST = 8


@lru_cache(maxsize=4)
def _declarations(text: str) -> tuple[tuple[int, str], ...]:
    """Each declaration's start and the name it is said of; one pass and one bounded look back each, once per text."""
    out = []
    for d in _DECLARED.finditer(text):
        name = _NAME_BEFORE.search(text, max(0, d.start() - 60), d.start())
        if name is not None:
            out.append((name.start(), _norm(name.group("name"))))
    return tuple(out)


def named_public(text: str, start: int, end: int) -> bool:
    """Is the value at ``text[start:end]`` declared public right after it, or by its key's name later in the text?"""
    if _RIGHT_AFTER.match(text, end):
        return True
    found = _declarations(text)
    first = bisect.bisect_left(found, (end, ""))
    later = [name for _, name in found[first : first + _AT_MOST]]  # a bounded number: linear however many findings
    if not later:
        return False
    label = _LABEL_BEFORE.search(text, max(0, start - 40), start)
    if label is None:
        return False
    key = _norm(label.group("label"))
    return len(key) >= 2 and any(name.endswith(key) for name in later)
