"""Attack round 35 (docs/security.md "Attack round 35"): many servers on one store, the review queue, scopes, the
encryption key, resource use and crashes.

- **A wrong key at start split the store for good**: a server (or CLI) started with a `HINDSIGHT_ENCRYPTION_KEY`
  that does not open the store's private memories opened without a word; every search of a namespace holding a
  private memory failed, and every private write it took was sealed under the wrong key, so after a restart with the
  right key the searches kept failing on the row the wrong key wrote, and `rotate-key` refused the store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import EncryptionUnavailableError
from hindsight.security.crypto import generate_key


def _engine(db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    settings = HindsightSettings(db=db, hygiene=False)
    return MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))


@pytest.fixture
def keyed_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    db, key = tmp_path / "m.db", generate_key()
    engine = _engine(db, key, monkeypatch)
    engine.store_memory({"content": "Kingsley had surgery on his knee", "namespace": "ops", "private": True})
    engine.store_memory({"content": "The deploy runs on Fridays", "namespace": "ops"})
    engine.close()
    yield db, key


# ------------------------------------------------------------------ 1. a wrong key at start


def _rows(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as raw:
        return sorted(raw.execute("SELECT id, content FROM memories").fetchall())


def test_a_key_that_does_not_open_the_stores_private_memories_is_refused_at_open(
        keyed_store: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """On main the wrong key opened the store, every search of `ops` failed and a private write was sealed under
    it; restarted with the right key, `ops`' search still failed on that row."""
    db, key = keyed_store
    before = _rows(db)
    with pytest.raises(EncryptionUnavailableError, match="HINDSIGHT_ENCRYPTION_KEY") as refused:
        engine = _engine(db, generate_key(), monkeypatch)
        try:  # on main: the store opened, so the damage a server with the wrong key does
            engine.store_memory({"content": "Vendramin is allergic to penicillin", "namespace": "ops",
                                 "private": True})
        finally:
            engine.close()
    assert "rotate-key" in str(refused.value) and key not in str(refused.value)
    assert _rows(db) == before  # nothing written
    engine = _engine(db, key, monkeypatch)
    try:
        assert [h.memory.content for h in engine.search("deploy Fridays", namespace="ops")][:1] == [
            "The deploy runs on Fridays"]
    finally:
        engine.close()


def test_the_store_only_commands_still_open_with_any_key(keyed_store: tuple[Path, str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens, the audit log and `rotate-key` (which checks every sealed value itself) open the store alone."""
    from hindsight.cli_common import open_store_only

    db, _ = keyed_store
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    with open_store_only(db) as store:
        assert store.get_many([]) == {}  # opened


def test_a_store_without_private_memories_takes_any_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "plain.db"
    _engine(db, generate_key(), monkeypatch).close()
    engine = _engine(db, generate_key(), monkeypatch)
    try:
        assert engine.store_memory({"content": "Secret plan", "private": True}).memory_id
    finally:
        engine.close()
