"""A key that does not open the store's private memories is refused when the store is opened (attack round 35).

Before, a server (or CLI) started with a wrong `HINDSIGHT_ENCRYPTION_KEY` / `HINDSIGHT_KEY_FILE` opened without a
word: every search of a namespace holding a private memory failed (`private memory could not be decrypted`), and
every private write it took was sealed under the wrong key, so the store held two keys; restarted with the right key,
the searches kept failing on the rows the wrong key wrote, and `rotate-key` refused the store ("sealed under neither
the current key nor the new one"). Now the store's most recently written private memory must open with the key, or
the open fails with `encryption_unavailable` naming the setting, before anything is read or written.

A store with no private memory accepts any key (there is nothing to tell it by). `rotate-key` and the store-only
commands (tokens, audit) open without this check: rotation checks every value itself.
"""

from __future__ import annotations

from typing import Any

from hindsight.errors import EncryptionUnavailableError, HindsightError
from hindsight.security.crypto import PREFIX, MemoryCipher

LATEST_PRIVATE = ("SELECT id, content FROM memories WHERE encrypted = 1 "
                  "ORDER BY updated_at DESC, id DESC LIMIT 1")


def refuse_wrong_key(backend: Any, cipher: MemoryCipher | None) -> None:
    """Raise `EncryptionUnavailableError` when `cipher` does not open the latest private memory of `backend`."""
    if cipher is None or not hasattr(backend, "_aux_rows"):
        return
    for memory_id, content in backend._aux_rows(LATEST_PRIVATE):
        if not isinstance(content, str) or not content.startswith(PREFIX):
            return  # left in clear by an older version: nothing to tell the key by
        try:
            cipher.decrypt(content, memory_id)
        except (HindsightError, ValueError) as exc:
            raise EncryptionUnavailableError(
                "HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE: the key does not open this store's private "
                f"memories (the latest written, '{memory_id}'): a wrong key, or a key rotation not finished "
                "(run `hindsight rotate-key` again); nothing was read or written") from exc
