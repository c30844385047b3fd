"""The engine on the Qdrant vector backend (qdrant-client local mode: the real client, no server).

Same write path, same search path; only where dense vectors are searched changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.storage.qdrant_index import QdrantVectorIndex

pytest.importorskip("qdrant_client")


def _open(tmp_path: Path, embedder: Embedder) -> MemoryEngine:
    settings = HindsightSettings(db=tmp_path / "memory.db", vector_backend="qdrant")
    return MemoryEngine.open(settings.db, settings=settings, embedder=embedder)


def test_engine_stores_and_searches_through_qdrant(tmp_path: Path, embedder: Embedder) -> None:
    engine = _open(tmp_path, embedder)
    try:
        assert isinstance(engine.store.inner._index, QdrantVectorIndex)  # type: ignore[attr-defined]
        en = engine.store_memory({"content": "The staging database runs PostgreSQL 16.", "type": "semantic"})
        zh = engine.store_memory({"content": "用户喜欢用深色主题写代码。", "type": "semantic"})
        engine.store_memory({"content": "Lunch on Fridays is at the Thai place.", "namespace": "other"})
        assert engine.search("which postgres version on staging")[0].memory.id == en.memory_id
        top = engine.search("深色主题")[0]
        assert top.memory.id == zh.memory_id and top.why.dense_rank is not None
        assert all(h.memory.namespace == "default" for h in engine.search("lunch Thai"))  # scope still applies
    finally:
        engine.close()
    assert (tmp_path / "memory.db.qdrant").is_dir()  # local mode keeps the collection next to the database

    reopened = _open(tmp_path, embedder)
    try:
        assert reopened.search("PostgreSQL staging")[0].memory.id == en.memory_id
    finally:
        reopened.close()


def test_unknown_backend_is_a_settings_error() -> None:
    with pytest.raises(ValueError):
        HindsightSettings(vector_backend="faiss")  # type: ignore[arg-type]
