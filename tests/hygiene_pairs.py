"""Shared by the hygiene tests: store two memories in one namespace and read what happened to the first."""

from __future__ import annotations

from hindsight.engine import MemoryEngine
from hindsight.model import Status


def pair(eng: MemoryEngine, old: str, new: str) -> tuple[str, Status]:
    """Store `old` then `new`; the second write's action and the first memory's status."""
    first = eng.store_memory({"content": old, "type": "semantic"})
    second = eng.store_memory({"content": new, "type": "semantic"})
    record = eng.store.get(first.memory_id)
    assert record is not None
    return second.action, record.status
