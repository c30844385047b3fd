"""Every line of a JSON-lines backup is checked before a restore writes anything (attack round 16).

Before this round `restore_jsonl` copied what the file said: a crafted "backup" restored NUL in content (which
PostgreSQL cannot store), a namespace no write can name (`bad ns!/..`), 5,000 tags, an `encrypted: true` flag
over plain text (read back as that text), an edge joining two namespaces, vectors of any length. A restore now
refuses the whole file, naming the line, the field and the rule, when any row breaks what the write path
guarantees of a stored row; nothing is written (all or nothing: the check runs over every line first, and the rows
land in one transaction).

What is checked, per kind of line:

* **memory**: only the fields a record has; `id` an id (`ID_RULE`); `namespace` the namespace shape; `type`,
  `source`, `status` their enums; `importance`/`credibility` in 0..1; every time within 1000..9000 (`check_time`);
  `access_count` 0..10^12; content visible text of at most 20,000 characters (context 4,000) and no NUL; tags
  as `memory_store` takes them (at most 32 of 64 characters, no hidden characters); metadata plain JSON, at most 4
  deep, keys of 64 characters, 8,192 bytes of the caller's own keys (write-path keys may stand, as stored);
  `session_id` / `source_task_id` / `created_by` / `status_reason` bounded strings without hidden characters; an
  `encrypted` memory's content (and context, and sealed metadata) sealed values (`enc:v1:` + base64 of at least a
  nonce and a tag), a plain memory's never; the `vector` base64 of finite float32 numbers of this embedder's size;
  no id twice.
* **history**: `memory_id` an id, `action` a lower-case word, `actor` and `note` bounded, `at` in range,
  `before`/`after` objects (or null) whose `status`, `type` and `namespace` are valid where present.
* **edge**: `src`/`dst` ids, `kind` one of `EDGE_KINDS`, `weight` finite in 0..1; when both ends are memories of
  the file they share a namespace (the console shows a neighbour's first words).
* **token**: the stored columns only; `token_hash` 64 hex digits (never a secret), `scopes` / `namespaces` JSON
  lists of known scopes and namespace names (or `*`), times finite; no id or hash twice.

What is not done: the guard does not judge restored text again. A backup is a copy of rows that passed the write
path (a held write comes back held, with its reason), restored only by the owner (`hindsight restore`; no MCP tool
or console route restores), into an empty store; re-judging with a newer guard would make the copy unfaithful. A
file from elsewhere is imported (`hindsight import`: screened, redacted, new ids, written as `import`).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from datetime import datetime
from typing import Any

import numpy as np
from pydantic import ValidationError

from hindsight.errors import InvalidInputError, format_validation_error
from hindsight.field_rules import SEALED_METADATA_KEYS, caller_keys, check_metadata, check_time, has_visible_text
from hindsight.model import MAX_CONTENT_CHARS, MAX_CONTEXT_CHARS, MemoryRecord, MemoryType, Status
from hindsight.read_model import HistoryEntry
from hindsight.security.crypto import PREFIX
from hindsight.security.namespace_names import MAX_NAMESPACE_CHARS, NAMESPACE_PATTERN
from hindsight.security.principal import ALL_NAMESPACES, Scope
from hindsight.storage.base import Edge
from hindsight.write.text_rules import check_identifier, check_value

ID_RULE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,99}$")
_ACTION = re.compile(r"^[a-z][a-z_]{0,39}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
_NAMESPACE = re.compile(NAMESPACE_PATTERN)
EDGE_KINDS = frozenset({"supersedes", "supplements", "derived_from", "same_task"})
TOKEN_COLUMNS = frozenset({"id", "name", "token_hash", "scopes", "namespaces", "created_at", "revoked_at"})
MAX_ACCESS_COUNT = 10**12
#: bounds of the free strings beside a memory (a principal's name, a reason, a history note)
MAX_LABEL_CHARS = 1_000
MAX_NOTE_CHARS = 20_000
#: nonce (12 bytes) and GCM tag (16 bytes): the least a sealed value holds
_SEALED_MIN_BYTES = 28


class BackupLineError(InvalidInputError):
    """A backup line that breaks a rule: names the line, the field and the rule."""

    def __init__(self, line: int, field: str, rule: str) -> None:
        super().__init__(f"line {line}: {field}: {rule}; nothing was restored")
        self.line, self.field, self.rule = line, field, rule


def _fail(line: int, field: str, rule: str) -> BackupLineError:
    return BackupLineError(line, field, rule)


def _object(line: int, value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(line, field, f"must be an object, got {type(value).__name__}")
    return value


def _label(line: int, value: Any, field: str, limit: int = MAX_LABEL_CHARS, identifier: bool = True) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise _fail(line, field, f"must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise _fail(line, field, f"must be at most {limit} characters, got {len(value)}")
    try:
        check_identifier(value, field) if identifier else check_value(value, field, hidden_ok=True)
    except InvalidInputError as exc:
        raise _fail(line, field, str(exc).removeprefix(f"{field}: ")) from exc


def _id(line: int, value: Any, field: str) -> str:
    if not isinstance(value, str) or not ID_RULE.match(value):
        raise _fail(line, field, "must be an id: a letter or digit, then up to 99 letters, digits or _ . : -")
    return value


def _namespace(line: int, value: Any, field: str) -> None:
    if not isinstance(value, str) or len(value) > MAX_NAMESPACE_CHARS or not _NAMESPACE.match(value):
        raise _fail(line, field, f"must be a namespace name: 1..{MAX_NAMESPACE_CHARS} of letters, digits, . - : / @ _")


def _time(line: int, value: Any, field: str) -> None:
    if value is None:
        return
    try:
        check_time(value if isinstance(value, datetime) else datetime.fromisoformat(str(value)), field)
    except (TypeError, ValueError, OverflowError) as exc:
        raise _fail(line, field, f"must be an ISO time within 1000-01-01..9000-01-01 ({exc})") from exc


def _sealed(line: int, value: Any, field: str) -> None:
    if not isinstance(value, str) or not value.startswith(PREFIX):
        raise _fail(line, field, f"an encrypted memory holds it sealed ('{PREFIX}...'), not as plain text")
    try:
        raw = base64.urlsafe_b64decode(value[len(PREFIX):].encode("ascii"))
    except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
        raise _fail(line, field, "a sealed value is base64 after its prefix") from exc
    if len(raw) < _SEALED_MIN_BYTES:
        raise _fail(line, field, "a sealed value holds at least a nonce and a tag")


def _plain_text(line: int, value: str, field: str, limit: int, required: bool) -> None:
    if value.startswith(PREFIX):
        raise _fail(line, field, "a sealed value in a memory not marked encrypted (it would be shown as text)")
    if required and not has_visible_text(value):
        raise _fail(line, field, "must contain visible text")
    if len(value) > limit:
        raise _fail(line, field, f"must be at most {limit} characters, got {len(value)}")
    _label(line, value, field, limit, identifier=False)


def _vector(line: int, raw: Any, dim: int | None) -> np.ndarray | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise _fail(line, "vector", "must be base64 text or null")
    try:
        data = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise _fail(line, "vector", "must be base64 of float32 numbers") from exc
    if len(data) % 4 or (dim is not None and len(data) != 4 * dim):
        raise _fail(line, "vector", f"must hold {dim} float32 numbers (this embedder's size), got {len(data) / 4:g}")
    vector = np.frombuffer(data, dtype=np.float32)
    if not np.isfinite(vector).all():
        raise _fail(line, "vector", "must hold finite numbers (no NaN or infinity)")
    return vector


def check_memory(line: int, item: dict[str, Any], dim: int | None) -> tuple[MemoryRecord, np.ndarray | None]:
    """The record and vector of a `memory` line, or BackupLineError."""
    extra = sorted(set(item) - {"memory", "vector"})
    if extra:
        raise _fail(line, extra[0], "a memory line holds 'memory' and 'vector' only")
    data = _object(line, item.get("memory"), "memory")
    unknown = sorted(set(data) - set(MemoryRecord.model_fields))
    if unknown:
        raise _fail(line, f"memory.{unknown[0]}", "not a field of a stored memory")
    for field in ("id", "content"):
        if field not in data:
            raise _fail(line, f"memory.{field}", "required")
    _id(line, data["id"], "memory.id")
    _namespace(line, data.get("namespace", "default"), "memory.namespace")
    for field in ("created_at", "updated_at", "event_time", "last_accessed_at"):
        _time(line, data.get(field), f"memory.{field}")
    count = data.get("access_count", 0)
    if isinstance(count, int) and not 0 <= count <= MAX_ACCESS_COUNT:
        raise _fail(line, "memory.access_count", f"must lie in 0..{MAX_ACCESS_COUNT}")
    try:
        record = MemoryRecord.model_validate(data)
    except ValidationError as exc:
        raise _fail(line, "memory", format_validation_error(exc, "memory.")) from exc
    except ValueError as exc:
        raise _fail(line, "memory", str(exc)) from exc
    if record.encrypted:
        _sealed(line, record.content, "memory.content")
        if record.context:
            _sealed(line, record.context, "memory.context")
        for key in SEALED_METADATA_KEYS:
            if key in record.metadata:
                _sealed(line, record.metadata[key], f"memory.metadata.{key}")
        for key in caller_keys(record.metadata):  # sealed since attack round 27 (an older backup: plain JSON)
            if isinstance(record.metadata[key], str) and record.metadata[key].startswith(PREFIX):
                _sealed(line, record.metadata[key], f"memory.metadata.{key}")
    else:
        _plain_text(line, record.content, "memory.content", MAX_CONTENT_CHARS, required=True)
        _plain_text(line, record.context, "memory.context", MAX_CONTEXT_CHARS, required=False)
    for tag in record.tags:
        _label(line, tag, "memory.tags")
    for field in ("session_id", "source_task_id"):
        _label(line, getattr(record, field), f"memory.{field}", 200)
    _label(line, record.created_by, "memory.created_by")
    _label(line, record.status_reason, "memory.status_reason", MAX_NOTE_CHARS, identifier=False)
    plain = record.metadata if not record.encrypted else {  # a sealed value is measured as what it seals, bounded
        k: "" if isinstance(v, str) and v.startswith(PREFIX) else v for k, v in record.metadata.items()}
    try:
        check_metadata(plain, reserved_ok=True)
        check_value(record.metadata, "metadata", hidden_ok=True)
        for key in record.metadata:
            check_identifier(str(key), "metadata", "a key ")
    except (ValueError, InvalidInputError) as exc:
        raise _fail(line, "memory.metadata", str(exc).removeprefix("metadata: ")) from exc
    return record, _vector(line, item.get("vector"), dim)


def _snapshot(line: int, value: Any, field: str) -> None:
    if value is None:
        return
    snapshot = _object(line, value, field)
    enums: dict[str, type[Status] | type[MemoryType]] = {"status": Status, "type": MemoryType}
    for key, enum in enums.items():
        if key in snapshot and snapshot[key] not in {e.value for e in enum}:
            raise _fail(line, f"{field}.{key}", f"must be one of {', '.join(e.value for e in enum)}")
    if "namespace" in snapshot:
        _namespace(line, snapshot["namespace"], f"{field}.namespace")
    try:
        check_value(snapshot, field, hidden_ok=True)  # rows as an older version stored them (text_rules)
    except InvalidInputError as exc:
        raise _fail(line, field, str(exc).removeprefix(f"{field}: ")) from exc


def check_history(line: int, item: dict[str, Any]) -> HistoryEntry:
    data = _object(line, item.get("history"), "history")
    unknown = sorted(set(data) - set(HistoryEntry.model_fields))
    if unknown:
        raise _fail(line, f"history.{unknown[0]}", "not a field of a history entry")
    _id(line, data.get("memory_id"), "history.memory_id")
    if not isinstance(data.get("action"), str) or not _ACTION.match(data["action"]):
        raise _fail(line, "history.action", "must be a lower-case word (create, update, forget, ...)")
    if "actor" not in data or "at" not in data:
        raise _fail(line, "history.actor" if "actor" not in data else "history.at", "required")
    _label(line, data["actor"], "history.actor")
    _label(line, data.get("note", ""), "history.note", MAX_NOTE_CHARS, identifier=False)
    _time(line, data["at"], "history.at")
    _snapshot(line, data.get("before"), "history.before")
    _snapshot(line, data.get("after"), "history.after")
    try:
        return HistoryEntry.model_validate(data)
    except ValidationError as exc:
        raise _fail(line, "history", format_validation_error(exc, "history.")) from exc


def check_edge(line: int, item: dict[str, Any]) -> Edge:
    data = _object(line, item.get("edge"), "edge")
    unknown = sorted(set(data) - {"src", "dst", "kind", "weight", "created_at"})
    if unknown:
        raise _fail(line, f"edge.{unknown[0]}", "not a field of an edge")
    src, dst = _id(line, data.get("src"), "edge.src"), _id(line, data.get("dst"), "edge.dst")
    if data.get("kind") not in EDGE_KINDS:
        raise _fail(line, "edge.kind", f"must be one of {', '.join(sorted(EDGE_KINDS))}")
    weight = data.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0.0 <= float(weight) <= 1.0:
        raise _fail(line, "edge.weight", "must be a number in 0..1")
    _time(line, data.get("created_at"), "edge.created_at")
    created = data.get("created_at")
    return Edge(src, dst, str(data["kind"]), float(weight), datetime.fromisoformat(created) if created else None)


def _json_list(line: int, value: Any, field: str) -> list[Any]:
    try:
        parsed = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if not isinstance(parsed, list) or not parsed:
        raise _fail(line, field, "must be a JSON list (as text) with at least one entry")
    return parsed


def check_token(line: int, item: dict[str, Any]) -> dict[str, Any]:
    data = _object(line, item.get("token"), "token")
    if set(data) != TOKEN_COLUMNS:
        odd = sorted(set(data) ^ TOKEN_COLUMNS)
        raise _fail(line, f"token.{odd[0]}", f"a token line holds exactly {', '.join(sorted(TOKEN_COLUMNS))}")
    _id(line, data["id"], "token.id")
    if not isinstance(data["name"], str) or not data["name"].strip():
        raise _fail(line, "token.name", "must be a non-empty string")
    _label(line, data["name"], "token.name", 200)
    if not isinstance(data["token_hash"], str) or not _HASH.match(data["token_hash"]):
        raise _fail(line, "token.token_hash", "must be a SHA-256 hash (64 hex digits), never a token")
    scopes = {s.value for s in Scope}
    if any(s not in scopes for s in _json_list(line, data["scopes"], "token.scopes")):
        raise _fail(line, "token.scopes", f"each must be one of {', '.join(sorted(scopes))}")
    for name in _json_list(line, data["namespaces"], "token.namespaces"):
        if name != ALL_NAMESPACES:
            _namespace(line, name, "token.namespaces")
    for field in ("created_at", "revoked_at"):
        value = data[field]
        if value is None and field == "revoked_at":
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
            raise _fail(line, f"token.{field}", "must be a time in seconds (a finite number)")
    return dict(data)


def check_unique(line: int, seen: set[str], value: str, field: str) -> None:
    if value in seen:
        raise _fail(line, field, f"'{value}' appears twice in the backup")
    seen.add(value)


def check_edge_ends(edges: list[tuple[int, Edge]], namespaces: dict[str, str]) -> None:
    """An edge between two memories of the file joins memories of one namespace."""
    for line, edge in edges:
        src, dst = namespaces.get(edge.src), namespaces.get(edge.dst)
        if src is not None and dst is not None and src != dst:
            raise _fail(line, "edge", f"joins namespace '{src}' to '{dst}'; an edge stays inside one namespace")
