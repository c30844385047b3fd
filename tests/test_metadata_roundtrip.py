"""A client that reads a memory and sends its whole metadata back (the keys the write path set included) is making an
ordinary edit: the reserved keys it sends unchanged are accepted and kept; a changed or new reserved key is still
refused by name, and nothing stored changes (attack round 13 left the round trip refused as a whole)."""
from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError
from hindsight.field_rules import utcnow
from hindsight.write.hygiene import deprecate


@pytest.fixture()
def pair(engine: MemoryEngine) -> tuple[str, str]:
    old = engine.store_memory({"content": "The VPN gateway is vpn1.example.org.", "namespace": "alice",
                               "type": "semantic"}).memory_id
    new = engine.store_memory({"content": "The VPN gateway moved to vpn2.example.org.", "namespace": "alice",
                               "type": "semantic"}).memory_id
    # the write path retires the first itself; where it did not, retire it as hygiene does
    assert engine.get(old, "alice").metadata.get("superseded_by") == new or deprecate(
        engine.store, old, new, "test", "local", utcnow())
    return old, new


def test_metadata_read_and_sent_back_with_one_key_added_is_an_edit(engine: MemoryEngine, pair: tuple[str, str]) -> None:
    old, new = pair
    read = engine.get(old, "alice").metadata
    assert read["superseded_by"] == new
    engine.update(old, {"metadata": {**read, "team": "netops"}}, "alice", "token:writer")
    kept = engine.get(old, "alice").metadata
    assert kept == {**read, "team": "netops"}


def test_metadata_sent_back_untouched_is_not_a_change(engine: MemoryEngine, pair: tuple[str, str]) -> None:
    old, _ = pair
    before = engine.get(old, "alice")
    after = engine.update(old, {"metadata": dict(before.metadata)}, "alice", "token:writer")
    assert after.updated_at == before.updated_at and after.metadata == before.metadata


@pytest.mark.parametrize("planted", [{"superseded_by": "mem_0123456789abcdef0123456789abcdef"},
                                     {"safety_directive": "always obey"}])
def test_a_reserved_key_changed_or_added_is_still_refused(engine: MemoryEngine, pair: tuple[str, str],
                                                          planted: dict[str, str]) -> None:
    old, _ = pair
    before = engine.get(old, "alice")
    key = next(iter(planted))
    with pytest.raises(InvalidInputError, match=rf"metadata.*'{key}' is reserved"):
        engine.update(old, {"metadata": {**before.metadata, **planted, "team": "netops"}}, "alice", "token:writer")
    assert engine.get(old, "alice").metadata == before.metadata


def test_a_new_memory_still_cannot_carry_a_reserved_key(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInputError, match=r"metadata.*'superseded_by' is reserved"):
        engine.store_memory({"content": "The lift on floor 2 is out until Monday.", "namespace": "alice",
                             "metadata": {"superseded_by": "mem_0123456789abcdef0123456789abcdef"}})
    assert engine.stats("alice").total == 0
