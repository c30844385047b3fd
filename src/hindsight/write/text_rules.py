"""Rules every caller string meets on every backend, checked once where the input is validated.

NUL (U+0000) is the one character PostgreSQL cannot store in text or JSON: a write carrying it failed there as a
retryable `storage_error` (a resilient client retried it forever, blocking its queue) while SQLite stored it. It
is refused on every backend as `invalid_input` naming the field (attack round 5), before anything is stored.
"""

from __future__ import annotations

from typing import Any

from hindsight.errors import InvalidInputError

NUL = "\x00"


def check_text(text: str, field: str) -> str:
    """`text` unchanged, or InvalidInputError naming `field` when it holds a NUL character."""
    if NUL in text:
        raise InvalidInputError(f"{field} must not contain NUL (\\x00) characters")
    return text


def check_value(value: Any, field: str) -> Any:
    """Every string in a JSON value (keys included) passes `check_text`; `field` names where it sits."""
    if isinstance(value, str):
        check_text(value, field)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(str(key), f"{field} key")
            check_value(item, f"{field}.{key}"[:120])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_value(item, f"{field}[{i}]")
    return value


def check_fields(model: Any, fields: tuple[str, ...]) -> None:
    """The named attributes of a validated model pass `check_value` (unset ones are None and skipped)."""
    for name in fields:
        value = getattr(model, name, None)
        if value is not None:
            check_value(value, name)
