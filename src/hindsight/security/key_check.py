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

_PRIVATE = "SELECT id, content FROM memories WHERE encrypted = 1 ORDER BY updated_at {order}, id {order} LIMIT 1"


def refuse_wrong_key(backend: Any, cipher: MemoryCipher | None) -> None:
    """Raise `EncryptionUnavailableError` when `cipher` opens neither the earliest nor the latest written private
    memory of `backend`."""
    if cipher is None or not hasattr(backend, "_aux_rows"):
        return
    sample = {row[0]: row[1] for order in ("DESC", "ASC") for row in backend._aux_rows(_PRIVATE.format(order=order))}
    sealed = {mid: text for mid, text in sample.items() if isinstance(text, str) and text.startswith(PREFIX)}
    if not sealed:
        return  # none, or left in clear by an older version: nothing to tell the key by
    for memory_id, text in sealed.items():
        try:
            cipher.decrypt(text, memory_id)
            return
        except (HindsightError, ValueError):
            continue
    raise EncryptionUnavailableError(
        "HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE: the key opens none of this store's private memories (tried "
        f"{', '.join(repr(m) for m in sealed)}): a wrong key, or the key before a rotation; nothing was read or "
        "written")
