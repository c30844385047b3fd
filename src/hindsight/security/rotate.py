"""Key rotation: every private memory, every history snapshot that holds its ciphertext, and the private content
kept beside them (proposals waiting for review, request fingerprints of private writes) re-sealed under a new key
in one transaction (all or nothing) on any SQL backend. A client's write queue is a file of its own:
`rotate_queue` re-seals one.

Each sealed value is opened with the old key and sealed with the new one. A value the old key cannot open but
the new one can is already rotated and is left as it is, so a second run (after a server kept writing with the
old key, say) finishes the job instead of failing; a value neither key opens stops the rotation before anything
is committed. Vectors, tags and the keyword index hold no ciphertext and are untouched. Backups are copies of
what is stored: one taken after the rotation opens with the new key, one taken before keeps needing the old.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from hindsight.errors import HindsightError, StorageBusyError, StorageError
from hindsight.field_rules import SEALED_METADATA_KEYS, caller_keys
from hindsight.security.crypto import PREFIX, MemoryCipher
from hindsight.security.key_check import CANARY_BOUND, CANARY_KEY, stored_canary


@dataclass
class RotationReport:
    memories: int = 0          # private memories re-sealed
    history: int = 0           # history snapshots re-sealed
    proposals: int = 0         # sealed proposal payloads (a private memory waiting for review) re-sealed
    idempotency: int = 0       # sealed request fingerprints of private writes re-sealed
    sealed_now: int = 0        # private proposals / fingerprints an older version left in clear, sealed now
    already_rotated: int = 0   # values the new key already opened (a repeated run)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class Resealer:
    def __init__(self, old: MemoryCipher, new: MemoryCipher, report: RotationReport) -> None:
        self.old, self.new, self.report = old, new, report

    def value(self, text: Any, memory_id: str) -> Any:
        if not isinstance(text, str) or not text.startswith(PREFIX):
            return text
        try:
            return self.new.encrypt(self.old.decrypt(text, memory_id), memory_id)
        except (HindsightError, ValueError):
            pass
        try:
            self.new.decrypt(text, memory_id)
        except (HindsightError, ValueError) as exc:
            where = memory_id.replace("\x00", " ")
            raise StorageError(f"'{where}': sealed under neither the current key nor the new one; "
                               "nothing was changed") from exc
        self.report.already_rotated += 1
        return text

    def fields(self, data: dict[str, Any], memory_id: str) -> dict[str, Any]:
        """content, context and the sealed metadata (SEALED_METADATA_KEYS), as a record or a snapshot holds them."""
        if not data.get("encrypted", True):  # a plain snapshot (a memory made private later has both kinds)
            return data
        out = {**data, "content": self.value(data.get("content"), memory_id),
               "context": self.value(data.get("context"), memory_id)}
        if "status_reason" in data:  # sealed since attack round 26 (a forget's reason)
            out["status_reason"] = self.value(data["status_reason"], memory_id)
        metadata = data.get("metadata")
        if isinstance(metadata, dict):
            sealed = {*SEALED_METADATA_KEYS, *caller_keys(metadata)}  # the caller's values too (attack round 27)
            out["metadata"] = {key: self.value(value, memory_id) if key in sealed else value
                               for key, value in metadata.items()}
        return out


def rotate_key(store: Any, old: MemoryCipher, new: MemoryCipher) -> RotationReport:
    """Re-seal every private memory of `store` (an EncryptedStore or a backend) from `old` to `new`, atomically."""
    backend = getattr(store, "inner", store)
    report = RotationReport()
    reseal = Resealer(old, new, report)
    with backend.transaction():
        rows = backend._aux_rows("SELECT id, content, context, metadata, status_reason FROM memories WHERE encrypted = 1")
        for memory_id, content, context, metadata, reason in rows:
            fields = reseal.fields({"content": content, "context": context, "metadata": json.loads(metadata or "{}"),
                                    "status_reason": reason}, memory_id)
            backend._aux_exec("UPDATE memories SET content = ?, context = ?, metadata = ?, status_reason = ? WHERE id = ?",
                              (fields["content"], fields["context"],
                               json.dumps(fields["metadata"], ensure_ascii=False, default=str), fields["status_reason"],
                               memory_id))
            report.memories += 1
        # snapshots of private memories (also of hard-deleted ones, whose row is gone) hold their ciphertext
        snapshots = backend._aux_rows("SELECT seq, memory_id, before, after, note FROM history WHERE before LIKE ? "
                                      "OR after LIKE ?", (f"%{PREFIX}%", f"%{PREFIX}%"))
        for seq, memory_id, before, after, note in snapshots:
            parsed = [None if raw is None else json.loads(raw) for raw in (before, after)]
            if not any(snap and snap.get("encrypted") for snap in parsed):
                continue  # a plain memory whose text only looks like ciphertext
            changed = [None if snap is None else json.dumps(reseal.fields(snap, memory_id), ensure_ascii=False,
                                                            default=str) for snap in parsed]
            backend._aux_exec("UPDATE history SET before = ?, after = ?, note = ? WHERE seq = ?",
                              (changed[0], changed[1], reseal.value(note, memory_id), seq))
            report.history += 1
        # private content kept outside the memory rows: proposals (bound to their id), request fingerprints
        for proposal_id, payload, reason, note in backend._aux_rows(
                "SELECT id, payload, reason, review_note FROM proposals WHERE payload LIKE ? OR reason LIKE ?",
                (f"{PREFIX}%", f"{PREFIX}%")):
            backend._aux_exec("UPDATE proposals SET payload = ?, reason = ?, review_note = ? WHERE id = ?",
                              (reseal.value(payload, proposal_id), reseal.value(reason, proposal_id),
                               reseal.value(note, proposal_id), proposal_id))
            report.proposals += 1
        for namespace, key, fingerprint in backend._aux_rows(
                "SELECT namespace, key, request_hash FROM idempotency WHERE request_hash LIKE ?", (f"{PREFIX}%",)):
            backend._aux_exec("UPDATE idempotency SET request_hash = ? WHERE namespace = ? AND key = ?",
                              (reseal.value(fingerprint, f"idempotency\x00{namespace}\x00{key}"), namespace, key))
            report.idempotency += 1
        canary = stored_canary(backend)  # the store's key canary (security/key_check.py) names the new key
        if canary is not None:  # no private value: not counted in the report
            counted = report.already_rotated
            backend._aux_exec(f"UPDATE {backend._meta_table()} SET value = ? WHERE key = ?",
                              (reseal.value(canary, CANARY_BOUND), CANARY_KEY))
            report.already_rotated = counted
        seal_left_in_clear(backend, new, report)
    return report


def _sealed(new: MemoryCipher, text: str | None, bound: str) -> str | None:
    return new.encrypt(text, bound) if text and not text.startswith(PREFIX) else text


def seal_left_in_clear(backend: Any, new: MemoryCipher, report: RotationReport | None = None) -> int:
    """An older hindsight kept a private memory's proposal (its payload, its reason, the reviewer's note) and
    request fingerprint in clear: seal them now under `new`; returns how many rows it sealed. Run by every rotation
    and, once per store, when a store is opened with its key (`seal_once_on_open`).

    A proposal is private when it stores a `private` memory or updates or forgets a private one; a fingerprint when
    its key wrote a private memory (the memory id derives from the key)."""
    from hindsight.write.idempotency import memory_id_for

    report = report if report is not None else RotationReport()
    before = report.sealed_now
    private_ids = {str(r[0]) for r in backend._aux_rows("SELECT id FROM memories WHERE encrypted = 1")}
    for proposal_id, action, memory_id, payload, reason, note in backend._aux_rows(
            "SELECT id, action, memory_id, payload, reason, review_note FROM proposals WHERE payload NOT LIKE ?",
            (f"{PREFIX}%",)):
        try:
            stored_private = action == "store" and json.loads(payload).get("private") is True
        except (ValueError, AttributeError):
            stored_private = False
        if stored_private or (action in ("update", "forget") and memory_id in private_ids):
            backend._aux_exec("UPDATE proposals SET payload = ?, reason = ?, review_note = ? WHERE id = ?",
                              (new.encrypt(payload, proposal_id), _sealed(new, reason, proposal_id),
                               _sealed(new, note, proposal_id), proposal_id))
            report.sealed_now += 1
    for proposal_id, note in backend._aux_rows(  # decided by a version that kept the reviewer's note in clear
            "SELECT id, review_note FROM proposals WHERE payload LIKE ? AND review_note <> '' AND review_note NOT LIKE ?",
            (f"{PREFIX}%", f"{PREFIX}%")):
        backend._aux_exec("UPDATE proposals SET review_note = ? WHERE id = ?", (_sealed(new, note, proposal_id),
                                                                                proposal_id))
        report.sealed_now += 1
    for namespace, key, fingerprint in backend._aux_rows(
            "SELECT namespace, key, request_hash FROM idempotency WHERE request_hash <> '' AND request_hash NOT LIKE ?",
            (f"{PREFIX}%",)):
        if memory_id_for(namespace, key) in private_ids:
            backend._aux_exec("UPDATE idempotency SET request_hash = ? WHERE namespace = ? AND key = ?",
                              (new.encrypt(fingerprint, f"idempotency\x00{namespace}\x00{key}"), namespace, key))
            report.sealed_now += 1
    return report.sealed_now - before


#: the meta key that says a store's clear private leftovers were sealed on open (`seal_once_on_open`)
SEALED_ON_OPEN = "clear_leftovers_sealed"


def seal_once_on_open(backend: Any, cipher: MemoryCipher | None) -> int:
    """Seal what an older version left in clear (`seal_left_in_clear`) the first time the store is opened with its
    key (attack round 27: a forget proposal queued before round 26 kept its reason in clear until `rotate-key`).
    Marked done in the meta table, so later opens read one row; `hindsight migrate` clears the mark on its target
    (rows it copies from an older store are sealed on the target's next open). Returns how many rows it sealed."""
    if cipher is None or not hasattr(backend, "_aux_rows"):
        return 0
    table = backend._meta_table()
    if backend._aux_rows(f"SELECT value FROM {table} WHERE key = ?", (SEALED_ON_OPEN,)):
        return 0
    for memory_id, content in backend._aux_rows("SELECT id, content FROM memories WHERE encrypted = 1 LIMIT 1"):
        try:  # a key that does not open the store's own private memories seals nothing (a wrong key in a config)
            cipher.decrypt(content, memory_id)
        except (HindsightError, ValueError):
            return 0
    try:
        with backend.transaction():
            sealed = seal_left_in_clear(backend, cipher)
            backend._aux_exec(f"INSERT INTO {table}(key, value) VALUES (?, '1') ON CONFLICT (key) DO NOTHING",
                              (SEALED_ON_OPEN,))
    except StorageBusyError:  # another process holds the write lock: the next open seals them
        return 0
    return sealed
