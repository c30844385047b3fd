"""Pick the vector index the settings ask for (the SQLite file is the record store either way)."""

from __future__ import annotations

from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex


def create_vector_index(settings: HindsightSettings, db_path: Path) -> VectorIndex:
    """`exact` (default): in process, rebuilt on open. `qdrant`: a Qdrant server at `qdrant_url`, or
    qdrant-client's local mode in `qdrant_path` (default: next to the database file)."""
    if settings.vector_backend == "exact":
        return ExactVectorIndex()
    from hindsight.storage.qdrant_index import QdrantVectorIndex

    local = settings.qdrant_path or Path(f"{db_path}.qdrant")
    return QdrantVectorIndex(collection=settings.qdrant_collection, url=settings.qdrant_url,
                             path=None if settings.qdrant_url else str(local), api_key=settings.qdrant_api_key)
