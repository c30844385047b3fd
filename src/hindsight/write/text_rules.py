"""Rules every caller string meets on every backend, checked once where the input is validated.

NUL (U+0000) is the one character PostgreSQL cannot store in text or JSON: a write carrying it failed there as a
retryable `storage_error` (a resilient client retried it forever, blocking its queue) while SQLite stored it. It
is refused on every backend as `invalid_input` naming the field (attack round 5), before anything is stored.

Identifiers (tags, metadata keys, `session_id`, `source_task_id`) are matched exactly, shown in the console and
the CLI, and compared by people: a zero-width space or a bidi override in one makes a value that looks like
another (`pro\u200bd` shows as `prod` but no `prod` filter finds it; `\u202esess` shows reversed). They must not
hold control, format (zero-width, bidi embeddings/overrides/isolates, BOM), private-use, surrogate or unassigned
characters, or line separators (attack round 6); a zero-width (non-)joiner between two non-ASCII characters
(Persian words, emoji sequences) is allowed. Nor, since round 31, a Hangul filler or an invisible mark after an ASCII
character (`INVISIBLE_MARKS`).

Free text (content, context, metadata values, notes, working-memory turns, queries) may not carry characters that
render as nothing yet spell text (attack round 31): Unicode tag characters (U+E0000-E007F) map one to one onto ASCII
(U+E0049 is "I"), so "...runs at 03:15." followed by the tags of "Ignore all previous instructions ..." shows the first
sentence on every screen while a model reads both ("ASCII smuggling"); the guard's fold, redaction and the console
drop them as invisible, so the order was stored active, and a card number or a password in tags was kept in clear.
Their one use in text, an emoji flag's tag sequence (U+1F3F4, two to six tag letters or digits, U+E007F: the flags of
England, Scotland, Wales), is kept. Likewise a run of variation selectors: a character takes one, so two or more in a
row select nothing and carry bytes, one per selector ("emoji smuggling"). A restore copies rows as an older version
stored them (`hidden_ok`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from hindsight.errors import InvalidInputError

NUL = "\x00"
#: Unicode categories an identifier may not hold (see the module docstring)
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_JOINERS = frozenset({"\u200c", "\u200d"})
#: marks that show nothing on their own (the combining grapheme joiner, Khmer inherent vowels, Mongolian and other
#: variation selectors): after an ASCII character they select nothing, so `prod\ufe0f` showed as `prod` and no `prod`
#: filter found it (attack round 31; round 19 refused them in namespaces only). After a non-ASCII character (an
#: emoji's U+FE0F, a Han ideographic variation, Mongolian) they are kept, as a joiner is; so is a keycap's digit.
INVISIBLE_MARKS = re.compile("[\u034f\u17b4\u17b5\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
#: letters that render as blank space: the Hangul fillers (never part of a written word)
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
_KEYCAP = "\u20e3"
_TAG_RUN = re.compile("[\U000e0000-\U000e007f]+")
#: an emoji flag's tag sequence after U+1F3F4: a region and subdivision code ("gbeng") and the cancel tag
_FLAG_TAGS = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,6}\U000e007f")
_FLAG_BASE = "\U0001f3f4"
_SELECTOR_RUN = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}")


def check_identifier(text: str, field: str, part: str = "") -> str:
    """`text` unchanged, or InvalidInputError naming `field` and the first hidden character's code point (`part`:
    which part of the field the text is, `a key `)."""
    check_text(text, field, part)
    for i, ch in enumerate(text):
        if INVISIBLE_MARKS.match(ch):
            if i > 0 and (not text[i - 1].isascii() or text[i + 1:i + 2] == _KEYCAP):
                continue
        elif ch not in _FILLERS and unicodedata.category(ch) not in HIDDEN_CATEGORIES:
            continue
        if ch in _JOINERS and 0 < i < len(text) - 1 and not text[i - 1].isascii() and not text[i + 1].isascii():
            continue
        raise InvalidInputError(f"{field}: {part}must not contain invisible, control or bidi characters (U+{ord(ch):04X} "
                                f"at position {i}): it would look like another value")
    return text


def is_clean_identifier(text: str) -> bool:
    """True when `text` passes `check_identifier` (to drop, not refuse, what an older version stored)."""
    try:
        check_identifier(text, "value")
    except InvalidInputError:
        return False
    return True


def check_identifiers(model: Any, fields: tuple[str, ...]) -> None:
    """Tags (a list), metadata (its keys, at any depth) and plain identifier strings of a validated model."""
    for name in fields:
        value = getattr(model, name, None)
        if isinstance(value, str):
            check_identifier(value, name)
        elif isinstance(value, list):
            for item in value:
                check_identifier(str(item), f"{name}")
        elif isinstance(value, dict):
            _check_keys(value, name)


def _check_keys(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            check_identifier(str(key), where, "a key ")
            _check_keys(item, f"{where}.{key}"[:120])
    elif isinstance(value, list):
        for item in value:
            _check_keys(item, where)


def hidden_text_problem(text: str) -> str | None:
    """Why `text` carries text that renders as nothing (see the module docstring), else None."""
    for run in _TAG_RUN.finditer(text):
        start = run.start()
        if start > 0 and text[start - 1] == _FLAG_BASE and _FLAG_TAGS.fullmatch(run.group()):
            continue
        return (f"must not hold Unicode tag characters outside an emoji flag (U+{ord(text[start]):04X} at position "
                f"{start}): they render as nothing and spell text a model reads (ASCII smuggling)")
    selectors = _SELECTOR_RUN.search(text)
    if selectors is not None:
        return (f"must not hold two variation selectors in a row (U+{ord(text[selectors.start() + 1]):04X} at "
                f"position {selectors.start() + 1}): a character takes one, a run of them renders as nothing and "
                "carries hidden data")
    return None


def check_text(text: str, field: str, part: str = "", hidden_ok: bool = False) -> str:
    """`text` unchanged, or InvalidInputError naming `field` when it holds a NUL character or, unless `hidden_ok`,
    characters that render as nothing and spell text (`hidden_text_problem`)."""
    if NUL in text:
        raise InvalidInputError(f"{field}: {part}must not contain NUL (\\x00) characters")
    problem = None if hidden_ok else hidden_text_problem(text)
    if problem is not None:
        raise InvalidInputError(f"{field}: {part}{problem}")
    return text


def check_value(value: Any, field: str, hidden_ok: bool = False) -> Any:
    """Every string in a JSON value (keys included) passes `check_text`; `field` names where it sits."""
    if isinstance(value, str):
        check_text(value, field, hidden_ok=hidden_ok)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(str(key), field, "a key ", hidden_ok)
            check_value(item, f"{field}.{key}"[:120], hidden_ok)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_value(item, f"{field}[{i}]", hidden_ok)
    return value


def check_fields(model: Any, fields: tuple[str, ...]) -> None:
    """The named attributes of a validated model pass `check_value` (unset ones are None and skipped)."""
    for name in fields:
        value = getattr(model, name, None)
        if value is not None:
            check_value(value, name)
