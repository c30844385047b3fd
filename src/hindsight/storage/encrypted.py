"""Encryption at rest as a wrapper around any store: private memories reach the backend already sealed.

The backend (SQLite, PostgreSQL) stores and indexes whatever record it gets; for a record marked
`encrypted` it indexes only the tags (storage/records.py), so the keyword index never holds plaintext.
This wrapper seals content, context, the status reason (a forget's reason: attack round 26), the metadata that
carries text (the session context, the import key: `SEALED_METADATA_KEYS`) and each value of the caller's own metadata
(as JSON: attack round 27; the write path's keys stay readable) on the way in (so history snapshots are
ciphertext too), and the note of each history entry of a private memory (the forget's reason again), and opens them
on the way out. Without a key, private writes are
refused and private memories read as a placeholder.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from hindsight.errors import EncryptionUnavailableError, HindsightError, ProviderUnavailableError
from hindsight.field_rules import SEALED_METADATA_KEYS, caller_keys
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry
from hindsight.security.crypto import PREFIX, MemoryCipher
from hindsight.security.key_check import SEALED_BESIDE, claim_key, current_canary, recheck_key, stale_key
from hindsight.storage.base import Edge, MemoryStore, Scope, StoreStats

T = TypeVar("T")
LOCKED = "[encrypted: set HINDSIGHT_ENCRYPTION_KEY to read]"
#: a private memory the configured key does not open (sealed under another key: a server kept writing with the old
#: key while `rotate-key` ran, a restored or migrated row; or tampered). Attack round 45: every search, list, export
#: and write of its namespace failed with a bare "could not be decrypted" that named nothing, retryable, and the
#: memory could not even be hard-deleted (the delete read it first)
UNOPENED = ("private memory '{id}' (namespace '{ns}') could not be decrypted with this key (sealed under another "
            "key, or tampered): start with the key that sealed it (`hindsight rotate-key` re-seals a store left under "
            "two keys), or erase it with `hindsight delete {id} --namespace {ns} --yes` (or memory_delete); nothing "
            "was read or written")
#: the same where this process's key no longer opens the store's canary: `rotate-key` ran beside it (attack round 46:
#: a server holding the old key named every memory the rotation re-sealed as one to erase)
UNOPENED_ROTATED = ("private memory '{id}' (namespace '{ns}') could not be decrypted with this key: the store's key "
                    "changed since this process opened it (`hindsight rotate-key` ran beside it?), so the memory is "
                    "sealed under the store's current key: restart this process with that key (do not erase it); "
                    "nothing was read or written")
#: the memory a hard delete is erasing (`erasing`): the one record that reads as the placeholder where the key does
#: not open it, so it can be erased; any other memory the key does not open still stops the call
_ERASING: ContextVar[str | None] = ContextVar("hindsight_erasing", default=None)


def unopened(memory_id: str, namespace: str, rotated: bool = False) -> EncryptionUnavailableError:
    """The refusal for a private memory the key does not open; it carries `memory_id` and `namespace`, so a read by id
    from another namespace answers `not_found` instead (engine_read.py: its existence does not leak). `rotated`: the
    store's key changed under this process (the memory is fine; the process holds the old key)."""
    error = EncryptionUnavailableError((UNOPENED_ROTATED if rotated else UNOPENED).format(id=memory_id, ns=namespace))
    error.memory_id, error.namespace = memory_id, namespace  # type: ignore[attr-defined]
    return error


def elsewhere_absent(read: Callable[[], T], namespace: str) -> T | None:
    """`read()` (a read by id), or None where it stopped on a private memory the key does not open that lives in
    another namespace than `namespace`: the caller then answers `not_found`, as for any memory of another namespace."""
    try:
        return read()
    except EncryptionUnavailableError as exc:
        if getattr(exc, "namespace", namespace) != namespace:
            return None
        raise


@contextmanager
def erasing(memory_id: str) -> Iterator[None]:
    """Inside the block the memory `memory_id` opens as the placeholder when the key does not open it."""
    token = _ERASING.set(memory_id)
    try:
        yield
    finally:
        _ERASING.reset(token)


class EncryptedStore(MemoryStore):
    """Delegates to `inner`; private records are sealed before they reach it and opened after."""

    def __init__(self, inner: MemoryStore, cipher: MemoryCipher | None, check_key: bool = True) -> None:
        self.inner = inner
        self._cipher = cipher
        self.supports_encryption = cipher is not None
        # the store's key is claimed / checked before the first value this object seals (security/key_check.py),
        # and checked again before each later one where the canary changed (`rotate-key` beside it: attack round 46)
        self._key_checked = not check_key
        self._recheck = check_key
        self._canary: str | None = None

    def _check_key(self) -> None:
        if self._cipher is None:
            return
        if not self._key_checked:
            claim_key(self.inner, self._cipher)
            self._key_checked = True
            self._canary = current_canary(self.inner)
        elif self._recheck:
            self._canary = recheck_key(self.inner, self._cipher, self._canary)

    # ------------------------------------------------------------------ sealing
    def _seal(self, record: MemoryRecord) -> MemoryRecord:
        if not record.encrypted:
            return record
        if self._cipher is None:
            raise EncryptionUnavailableError("private memories need an encryption key: set HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE")
        self._check_key()
        metadata = dict(record.metadata)
        for key in SEALED_METADATA_KEYS:
            if key in metadata:
                metadata[key] = self._cipher.encrypt(str(metadata[key]), record.id)
        for key in caller_keys(metadata):  # the caller's own metadata: a value as JSON, sealed (attack round 27)
            metadata[key] = self._cipher.encrypt(json.dumps(metadata[key], ensure_ascii=False), record.id)
        return record.model_copy(update={
            "content": self._cipher.encrypt(record.content, record.id),
            "context": self._cipher.encrypt(record.context, record.id) if record.context else "",
            "status_reason": self._seal_note(record, record.status_reason),
            "metadata": metadata,
        })

    def _seal_note(self, record: MemoryRecord, note: str) -> str:
        """A private memory's reason or history note sealed; a public one's, and an empty one, as it is."""
        if not note or not record.encrypted or self._cipher is None or note.startswith(PREFIX):
            return note
        return self._cipher.encrypt(note, record.id)

    def seal_text(self, text: str, bound: str) -> str:
        if self._cipher is None:
            return super().seal_text(text, bound)
        self._check_key()
        return self._cipher.encrypt(text, bound)

    def open_text(self, text: str, bound: str) -> str:
        """A value sealed beside the memory rows (a proposal, a keyed private write's fingerprint, a store secret):
        one the key does not open is `encryption_unavailable` (attack round 46: a bare, retryable
        `provider_unavailable` that named nothing)."""
        try:
            return self._open_note(text, bound)
        except ProviderUnavailableError as exc:
            if isinstance(exc, EncryptionUnavailableError):
                raise
            raise EncryptionUnavailableError(SEALED_BESIDE) from exc

    def _open_note(self, text: str, bound: str) -> str:
        """A memory's own sealed note or snapshot field: a key that does not open it stays the memory's refusal
        (`_open`, `history`: named by `unopened`, or erased)."""
        if not text.startswith(PREFIX):
            return text
        return self._open_text(bound, text)

    def _open_text(self, memory_id: str, text: str) -> str:
        if not text:
            return text
        return LOCKED if self._cipher is None else self._cipher.decrypt(text, memory_id)

    def _open_value(self, memory_id: str, value: Any) -> Any:
        """A caller's metadata value of a private memory as written: sealed JSON opened; a value an older version
        stored in clear as it is."""
        if not isinstance(value, str) or not value.startswith(PREFIX):
            return value
        if self._cipher is None:
            return LOCKED
        try:
            return json.loads(self._cipher.decrypt(value, memory_id))
        except (ValueError, HindsightError):  # a clear value that only looks sealed (an older version; the content
            return value  # tells a wrong key)

    def _open(self, record: MemoryRecord) -> MemoryRecord:
        if not record.encrypted:
            return record
        try:
            return self._opened(record)
        except ProviderUnavailableError as exc:
            if isinstance(exc, EncryptionUnavailableError):
                raise
            if _ERASING.get() == record.id:  # a hard delete of it: what it held is not needed to erase it
                kept = {k: v for k, v in record.metadata.items()
                        if k not in SEALED_METADATA_KEYS and k not in caller_keys(record.metadata)}
                return record.model_copy(update={"content": LOCKED, "context": LOCKED if record.context else "",
                                                 "status_reason": "", "metadata": kept})
            raise unopened(record.id, record.namespace, self._rotated()) from exc

    def _rotated(self) -> bool:
        """This process's key no longer opens the store's canary (read on a refusal's path only)."""
        return self._cipher is not None and self._recheck and stale_key(self.inner, self._cipher)

    def _opened(self, record: MemoryRecord) -> MemoryRecord:
        metadata = dict(record.metadata)
        for key in SEALED_METADATA_KEYS:
            if key in metadata:
                metadata[key] = self._open_text(record.id, str(metadata[key]))
        for key in caller_keys(metadata):
            metadata[key] = self._open_value(record.id, metadata[key])
        return record.model_copy(update={"content": self._open_text(record.id, record.content),
                                         "context": self._open_text(record.id, record.context),
                                         "status_reason": self._open_note(record.status_reason, record.id),
                                         "metadata": metadata})

    # ------------------------------------------------------------- record paths
    def insert(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, note: str = "") -> None:
        self.inner.insert(self._seal(record), embedding, actor=actor, note=self._seal_note(record, note))

    def replace(self, record: MemoryRecord, embedding: np.ndarray | None, *, actor: str, action: str,
                note: str = "") -> MemoryRecord:
        return self._open(self.inner.replace(self._seal(record), embedding, actor=actor, action=action,
                                             note=self._seal_note(record, note)))

    def delete(self, memory_id: str, *, actor: str, note: str = "") -> MemoryRecord | None:
        if note:  # a hard delete's reason of a private memory: sealed like its forget reason
            current = self.inner.get(memory_id)
            note = self._seal_note(current, note) if current is not None else note
        before = self.inner.delete(memory_id, actor=actor, note=note)
        return None if before is None else self._open(before)

    def get(self, memory_id: str) -> MemoryRecord | None:
        record = self.inner.get(memory_id)
        return None if record is None else self._open(record)

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        return {mid: self._open(r) for mid, r in self.inner.get_many(memory_ids).items()}

    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> builtins.list[MemoryRecord]:
        return [self._open(r) for r in self.inner.list(scope, limit=limit, offset=offset, newest_first=newest_first)]

    def iter_all(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        return (self._open(r) for r in self.inner.iter_all(namespace))

    def insert_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None]], *, actor: str,
                    note: str = "") -> None:
        if note and any(r.encrypted for r, _ in items):
            for record, vector in items:
                self.insert(record, vector, actor=actor, note=note)  # each private memory's note sealed to its id
            return
        self.inner.insert_many([(self._seal(r), v) for r, v in items], actor=actor, note=note)

    def restore_many(self, items: Sequence[tuple[MemoryRecord, np.ndarray | None, Sequence[HistoryEntry]]]) -> None:
        """Records arrive as stored (sealed): they pass through untouched."""
        self.inner.restore_many(items)

    def restore(self, record: MemoryRecord, embedding: np.ndarray | None, history: Sequence[HistoryEntry]) -> None:
        """The record is already as stored (sealed): it passes through untouched."""
        self.inner.restore(record, embedding, history)

    def readable(self, record: MemoryRecord) -> MemoryRecord:
        """`record` as stored with its sealed text opened (what its vector is made of); without the key
        EncryptionUnavailableError, never the placeholder."""
        if record.encrypted and self._cipher is None:
            raise EncryptionUnavailableError("private memories need the key that sealed them: set "
                                             "HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE")
        return self._open(record)

    def iter_sealed(self, namespace: str | None = None) -> Iterator[MemoryRecord]:
        """Records as stored (private ones still ciphertext): what `hindsight migrate` copies."""
        return self.inner.iter_all(namespace)

    # ------------------------------------------------------------- delegation
    def transaction(self, namespace: str | None = None) -> AbstractContextManager[None]:
        return self.inner.transaction(namespace)

    def namespace_lock(self, namespace: str) -> AbstractContextManager[None]:
        return self.inner.namespace_lock(namespace)

    def count(self, scope: Scope) -> int:
        return self.inner.count(scope)

    def dense_search(self, scope: Scope, vector: np.ndarray, limit: int) -> builtins.list[tuple[str, float]]:
        return self.inner.dense_search(scope, vector, limit)

    def keyword_search(self, scope: Scope, terms: Sequence[str], limit: int,
                       neighbour_weight: float = 0.5) -> builtins.list[tuple[str, float]]:
        return self.inner.keyword_search(scope, terms, limit, neighbour_weight)

    def session_neighbours(self, scope: Scope, memory_ids: Sequence[str], window: int
                           ) -> dict[str, builtins.list[tuple[str, int]]]:
        return self.inner.session_neighbours(scope, memory_ids, window)  # ids only: nothing to open

    def get_embeddings(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        return self.inner.get_embeddings(memory_ids)

    def record_access(self, memory_ids: Sequence[str], at: datetime) -> None:
        self.inner.record_access(memory_ids, at)

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """A private memory's snapshots opened like the record itself (they stay sealed at rest, in backups and
        through `all_history`); without a key they read as the placeholder."""
        entries = self.inner.history(memory_id)
        try:
            return [e.model_copy(update={"before": self._open_snapshot(memory_id, e.before),
                                         "after": self._open_snapshot(memory_id, e.after),
                                         "note": self._open_note(e.note, memory_id)}) for e in entries]
        except ProviderUnavailableError as exc:
            if isinstance(exc, EncryptionUnavailableError):
                raise
            if _ERASING.get() == memory_id:  # a hard delete reads who wrote it, never what it held
                return entries
            last = next((e.after or e.before for e in reversed(entries) if (e.after or e.before)), None) or {}
            raise unopened(memory_id, str(last.get("namespace", "")), self._rotated()) from exc

    def _open_snapshot(self, memory_id: str, snapshot: dict[str, Any] | None) -> dict[str, Any] | None:
        if not snapshot or not snapshot.get("encrypted"):
            return snapshot
        opened = dict(snapshot)
        for key in ("content", "context", "status_reason"):
            if isinstance(opened.get(key), str):
                opened[key] = self._open_note(opened[key], memory_id)
        if isinstance(opened.get("metadata"), dict):
            callers = set(caller_keys(opened["metadata"]))
            opened["metadata"] = {k: self._open_note(str(v), memory_id) if k in SEALED_METADATA_KEYS
                                  else self._open_value(memory_id, v) if k in callers else v
                                  for k, v in opened["metadata"].items()}
        return opened

    def add_edge(self, edge: Edge) -> None:
        self.inner.add_edge(edge)

    def edges(self, memory_ids: Sequence[str], kinds: Sequence[str] | None = None) -> builtins.list[Edge]:
        return self.inner.edges(memory_ids, kinds)

    def stats(self, namespace: str | None = None) -> StoreStats:
        return self.inner.stats(namespace)

    @property
    def embedding_model(self) -> str | None:
        return self.inner.embedding_model

    def set_embedding_model(self, model_name: str) -> None:
        self.inner.set_embedding_model(model_name)

    def reset_embeddings(self, model_name: str, vectors: dict[str, np.ndarray]) -> None:
        self.inner.reset_embeddings(model_name, vectors)

    # ------------------------------------------------------------- backups (records stay sealed)
    def ids_with_prefix(self, prefix: str, namespace: str, limit: int = 2) -> builtins.list[str]:
        return self.inner.ids_with_prefix(prefix, namespace, limit)

    def all_history(self) -> Iterator[HistoryEntry]:
        return self.inner.all_history()

    def all_edges(self) -> builtins.list[Edge]:
        return self.inner.all_edges()

    def restore_raw(self, records: Sequence[tuple[MemoryRecord, np.ndarray | None]],
                    history: Sequence[HistoryEntry], edges: Sequence[Edge]) -> None:
        """Backup records arrive as they were stored (private ones sealed with the store's key)."""
        self.inner.restore_raw(records, history, edges)

    def __getattr__(self, name: str) -> Any:
        """Backend extras (`backup_to`, `restore_from`, `index_size`, `set_archive_boundary`, `frequent_terms`) pass
        through."""
        if name in ("backup_to", "restore_from", "index_size", "set_archive_boundary", "archive_boundary",
                    "frequent_terms"):
            return getattr(self.inner, name)
        raise AttributeError(name)

    def get_idempotent(self, namespace: str, key: str) -> tuple[str, str] | None:
        return self.inner.get_idempotent(namespace, key)

    def put_idempotent(self, namespace: str, key: str, result_json: str, at: float,
                       request_hash: str = "") -> tuple[str, str]:
        return self.inner.put_idempotent(namespace, key, result_json, at, request_hash)

    def close(self) -> None:
        self.inner.close()

    # the aux tables run on the inner store's connection
    def _json_namespace(self, col: str) -> str:
        return self.inner._json_namespace(col)

    def _meta_table(self) -> str:
        return self.inner._meta_table()

    def _aux_rows(self, sql: str, params: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        return self.inner._aux_rows(sql, params)

    def _aux_exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        return self.inner._aux_exec(sql, params)


def texts_to_embed(store: MemoryStore, records: Sequence[MemoryRecord], why: str) -> list[str]:
    """What to embed for `records` (as stored) under a new embedding model: a private memory's opened text, never
    its ciphertext or the locked placeholder (attack round 17: a restore across models and an open with another
    model embedded the sealed text, or the placeholder, as the private memories' vectors). Without the key (or a
    store that cannot open them) EncryptionUnavailableError, naming `why`, before anything changes."""
    sealed = sum(1 for record in records if record.encrypted)
    if sealed and not getattr(store, "supports_encryption", False):
        raise EncryptionUnavailableError(
            f"{why}: {sealed} private memor{'y needs its vector' if sealed == 1 else 'ies need their vectors'} made "
            "again from the text, which needs the key that sealed it: set HINDSIGHT_ENCRYPTION_KEY or "
            "HINDSIGHT_KEY_FILE (or keep the embedding model the store was written with); nothing was changed")
    opened = store.readable if isinstance(store, EncryptedStore) else (lambda record: record)
    return [opened(record).embedding_text for record in records]
