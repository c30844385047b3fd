"""Every caller-supplied string of a memory, not only its content: tags and metadata values are screened
by the guard and redacted like the content (issue 9: an injection or a key hidden in metadata was stored
and returned verbatim)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON value (object keys included), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*strings_in(key), *strings_in(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def redact_value(value: Any, redactor: Callable[[str], tuple[str, list[str]]]) -> tuple[Any, list[str]]:
    """The JSON value with every string (keys included) redacted, and the kinds found."""
    found: list[str] = []

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            text, kinds = redactor(item)
            found.extend(kinds)
            return text
        if isinstance(item, dict):
            return {walk(k): walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    return walk(value), found
