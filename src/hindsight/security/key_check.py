"""A key that opens none of the store's private memories is refused when the store is opened (attack round 35).

Before, a server (or CLI) started with a wrong `HINDSIGHT_ENCRYPTION_KEY` / `HINDSIGHT_KEY_FILE` opened without a
word: every search of a namespace holding a private memory failed (`private memory could not be decrypted`), and
every private write it took was sealed under the wrong key, so the store held two keys; restarted with the right key,
the searches kept failing on the rows the wrong key wrote, and `rotate-key` refused the store ("sealed under neither
the current key nor the new one"). Now the key must open the store's earliest or its latest written private memory,
or the open fails with `encryption_unavailable` naming the setting, before anything is read or written.

Either of the two will do, so a store left under two keys keeps opening with each of them: after `rotate-key` while
a server kept writing with the old key (the documented remedy: run it again), or split by a wrong key before this
check (that key then opens it too, to delete what it wrote). A store with no private memory accepts any key (there
is nothing to tell it by). `rotate-key` and the store-only commands (tokens, audit) open without this check: rotation
checks every value itself.
"""

from __future__ import annotations

from typing import Any

from hindsight.errors import EncryptionUnavailableError, HindsightError
from hindsight.security.crypto import PREFIX, MemoryCipher

#: the meta row holding the canary: a fixed text sealed under the store's key, bound to CANARY_BOUND
CANARY_KEY = "key_canary"
CANARY_BOUND = "hindsight\x00key-canary"
_CANARY_TEXT = "hindsight key canary"

_PRIVATE = "SELECT id, content FROM memories WHERE encrypted = 1 ORDER BY updated_at {order}, id {order} LIMIT 1"


def refuse_wrong_key(backend: Any, cipher: MemoryCipher | None) -> None:
    """Raise `EncryptionUnavailableError` when `cipher` opens neither the store's key canary nor the earliest or the
    latest written private memory of `backend`. A canary row that holds no sealed value (emptied or overwritten by
    hand: no key ever sealed it) tells nothing and counts as absent (attack round 37: it opened with every key)."""
    if cipher is None or not hasattr(backend, "_aux_rows"):
        return
    canary = stored_canary(backend)
    if canary is not None and not canary.startswith(PREFIX):
        canary = None
    if canary is not None and _opens_canary(cipher, canary):
        return
    sample = {row[0]: row[1] for order in ("DESC", "ASC") for row in backend._aux_rows(_PRIVATE.format(order=order))}
    sealed = {mid: text for mid, text in sample.items() if isinstance(text, str) and text.startswith(PREFIX)}
    if not sealed and canary is None:
        return  # none, or left in clear by an older version: nothing to tell the key by
    if any(_opens(cipher, text, memory_id) for memory_id, text in sealed.items()):
        return
    tried = [*(repr(m) for m in sealed), *(["the store's key canary"] if canary is not None else [])]
    raise EncryptionUnavailableError(
        "HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE: the key opens none of this store's private memories (tried "
        f"{', '.join(tried)}): a wrong key, or the key before a rotation; nothing was read or written")


def stored_canary(backend: Any) -> str | None:
    """The canary row's value as stored (an empty one too), or None when the store has no canary row."""
    rows = backend._aux_rows(f"SELECT value FROM {backend._meta_table()} WHERE key = ?", (CANARY_KEY,))
    return str(rows[0][0] or "") if rows else None


def carry_canary(source: Any, target: Any) -> str | None:
    """Copy `source`'s key canary to `target` when it has none (`hindsight migrate`, a `.db` restored into another
    backend: attack round 37). The canary is a sealed value, copied as stored, so no key is needed. Without it a target
    whose sealed values are only proposals or fingerprints (no private memory row for the check at open to sample)
    took any key, and the first to seal claimed it (round 36's split, reached through the copy). Returns a mismatch to
    report when the target holds another canary (it was claimed on its own: its sealed values and the source's open
    with one key only if both were sealed with the same one), else None."""
    canary = stored_canary(source)
    if canary is None or not canary.startswith(PREFIX):
        return None
    target.keep_secrets({CANARY_KEY: canary})  # insert if absent: a canary the target holds stays
    if stored_canary(target) == canary:
        return None
    return ("key_canary: the target was claimed by a key of its own before this copy; the source's private values "
            "open there only if both stores were sealed with the same key (open it with the source's key to check)")


def _opens(cipher: MemoryCipher, text: str, bound: str) -> bool:
    try:
        cipher.decrypt(text, bound)
        return True
    except (HindsightError, ValueError):
        return False


def _opens_canary(cipher: MemoryCipher, canary: str) -> bool:
    """The canary is a value `cipher` sealed: `decrypt` hands a text without the sealed prefix back as it is, so a
    canary overwritten with any plain text "opened" with every key (attack round 37)."""
    if not canary.startswith(PREFIX):
        return False
    try:
        return cipher.decrypt(canary, CANARY_BOUND) == _CANARY_TEXT
    except (HindsightError, ValueError):
        return False


def claim_key(backend: Any, cipher: MemoryCipher) -> None:
    """Before a store object seals its first value: the store's canary must open with `cipher`; a store without one
    is claimed for `cipher` (insert if absent: of two servers claiming at once, the first insert wins and the other
    reads it back). Raises `EncryptionUnavailableError` when the store belongs to another key."""
    if not hasattr(backend, "_aux_rows") or not hasattr(backend, "keep_secrets"):
        return
    canary = stored_canary(backend)
    if canary is None:
        backend.keep_secrets({CANARY_KEY: cipher.encrypt(_CANARY_TEXT, CANARY_BOUND)})
        canary = stored_canary(backend)
    elif not canary.startswith(PREFIX):  # a row no key sealed (emptied or overwritten by hand): claimed as absent,
        backend._aux_exec(f"UPDATE {backend._meta_table()} SET value = ? WHERE key = ? AND value = ?",  # one writer wins
                          (cipher.encrypt(_CANARY_TEXT, CANARY_BOUND), CANARY_KEY, canary))
        canary = stored_canary(backend)
    if canary is not None and not _opens_canary(cipher, canary):
        raise EncryptionUnavailableError(
            "HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE: this store's private memories are sealed under another "
            "key (another server or process sealed its first private value with it); a value sealed with this key "
            "could not be read by that one, so nothing was written: start every server of the store with one key")


#: a value sealed beside the memory rows (storage/encrypted.py `open_text`) that the key does not open
SEALED_BESIDE = (
    "a value sealed beside the memories (a review proposal, a keyed private write's request fingerprint, a store "
    "secret) could not be decrypted with this key: it was sealed under another key (`hindsight rotate-key` ran while "
    "this process was running? restart it with the store's current key) or tampered; nothing was read or written")
ROTATED = (
    "HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE: the store's key changed since this process opened it (`hindsight "
    "rotate-key` ran beside it?): a value sealed with the key this process holds could not be read with the store's "
    "current key, so nothing was written: restart this process with the current key")


def current_canary(backend: Any) -> str | None:
    """The canary as stored, or None where the backend keeps none (a store without the meta table's helpers)."""
    return stored_canary(backend) if hasattr(backend, "_aux_rows") and hasattr(backend, "keep_secrets") else None


def stale_key(backend: Any, cipher: MemoryCipher) -> bool:
    """The store holds a sealed canary that `cipher` does not open: the key was rotated beside this process."""
    canary = current_canary(backend)
    return canary is not None and canary.startswith(PREFIX) and not _opens_canary(cipher, canary)


def recheck_key(backend: Any, cipher: MemoryCipher, seen: str | None) -> str | None:
    """Before a store object seals a value after its first: the canary it saw then must still be the store's, or the
    new one must open with `cipher`. Attack round 46: `rotate-key` beside a running server re-sealed the canary
    under the new key, and the server, checked once at its first seal, kept sealing private memories under the old
    one (acknowledged, unreadable once it restarted with the new key). One read of the canary row per sealed value;
    a rotation that commits between this check and the write's own commit still leaves that one value under the old
    key (rerun `rotate-key`, as before). Returns the canary now stored."""
    canary = current_canary(backend)
    if canary == seen:
        return seen
    try:
        claim_key(backend, cipher)
    except EncryptionUnavailableError as exc:
        raise EncryptionUnavailableError(ROTATED) from exc
    return current_canary(backend)
