"""The rules every caller-given field meets, whichever skin it came through (MCP, CLI, API, import).

Times are UTC and within MIN_TIME..MAX_TIME (an event time at most MAX_FUTURE_EVENT ahead); tags are trimmed,
lower-cased, bounded in number and length; text must hold something a person can see; metadata is plain JSON of
bounded size and depth, without the keys only the write path sets. Each refusal is a ValueError that names the
rule (and the field, where the check is not a field's own validator): `FIELD: RULE` once the models and
`errors.format_validation_error` place it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

#: metadata key under which the write path keeps the preceding turn of the same session.
SESSION_CONTEXT_KEY = "preceding_turn"
MAX_TAGS = 32
MAX_TAG_CHARS = 64
#: caller-supplied metadata: at most this many bytes as compact JSON (UTF-8), this deep, keys this long.
MAX_METADATA_BYTES = 8_192
MAX_METADATA_DEPTH = 4
MAX_METADATA_KEY_CHARS = 64
#: metadata keys hygiene and import set on a stored memory (write/hygiene.py, write/importer.py). A caller setting
#: them could hide a line from a later import (`imported_from`) or name another namespace's memory as the current
#: version (`superseded_by`), attack round 13; an update keeps what the write path set.
WRITE_PATH_METADATA_KEYS = ("imported_from", "superseded_by", "importance_before_deprecation", "deprecated_at",
                            "restated_count", "last_restated_at")
#: the metadata column's key of a memory's value digests (write/value_digests.py; storage/records.py moves it out of
#: the metadata a record shows): a caller setting it could plant digests
VALUE_DIGESTS_KEY = "value_digests"
#: metadata keys only the write path sets (a caller setting them could plant indexed text or flags).
RESERVED_METADATA_KEYS = frozenset({SESSION_CONTEXT_KEY, "safety_directive", VALUE_DIGESTS_KEY,
                                    *WRITE_PATH_METADATA_KEYS})
#: Metadata a private memory keeps sealed with its text: the session context (a neighbour's text) and the
#: import key (for a line without an id, a hash of the content, which a guess could be checked against).
SEALED_METADATA_KEYS = (SESSION_CONTEXT_KEY, "imported_from")


def caller_keys(metadata: dict[str, Any]) -> list[str]:
    """The keys of a memory's metadata its writer chose (not the write path's): a private memory keeps their values
    sealed (storage/encrypted.py, attack round 27: `{"diagnosis": ...}` of a private memory sat in clear)."""
    return [key for key in metadata if key not in RESERVED_METADATA_KEYS]


def utcnow() -> datetime:
    """Timezone-aware now; every stored time is UTC."""
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC so comparisons never mix aware and naive."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def clean_tags(tags: list[str], form: Callable[[str], str] = str) -> list[str]:
    """Tags trimmed, lower-cased, once each; `form` first: `new_tag` for what a write stores, `tag_form` for a
    filter (a stored record's tags are read as they are)."""
    seen: dict[str, None] = {}
    for tag in tags:
        if not isinstance(tag, str):
            raise ValueError("each tag must be a string")
        cleaned = form(tag).strip().lower()
        if not cleaned:
            continue
        if len(cleaned) > MAX_TAG_CHARS:
            raise ValueError(f"tag '{cleaned[:20]}…' is longer than {MAX_TAG_CHARS} characters")
        seen.setdefault(cleaned, None)
    if len(seen) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags are allowed, got {len(seen)}")
    return list(seen)


#: paging offsets above this are refused (SQLite integers are 64-bit; no store holds this many memories)
MAX_OFFSET = 1_000_000_000
#: every time a caller gives (now, event_time, filter bounds) must lie in this range, so date arithmetic
#: ("last week", decay) can neither overflow nor underflow
MIN_TIME = datetime(1000, 1, 1, tzinfo=UTC)
MAX_TIME = datetime(9000, 1, 1, tzinfo=UTC)
#: how far ahead of now a memory's event_time may lie (docs/security.md, attack round 5)
MAX_FUTURE_EVENT = timedelta(days=366)
#: characters that show nothing: control, format (zero-width, BOM, bidi marks) and separators
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn"})


def has_visible_text(text: str) -> bool:
    """True when the text has at least one character a person can see (not only NUL, zero-width, spaces)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in _INVISIBLE for ch in text)


def check_visible(text: str, field: str = "content") -> str:
    if not has_visible_text(text):
        raise ValueError(f"{field}: must contain visible text (it has only whitespace, control or zero-width "
                         "characters)")
    return text


def check_time(value: datetime | None, field: str = "time") -> datetime | None:
    """UTC, and within MIN_TIME..MAX_TIME."""
    if value is None:
        return None
    try:
        value = as_utc(value)
    except OverflowError as exc:  # 0001-01-01 at +14:00 or 9999-12-31 at -14:00 has no UTC datetime (round 9)
        raise ValueError(f"{field}: must be between {MIN_TIME.date()} and {MAX_TIME.date()}, "
                         f"got {value.isoformat()}") from exc
    if not MIN_TIME <= value < MAX_TIME:
        raise ValueError(f"{field}: must be between {MIN_TIME.date()} and {MAX_TIME.date()}, got {value.isoformat()}")
    return value


def check_future(value: datetime | None, field: str = "event_time") -> None:
    """A memory's event time is when it happened: at most MAX_FUTURE_EVENT ahead of now (a time far ahead would
    keep it undecayed, ranked as the newest, for centuries; attack round 5)."""
    if value is not None and value > utcnow() + MAX_FUTURE_EVENT:
        raise ValueError(f"{field}: must be at most {MAX_FUTURE_EVENT.days} days after now (when it happened, or a "
                         f"planned event within a year), got {value.isoformat()}")


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _check_keys(value: Any, path: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > MAX_METADATA_KEY_CHARS:
                raise ValueError(f"key '{str(key)[:20]}' at {path or 'top level'} must be a string of at most "
                                 f"{MAX_METADATA_KEY_CHARS} characters")
            _check_keys(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            _check_keys(item, path)


def check_metadata(metadata: dict[str, Any], reserved_ok: bool = False) -> dict[str, Any]:
    """Caller-supplied metadata: JSON only, bounded size and depth, no reserved keys (see the limits above).

    `reserved_ok`: an update may send reserved keys back (a client returning what it read); the engine accepts them
    only with the stored values (`unchanged_reserved`), so the size limit is the caller's own keys' (attack round 14:
    a turn whose `preceding_turn` holds a long earlier turn could not be sent back at all)."""
    reserved = sorted(RESERVED_METADATA_KEYS & set(metadata))
    if reserved and not reserved_ok:
        raise ValueError(f"key '{reserved[0]}' is reserved (set by the write path)")
    if _depth(metadata) > MAX_METADATA_DEPTH:
        raise ValueError(f"nesting is deeper than {MAX_METADATA_DEPTH} levels")
    _check_keys(metadata, "")
    own = {k: v for k, v in metadata.items() if k not in RESERVED_METADATA_KEYS}
    try:
        json.dumps(metadata, allow_nan=False)
        size = len(json.dumps(own, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise ValueError(f"must be plain JSON (objects, arrays, strings, numbers, booleans, null): {exc}") from exc
    if size > MAX_METADATA_BYTES:
        raise ValueError(f"is {size} bytes as JSON, more than the {MAX_METADATA_BYTES}-byte limit")
    return metadata


def unchanged_reserved(sent: dict[str, Any], stored: dict[str, Any], field: str = "updates.metadata") -> dict[str, Any]:
    """The caller's metadata without the reserved keys it sent back unchanged; a reserved key it added or changed
    is refused by name (the write path alone sets them)."""
    for key in sorted(RESERVED_METADATA_KEYS & set(sent)):
        if key not in stored or sent[key] != stored[key]:
            raise ValueError(f"{field}: key '{key}' is reserved (set by the write path); send it back unchanged "
                             "or leave it out")
    return {k: v for k, v in sent.items() if k not in RESERVED_METADATA_KEYS}
