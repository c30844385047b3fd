"""Dense vectors in Qdrant: the scale-out vector channel behind the same SQLite record store.

The seed's architecture splits the work the same way: a vector engine for semantic
recall, a relational store for records, filters, history and keyword search. The
SQLite file stays the source of truth (rows, FTS5, history, edges); this index
holds one Qdrant point per memory, id = the SQLite rowid, so the record store's
scope (namespace, status, type, tags, time, privacy) is applied exactly as with
the exact in-process index: the allowed rowids go to Qdrant as a `HasIdCondition`.

It speaks to a Qdrant server (`url`, HNSW, sharding, replicas: what one machine
cannot hold) or runs qdrant-client's local mode (`path` on disk, or ":memory:"),
the same API without a server, which is how the conformance suite tests it.
On open the collection is re-synced from SQLite when its point count differs,
so a lost or stale collection heals itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import numpy as np

from hindsight.errors import ProviderUnavailableError

#: Points sent per upsert call while re-syncing a collection.
UPLOAD_BATCH = 256


def _client(url: str | None, path: str | None, api_key: str | None) -> Any:
    try:
        from qdrant_client import QdrantClient
    except ImportError as exc:
        raise ProviderUnavailableError(
            "the qdrant vector backend needs qdrant-client: pip install 'hindsight-memory[qdrant]'") from exc
    if url:
        return QdrantClient(url=url, api_key=api_key)
    return QdrantClient(path=path) if path and path != ":memory:" else QdrantClient(":memory:")


class QdrantVectorIndex:
    """The `VectorIndex` of `storage.vector_index` over one Qdrant collection (cosine distance)."""

    def __init__(self, collection: str = "hindsight", url: str | None = None, path: str | None = None,
                 api_key: str | None = None, client: Any | None = None) -> None:
        from qdrant_client import models

        self._models = models
        self._client = client if client is not None else _client(url, path, api_key)
        self.collection = collection
        self.dim: int | None = None
        self._lock = threading.Lock()
        if self._client.collection_exists(collection):
            params = self._client.get_collection(collection).config.params.vectors
            self.dim = int(params.size)

    # ------------------------------------------------------------------ VectorIndex
    def __len__(self) -> int:
        if self.dim is None:
            return 0
        return int(self._client.count(self.collection, exact=True).count)

    def _ensure_collection(self, dim: int) -> None:
        if self.dim is None:
            self._client.create_collection(
                self.collection,
                vectors_config=self._models.VectorParams(size=dim, distance=self._models.Distance.COSINE),
            )
            self.dim = dim
        elif dim != self.dim:
            raise ValueError(f"vector has dimension {dim}, index expects {self.dim}")

    def upsert(self, rowid: int, vector: np.ndarray) -> None:
        """Insert or overwrite one vector."""
        self.upsert_many([(rowid, vector)])

    def upsert_many(self, items: Iterable[tuple[int, np.ndarray]]) -> None:
        points = [self._models.PointStruct(id=int(rowid), vector=np.asarray(v, dtype=np.float32).reshape(-1).tolist())
                  for rowid, v in items]
        if not points:
            return
        with self._lock:
            self._ensure_collection(len(points[0].vector))
            for start in range(0, len(points), UPLOAD_BATCH):
                self._client.upsert(self.collection, points=points[start : start + UPLOAD_BATCH], wait=True)

    def remove(self, rowid: int) -> None:
        """Drop one vector if present."""
        if self.dim is None:
            return
        with self._lock:
            self._client.delete(self.collection, points_selector=self._models.PointIdsList(points=[int(rowid)]),
                                wait=True)

    def clear(self) -> None:
        with self._lock:
            if self._client.collection_exists(self.collection):
                self._client.delete_collection(self.collection)
            self.dim = None

    def search(self, query: np.ndarray, allowed: np.ndarray | None, limit: int) -> list[tuple[int, float]]:
        """Top `limit` (rowid, cosine) among `allowed` rowids (None = all)."""
        if self.dim is None or limit <= 0:
            return []
        query_filter = None
        if allowed is not None:
            if len(allowed) == 0:
                return []
            query_filter = self._models.Filter(
                must=[self._models.HasIdCondition(has_id=[int(x) for x in allowed])])
        response = self._client.query_points(
            self.collection, query=np.asarray(query, dtype=np.float32).reshape(-1).tolist(),
            query_filter=query_filter, limit=limit, with_payload=False,
        )
        return [(int(point.id), float(point.score)) for point in response.points]

    def sync(self, vectors: dict[int, np.ndarray]) -> None:
        """Make the collection hold exactly `vectors` (the SQLite embeddings), re-uploading only when they differ."""
        if self.dim is not None and len(self) == len(vectors):
            return
        self.clear()
        self.upsert_many(vectors.items())

    def close(self) -> None:
        self._client.close()
