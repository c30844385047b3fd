"""`StoreClient`: the small services that keep their rows in the store (tokens, audit, review proposals).

They take the store their caller opened; `Service.open(url)` opens one for them to own (scripts, tests,
the CLI), and `close()` then closes it. They never open a connection of their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from hindsight.storage.base import MemoryStore

T = TypeVar("T", bound="StoreClient")


class StoreClient:
    _store: MemoryStore
    _owned: bool = False

    def __init__(self, store: MemoryStore) -> None:
        self._store = store

    @classmethod
    def open(cls: type[T], url: str | Path) -> T:
        """An instance over the store `url` names (a SQLite path or a postgresql:// URL), closed by `close()`."""
        from hindsight.storage.factory import open_store

        client = cls(open_store(url))
        client._owned = True
        return client

    @property
    def store(self) -> MemoryStore:
        """The store this service keeps its rows in (another service over the same tables may share it)."""
        return self._store

    def close(self) -> None:
        """Closes the store only when `open` opened it; a store passed in stays its caller's."""
        if self._owned:
            self._store.close()
