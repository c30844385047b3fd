"""Pick the vector index the settings ask for (the SQLite file is the record store either way)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex

#: `auto` switches from exact search to the HNSW graph at this many stored vectors (docs/benchmarks.md: exact
#: search over 100k vectors of dim 384 takes ~15 ms on one core, over 1M ~150 ms; HNSW stays ~1 ms).
AUTO_HNSW_AT = 100_000


def _stored_vectors(db_path: Path) -> int:
    if str(db_path) == ":memory:" or not Path(db_path).exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
    except sqlite3.Error:  # an older schema (migrated on open) or a busy file: decide as for a small store
        return 0


def _usearch_available() -> bool:
    try:
        import usearch.index  # noqa: F401
    except ImportError:
        return False
    return True


def create_vector_index(settings: HindsightSettings, db_path: Path) -> VectorIndex:
    """`exact`: in process, rebuilt on open. `hnsw`: usearch graph persisted in `<db>.ann/`. `qdrant`: a Qdrant
    server at `qdrant_url`, or qdrant-client's local mode in `qdrant_path` (default: next to the database).
    `auto` (default): exact below AUTO_HNSW_AT vectors, hnsw from there when usearch is installed."""
    backend = settings.vector_backend
    if backend == "auto":
        big = _stored_vectors(db_path) >= AUTO_HNSW_AT
        backend = "hnsw" if big and _usearch_available() else "exact"
    if backend == "exact":
        return ExactVectorIndex()
    if backend == "hnsw":
        from hindsight.storage.ann_hnsw import HnswVectorIndex

        return HnswVectorIndex(None if str(db_path) == ":memory:" else Path(f"{db_path}.ann"))
    from hindsight.storage.qdrant_index import QdrantVectorIndex

    local = settings.qdrant_path or Path(f"{db_path}.qdrant")
    return QdrantVectorIndex(collection=settings.qdrant_collection, url=settings.qdrant_url,
                             path=None if settings.qdrant_url else str(local), api_key=settings.qdrant_api_key)
