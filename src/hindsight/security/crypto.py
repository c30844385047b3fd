"""AES-GCM encryption at rest for private memories (`cryptography`'s AESGCM).

The key comes from HINDSIGHT_ENCRYPTION_KEY (urlsafe base64 of 32 bytes) or
the file named by HINDSIGHT_KEY_FILE, never from the database. What this
protects and what it does not is in docs/security.md: content, context and
history snapshots are ciphertext; the keyword index holds only tags; the dense
vector is kept (so private memories stay searchable by meaning), which leaks
approximate meaning to anyone who can read the file.
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from hindsight.errors import ProviderUnavailableError
from hindsight.private_files import tighten

PREFIX = "enc:v1:"


class MemoryCipher:
    """Encrypts strings with AES-256-GCM; the memory id is bound in as associated data."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ProviderUnavailableError("encryption key must be 32 bytes (urlsafe base64 of 32 random bytes)")
        self._aead = AESGCM(key)

    def encrypt(self, plaintext: str, memory_id: str) -> str:
        nonce = secrets.token_bytes(12)
        sealed = self._aead.encrypt(nonce, plaintext.encode("utf-8"), memory_id.encode())
        return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode()

    def decrypt(self, token: str, memory_id: str) -> str:
        if not token.startswith(PREFIX):
            return token
        raw = base64.urlsafe_b64decode(token[len(PREFIX) :])
        try:
            return self._aead.decrypt(raw[:12], raw[12:], memory_id.encode()).decode("utf-8")
        except InvalidTag as exc:
            raise ProviderUnavailableError("private memory could not be decrypted: wrong key or tampered data") from exc


def generate_key() -> str:
    """A new key in the format HINDSIGHT_ENCRYPTION_KEY expects."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def load_cipher(environ: dict[str, str] | None = None) -> MemoryCipher | None:
    """The configured cipher, or None when no key is configured (private writes are then refused)."""
    env = os.environ if environ is None else environ
    value = env.get("HINDSIGHT_ENCRYPTION_KEY")
    if not value and env.get("HINDSIGHT_KEY_FILE"):
        try:
            key_file = Path(env["HINDSIGHT_KEY_FILE"]).expanduser()
            value = key_file.read_text().strip()
        except OSError as exc:
            raise ProviderUnavailableError(f"cannot read HINDSIGHT_KEY_FILE: {exc}") from exc
        tighten([key_file], "the key file (HINDSIGHT_KEY_FILE)")
    if not value:
        return None
    return cipher_from_text(value, "HINDSIGHT_ENCRYPTION_KEY")


def cipher_from_text(value: str, what: str) -> MemoryCipher:
    """A cipher for a key written as `hindsight keygen` prints it (urlsafe base64 of 32 bytes)."""
    try:
        key = base64.urlsafe_b64decode(value.strip() + "=" * (-len(value.strip()) % 4))
    except ValueError as exc:
        raise ProviderUnavailableError(f"{what} is not urlsafe base64") from exc
    return MemoryCipher(key)
