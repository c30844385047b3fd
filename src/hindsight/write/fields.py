"""Every caller-supplied string of a memory, not only its content: tags and metadata values are screened
by the guard and redacted like the content (issue 9: an injection or a key hidden in metadata was stored
and returned verbatim)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from hindsight.write.redaction import redacted

if TYPE_CHECKING:
    from hindsight.write.contracts import Redactor

_MEMORY_ID = re.compile(r"mem_([0-9a-f]{32})")


def is_memory_id(value: str) -> bool:
    """A memory id (`mem_` + a random uuid4 in hex), not words in disguise: its 16 bytes do not read as text.

    Consolidation writes the ids it promoted or merged into `metadata.consolidated_from` / `merged_from`; the
    guard's classifier scored three random ids joined as one text up to 0.66 (>= T since round 18), quarantining
    a promoted lesson by chance, and redaction read an 11-digit run of an id's hex as a phone number (attack round
    40: `mem_c5c[REDACTED:phone]a28c...` named a memory that does not exist). Neither reads such an id as text. An
    id whose hex decodes to mostly printable ASCII (an order hidden in the id's shape) is read like any value."""
    match = _MEMORY_ID.fullmatch(value.strip())
    if match is None:
        return False
    raw = bytes.fromhex(match.group(1))
    return sum(32 <= b < 127 for b in raw) < 12


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON value (object keys included), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*strings_in(key), *strings_in(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def redact_value(value: Any, redactor: Redactor) -> tuple[Any, list[str]]:
    """The JSON value with every string (keys included) redacted, and the kinds found; a memory id is no text."""
    found: list[str] = []

    def walk(item: Any) -> Any:
        if isinstance(item, str) and is_memory_id(item):
            return item
        if isinstance(item, str):
            read = redacted(redactor, item)
            found.extend(read.kinds)
            return read.text
        if isinstance(item, dict):
            return {walk(k): walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    return walk(value), found
