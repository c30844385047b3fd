"""Import of exported JSON lines: validated first, then each line lands whole, and a re-run resumes.

* Every line is checked before anything is written (UTF-8, JSON, the memory fields, its status); a bad line
  aborts the import naming the line and the rule, with nothing stored.
* Each line is written in one insert with its lifecycle status (a line exported as ``forgotten`` is never
  active, not even between two steps), through the full write path (guard, redaction, embedding).
* Each stored memory records where it came from in ``metadata.imported_from``: the exported ``id`` (or, for
  a line without one, ``sha256:`` of its namespace and its content **as redacted**: every reader sees the key,
  and a hash of the text as sent let one confirm a redacted password or phone number by trying candidates,
  attack round 12). A re-run, e.g. after the import was killed, skips lines whose key is already in the target
  namespace, so counts come out exact.
* Each line's memory takes an id derived from its namespace and key (`line_memory_id`), and the write path
  stores it only if that id is not in the store yet, checked under the namespace's lock (`WritePipeline._persist`
  with `once`): two imports of one file at once - two processes on one SQLite file, two servers on one
  PostgreSQL, a retried job beside the first - store each line once (attack round 36; before, each run read the
  keys already imported once, before writing, and both wrote every line).
* A line exported as ``"encrypted": true`` (a private memory) comes back private, so it is sealed again; a line
  that carries the locked placeholder (exported without the key by an older hindsight) is refused: its text is
  not in the file.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from hindsight.errors import InvalidInputError, format_validation_error
from hindsight.field_rules import RESERVED_METADATA_KEYS
from hindsight.jsonl import decoded, parse_json
from hindsight.model import MemoryInput, Status
from hindsight.security.crypto import PREFIX
from hindsight.storage.base import MemoryStore
from hindsight.storage.encrypted import LOCKED
from hindsight.write.pipeline import Restore, WriteOutcome, WritePipeline
from hindsight.write.redaction import redacted, scope

#: metadata key that records which exported line a memory came from (set by the importer only).
IMPORT_KEY = "imported_from"
#: the longest exported `id` a line may carry (a memory's id is 36 characters; another system's may be longer)
MAX_EXPORTED_ID = 200
#: lines embedded together; each line is still its own insert.
CHUNK = 16


@dataclass
class ImportLine:
    number: int
    item: MemoryInput
    restore: Restore
    key: str
    by_content: bool = False  # no exported id: the key is a hash of the content (taken after redaction)


def line_memory_id(store: Any, namespace: str, key: str) -> str:
    """The id an imported line's memory takes: the same for every run of the same line into the same store and
    namespace (the shape of a random id, `mem_` + 32 hex). Keyed with the store's `label_secret` (write/labels.py):
    the key of a line without an exported id is a hash of its text, and ids are shown to every reader, so a bare hash
    would let anyone confirm a guess of a private line's text against its id (the reason `imported_from` is sealed)."""
    keep = getattr(store, "kept_secret", None)
    secret = str(keep("label_secret")).encode() if keep is not None else b""
    message = f"import\x00{namespace}\x00{key}".encode()
    return "mem_" + hmac.new(secret, message, hashlib.sha256).hexdigest()[:32]


def content_key(namespace: str, content: str) -> str:
    """The key of a line without an exported id: ``sha256:`` of its namespace and (redacted) content."""
    return "sha256:" + hashlib.sha256(f"{namespace}\n{content}".encode()).hexdigest()


@dataclass
class ImportReport:
    outcomes: list[WriteOutcome] = field(default_factory=list)
    skipped: int = 0  # already imported by an earlier (possibly interrupted) run


def parse_lines(lines: Iterable[str | bytes], namespace: str | None) -> list[ImportLine]:
    """Validate every line (nothing is written here); raises InvalidInputError naming the line and rule."""
    allowed = set(MemoryInput.model_fields)
    parsed: list[ImportLine] = []
    for number, line in enumerate(lines, start=1):
        line = decoded(line, number, "; nothing was imported")
        if not line.strip():
            continue
        raw = parse_json(line, f"line {number}")
        if not isinstance(raw, dict):
            raise InvalidInputError(f"line {number}: expected a JSON object")
        data = {k: v for k, v in raw.items() if k in allowed}
        if isinstance(data.get("metadata"), dict):  # keys the write path sets are set again on the way in
            data["metadata"] = {k: v for k, v in data["metadata"].items()
                                if k not in RESERVED_METADATA_KEYS and k != IMPORT_KEY}
        if namespace:
            data["namespace"] = namespace
        check_line_fields(raw, number)
        if raw.get("encrypted") is True:  # an exported private memory stays private (sealed again on the way in)
            if raw.get("content") == LOCKED:
                raise InvalidInputError(f"line {number}: a private memory exported without the encryption key "
                                        "(its text is not in the file); export again with HINDSIGHT_ENCRYPTION_KEY "
                                        "set, or use `hindsight backup`; nothing was imported")
            if str(raw.get("content", "")).startswith(PREFIX):
                raise InvalidInputError(f"line {number}: content: a private memory's text is sealed ({PREFIX}...), "
                                        "not the text an export carries (a backup's line, or a memory sealed under "
                                        "another key): use `hindsight restore` with that key; nothing was imported")
            data["private"] = True
        try:
            item = MemoryInput.model_validate(data)
        except ValidationError as exc:
            raise InvalidInputError(f"line {number}: {format_validation_error(exc)}") from exc
        try:
            status = Status(str(raw.get("status", "active")))
        except ValueError as exc:
            raise InvalidInputError(f"line {number}: status must be one of "
                                    f"{', '.join(s.value for s in Status)}") from exc
        exported_id = raw.get("id")
        by_content = not (isinstance(exported_id, str) and exported_id.strip())
        key = content_key(item.namespace, item.content) if by_content else str(exported_id)
        reason = str(raw.get("status_reason") or "")[:2000]
        parsed.append(ImportLine(number, item, Restore(status, reason, {IMPORT_KEY: key}), key, by_content))
    return parsed


def check_line_fields(raw: dict[str, Any], number: int) -> None:
    """The fields of an exported line that are not a memory's input but steer the import (attack round 18: a 5 MB
    `id` was stored whole in `metadata.imported_from` and copied into every history entry; an `id` object, an
    `encrypted: "true"` string or a `status_reason` object were taken silently, as a line without an id, a public
    memory, the object's repr)."""
    exported_id = raw.get("id")
    if exported_id is not None:
        if not isinstance(exported_id, str):
            raise InvalidInputError(f"line {number}: id: must be a string (the exported memory's id); "
                                    "nothing was imported")
        if len(exported_id) > MAX_EXPORTED_ID or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in exported_id):
            raise InvalidInputError(f"line {number}: id: at most {MAX_EXPORTED_ID} characters, no control "
                                    "characters; nothing was imported")
    if "encrypted" in raw and not isinstance(raw["encrypted"], bool):
        raise InvalidInputError(f"line {number}: encrypted: must be true or false; nothing was imported")
    if raw.get("status_reason") is not None and not isinstance(raw["status_reason"], str):
        raise InvalidInputError(f"line {number}: status_reason: must be a string; nothing was imported")


def first_private_line(lines: list[ImportLine]) -> int | None:
    """The number of the first line that must be stored private (sealed), if any."""
    return next((line.number for line in lines if line.item.private), None)


def run_import(writer: WritePipeline, store: MemoryStore, lines: list[ImportLine], actor: str) -> ImportReport:
    """Write the lines not imported yet, CHUNK at a time; each line is one insert with its final status.

    A line's `status_reason` is caller text search shows to readers: redacted and screened like content before
    anything is written (a flagged one aborts the import, naming the line). A content key's reading of the content
    is the write's (one `write.redaction.scope` for the import)."""
    with scope():
        return _run_import(writer, store, lines, actor)


def _run_import(writer: WritePipeline, store: MemoryStore, lines: list[ImportLine], actor: str) -> ImportReport:
    for line in lines:
        try:
            reason = writer.clean_note(line.restore.reason, "status_reason") if line.restore.status != Status.active else ""
        except InvalidInputError as exc:
            raise InvalidInputError(f"line {line.number}: {exc}; nothing was imported") from exc
        line.restore = replace(line.restore, reason=reason)
        if line.by_content and writer.redactor is not None:  # the key holds no hash of what redaction removes
            line.key = content_key(line.item.namespace, redacted(writer.redactor, line.item.content).text)
            line.restore = replace(line.restore, metadata={**line.restore.metadata, IMPORT_KEY: line.key})
    namespaces = {line.item.namespace for line in lines}
    done = {(record.namespace, str(record.metadata.get(IMPORT_KEY)))
            for ns in namespaces for record in store.iter_all(ns) if record.metadata.get(IMPORT_KEY)}
    report = ImportReport()
    todo: list[ImportLine] = []
    for line in lines:
        mark = (line.item.namespace, line.key)
        if mark in done:
            report.skipped += 1
        else:
            done.add(mark)  # the same exported line twice in one file lands once
            todo.append(line)
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start:start + CHUNK]
        ids = [line_memory_id(store, line.item.namespace, line.key) for line in chunk]
        outcomes = writer.write_many([line.item for line in chunk], actor, [line.restore for line in chunk],
                                     ids=ids, once=True)
        for outcome, memory_id in zip(outcomes, ids):
            if outcome.action == "duplicate" and outcome.memory_id == memory_id:  # another run stored it meanwhile
                report.skipped += 1
            else:
                report.outcomes.append(outcome)
    return report
