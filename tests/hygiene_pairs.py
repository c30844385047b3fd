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


def pair_among(eng: MemoryEngine, old: str, new: str, before: list[str]) -> tuple[str, Status, str]:
    """Store the unrelated `before` notes, then `old`, then `new` (namespace "n"); the last write's action, the status of
    `old` and the write's reason."""
    for text in before:
        eng.store_memory({"content": text, "namespace": "n", "type": "semantic"})
    first = eng.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    out = eng.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    return out.action, eng.get(first.memory_id, "n", record_access=False).status, out.reason


def assert_retires_among(eng: MemoryEngine, old: str, new: str, others: list[str]) -> None:
    """Store `old`, the unrelated `others`, then `new` (namespace "n"): the new write supersedes `old`, which is
    deprecated, and every other memory stays active."""
    first = eng.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    kept = [eng.store_memory({"content": c, "namespace": "n", "type": "semantic"}).memory_id for c in others]
    out = eng.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action == "superseded"
    assert eng.get(first.memory_id, "n", record_access=False).status == Status.deprecated
    assert all(eng.get(mid, "n", record_access=False).status == Status.active for mid in kept)
