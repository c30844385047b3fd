"""A real engine holding Chinese and English memories exactly as written (hygiene off, reads not recorded)."""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine


def open_mixed(db: Path, embedder: Embedder, texts: list[str], start: datetime) -> tuple[MemoryEngine, dict[str, str],
                                                                                         HindsightSettings]:
    """Store `texts` an hour apart from `start`; returns the engine, text -> memory id, and its settings."""
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=embedder)
    engine.writer.hygiene = None  # every memory stays as written
    ids = {}
    for i, text in enumerate(texts):
        ids[text] = engine.store_memory({"content": text, "event_time": start + timedelta(hours=i)}).memory_id
    return engine, ids, settings
