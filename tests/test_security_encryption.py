"""Private memories: AES-GCM at rest, no plaintext in the keyword index or history, key never in the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import EncryptionUnavailableError, HindsightError
from hindsight.security.crypto import generate_key

SECRET_TEXT = "我的体检报告显示血压偏高 blood pressure 150/95"


def _open(db: Path, embedder: Embedder) -> MemoryEngine:
    return MemoryEngine.open(db, HindsightSettings(db=db), embedder)


def test_private_memory_is_ciphertext_on_disk(tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    key = generate_key()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    db = tmp_path / "enc.db"
    engine = _open(db, embedder)
    mid = engine.store_memory({"content": SECRET_TEXT, "private": True, "tags": ["health"]}).memory_id
    engine.update(mid, {"context": "only for the doctor visit"})
    assert engine.get(mid).content == SECRET_TEXT
    assert engine.search("blood pressure", top_k=1)[0].memory.id == mid  # searchable by meaning (dense)
    engine.close()

    raw = sqlite3.connect(db)
    content, context = raw.execute("SELECT content, context FROM memories WHERE id = ?", (mid,)).fetchone()
    assert content.startswith("enc:v1:") and context.startswith("enc:v1:")
    dump = "\n".join(str(row) for table in ("memories", "memories_fts", "history", "meta")
                     for row in raw.execute(f"SELECT * FROM {table}"))
    assert "血压" not in dump and "blood" not in dump and "doctor" not in dump and key not in dump
    assert raw.execute("SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH 'health'").fetchone()[0] == 1
    raw.close()

    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY")
    locked = _open(db, embedder)
    assert locked.get(mid).content.startswith("[encrypted")
    with pytest.raises(HindsightError) as info:
        locked.store_many([{"content": "public one"}, {"content": "another secret", "private": True}])
    assert "HINDSIGHT_ENCRYPTION_KEY" in str(info.value)
    assert locked.stats().total == 1
    locked.close()


def test_wrong_key_does_not_decrypt(tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    db = tmp_path / "enc2.db"
    engine = _open(db, embedder)
    mid = engine.store_memory({"content": "private note", "private": True}).memory_id
    engine.close()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    with pytest.raises(EncryptionUnavailableError, match="HINDSIGHT_ENCRYPTION_KEY"):  # refused at open (round 35)
        _open(db, embedder).close()
    from hindsight.storage.factory import open_store

    other = open_store(db, verify_key=False)  # opened past the check, the key still opens nothing
    try:
        with pytest.raises(Exception) as info:
            other.get(mid)
        assert "decrypt" in str(info.value)
    finally:
        other.close()
