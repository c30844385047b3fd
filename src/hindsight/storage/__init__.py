"""Storage backends behind the `MemoryStore` interface."""
from hindsight.storage.base import Edge, MemoryStore, Scope, StoreStats
from hindsight.storage.sqlite_store import SQLiteStore

__all__ = ["Edge", "MemoryStore", "SQLiteStore", "Scope", "StoreStats"]
