"""Idempotent writes: one memory per (namespace, idempotency_key), a repeat answers the first result.

A client that retries a write it could not confirm (a timeout, a killed
connection, a server restart) sends the same key again. Two records make the
repeat harmless, even across processes sharing one store:

* the memory id is derived from (namespace, key), so a second insert of the same
  write collides on the primary key instead of creating a twin (this also covers
  a crash between the insert and the bookkeeping below, and two servers racing);
* the first result is kept in the store's `idempotency` table and returned as is
  to every repeat (`replayed: true`), also for writes that created no memory
  (a duplicate, a proposal waiting for review).

A key names one request, not a slot: the table keeps a fingerprint of the request (SHA-256 of its canonical JSON)
next to the result, and the same key sent with a different request is refused with `idempotency_conflict`
naming the field (as Stripe does), storing nothing; only an identical retry replays. Keys recorded before the
fingerprint existed (schema v6) replay as before. The fingerprint of a private memory is sealed under the store's
key (bound to namespace and key), so the table holds nothing a guess could be checked against.

The fingerprint is taken **after redaction** (`fingerprint_of`, attack round 12): a hash of the request as sent
let anyone holding the table (every `.db` backup) confirm the password or phone number redaction removed, by
rebuilding the request from the stored row and trying candidates. Two requests that differ only in a value
redaction removes are therefore one request (both would store the same redacted memory). A key recorded before
this with the hash of the request as sent still replays an identical retry (`Fingerprint.legacy`).
"""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hindsight.errors import (
    HindsightError,
    IdempotencyConflictError,
    InvalidInputError,
    MemoryNotFoundError,
    StorageError,
)
from hindsight.model import Status
from hindsight.security.crypto import PREFIX
from hindsight.storage.base import MemoryStore
from hindsight.write.fields import redact_value
from hindsight.write.labels import session_label
from hindsight.write.pipeline import Redactor, WriteOutcome

MAX_KEY_CHARS = 200
#: the result a claimed key holds while its request is being written (never returned: its request writes)
PENDING = '{"pending": true}'


def check_key(key: object) -> str:
    """A usable key: 1-200 visible characters; anything else is an InvalidInputError naming the field."""
    if not isinstance(key, str):
        raise InvalidInputError(f"idempotency_key: must be a string, got {type(key).__name__}")
    key = key.strip()
    if not key or len(key) > MAX_KEY_CHARS:
        raise InvalidInputError(f"idempotency_key: must have 1 to {MAX_KEY_CHARS} non-blank characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in key):
        raise InvalidInputError("idempotency_key: must not contain control or invisible characters")
    return key


def memory_id_for(namespace: str, key: str) -> str:
    """The id the memory written under this key gets (same shape as a random id: mem_ + 32 hex)."""
    return "mem_" + hashlib.sha256(f"{namespace}\x00{key}".encode()).hexdigest()[:32]


def request_hash(request: object) -> str:
    """The fingerprint of a request: SHA-256 of its canonical JSON (sorted keys)."""
    text = json.dumps(request, sort_keys=True, default=str, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Fingerprint:
    """A request as the idempotency table keeps it: `digest`, SHA-256 of its canonical JSON after redaction;
    `private` (the digest is sealed); `legacy`, the hash of the request as sent, which keys recorded before attack
    round 12 hold (compared, never recorded)."""

    digest: str
    private: bool = False
    legacy: str = ""

    def matches(self, recorded: str) -> bool:
        return recorded in (self.digest, self.legacy) if self.legacy else recorded == self.digest


def fingerprint_of(request: object, redactor: Redactor | None) -> Fingerprint:
    """The fingerprint of a request: every string redacted, then hashed (see the module docstring)."""
    if isinstance(request, Fingerprint):
        return request
    private = isinstance(request, dict) and request.get("private") is True
    plain = request_hash(request)
    if redactor is None:
        return Fingerprint(plain, private)
    return Fingerprint(request_hash(redact_value(request, redactor)[0]), private, legacy=plain)


def stored_key(store: MemoryStore, namespace: str, key: str) -> str:
    """The key as the table keeps it: a mailbox or phone in it under its keyed pseudonym (write/labels.py; attack
    round 27: `alice.smith@example.com#3` sat in the table and in every backup, and the memory id is a bare hash of
    it). A key an older version recorded as sent is still found as sent, so its retry replays."""
    label = session_label(store, key, "key") or key
    if label != key and store.get_idempotent(namespace, label) is None and store.get_idempotent(namespace, key):
        return key
    return label


def _conflict(namespace: str, key: str) -> IdempotencyConflictError:
    return IdempotencyConflictError(
        f"idempotency_key: '{key}' was already used in namespace '{namespace}' for a different request; a key "
        "names one request (an identical retry replays its result): use a new key; nothing was stored")


def run_idempotent(store: MemoryStore, namespace: str, key: str | None,
                   write: Callable[[str | None], dict[str, Any]], request: object = None) -> dict[str, Any]:
    """Run `write(memory_id)` once per (namespace, key); without a key, just run it.

    `write` receives the id the new memory must get and returns the result to record. `request` is what the
    caller asked for (JSON-able, hashed as it is; the engine passes a redacted `Fingerprint`); the same key with a
    different request raises IdempotencyConflictError.
    """
    if key is None:
        return write(None)
    key = stored_key(store, namespace, check_key(key))
    taken = request if isinstance(request, Fingerprint) else fingerprint_of(request, None)
    bound = f"idempotency\x00{namespace}\x00{key}"
    # the key is claimed for this request before anything is written (attack round 28): a different request under
    # the same key in flight at once was told `created` for the first one's memory (its own text stored nowhere)
    # while the first, whose memory was stored, was told `idempotency_conflict` "nothing was stored"
    claimed = store.get_idempotent(namespace, key)
    if claimed is None:
        if taken.private and not getattr(store, "supports_encryption", False):
            return write(memory_id_for(namespace, key))  # refused there: a private memory needs a key
        # a private memory's fingerprint is kept sealed: a bare hash of a short text can be confirmed by guessing
        kept = store.seal_text(taken.digest, bound) if taken.private else taken.digest
        claimed = store.put_idempotent(namespace, key, PENDING, time.time(), kept)
    if claimed[1] and not taken.matches(store.open_text(claimed[1], bound)):
        raise _conflict(namespace, key)
    if claimed[0] != PENDING:
        return {**json.loads(claimed[0]), "replayed": True}
    # pending under this request's fingerprint: ours, an identical request's in flight, or one a crash left (its
    # retry writes now: the memory id derives from the key, so a memory already written is found, not doubled)
    memory_id = memory_id_for(namespace, key)
    try:
        result = write(memory_id)
    except StorageError:
        existing = store.get(memory_id)
        if existing is None:
            store.idempotency_release(namespace, key, PENDING, claimed[1])
            raise
        # the same request landed before (another server, or a crash before its result was recorded)
        result = {"memory_id": memory_id, "action": "created", "status": existing.status.value, "reason": "",
                  "related_ids": [], "redactions": [], "supersedes": []}
    except BaseException:
        # nothing written: the key is free again. A write that failed after its memory was stored (an error past the
        # commit, a lost commit acknowledgement) keeps its claim, as a crash does (attack round 29): released, the
        # next request under the key, a different one, collided with that memory and was told `created` for it
        if store.get(memory_id) is None:
            store.idempotency_release(namespace, key, PENDING, claimed[1])
        raise
    recorded = json.dumps(result, default=str)
    try:
        first, now = store.idempotency_settle(namespace, key, PENDING, recorded, claimed[1])
        if first == PENDING and _resealed(store, claimed[1], now, taken, bound):
            # our claim, its fingerprint re-sealed under a new key meanwhile (`rotate-key` beside this process;
            # attack round 46: answered {"pending": true} with no memory id for a memory that was stored)
            first, _ = store.idempotency_settle(namespace, key, PENDING, recorded, now)
    except StorageError as exc:  # attack round 43: told "nothing was written" while its memory was
        raise _unrecorded(exc, key, result) from exc
    answer: dict[str, Any] = json.loads(first)
    return answer if first == recorded else {**answer, "replayed": True}


def _resealed(store: MemoryStore, claimed: str, now: str, taken: Fingerprint, bound: str) -> bool:
    """The pending row's fingerprint `now` is the one this request claimed with (`claimed`), sealed again by a key
    rotation: both sealed, and `now` opens to this request's fingerprint - or does not open with this process's key
    (the store moved to the new key under it; the pending claim it holds is then its own)."""
    if now == claimed or not (claimed.startswith(PREFIX) and now.startswith(PREFIX)):
        return False
    try:
        return taken.matches(store.open_text(now, bound))
    except HindsightError:
        return True


def _unrecorded(exc: StorageError, key: str, result: dict[str, Any]) -> StorageError:
    """The store's error for a write done whose answer could not be recorded (the database went away between the
    two): the same class (a retryable one stays retryable), the message true - the store's own says "nothing was
    written" - and naming what was stored."""
    reason = str(exc).split("; nothing was written", 1)[0]
    stored = f"memory '{result['memory_id']}'" if result.get("memory_id") else "the request's outcome"
    error = type(exc)(f"{reason}; the write was done ({stored} was stored) but its answer could not be recorded: "
                      f"send the same request with the same idempotency_key '{key}' to get it (nothing is stored twice)")
    return error


def outcome_from_dict(result: dict[str, Any]) -> WriteOutcome:
    """A WriteOutcome again from its recorded dict (the Python API returns outcomes, not dicts); the replay of a
    request whose memory was hard-deleted since (`write/erase.py`) is not_found."""
    if result.get("erased"):
        erased = MemoryNotFoundError(str(result.get("memory_id", "")))
        erased.args = (f"memory '{erased.memory_id}' was erased by a hard delete after this request; its "
                       "idempotency key writes nothing again",)
        raise erased
    return WriteOutcome(memory_id=str(result.get("memory_id", "")), action=result.get("action", "created"),
                        status=Status(result.get("status", "active")), reason=str(result.get("reason", "")),
                        related_ids=list(result.get("related_ids", [])), redactions=list(result.get("redactions", [])),
                        supersedes=list(result.get("supersedes", [])),
                        correction={k: result[k] for k in ("corrected", "correction_note")} if "corrected" in result
                        else None)
