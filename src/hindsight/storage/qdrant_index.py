"""Dense vectors in Qdrant: the scale-out vector channel behind the same SQLite record store.

The seed's architecture splits the work the same way: a vector engine for semantic recall, a relational
store for records, filters, history and keyword search. The SQLite file stays the source of truth (rows,
FTS5, history, edges); this index holds one Qdrant point per vector, id = its `vkey` (never reused), with the
memory's scope fields as payload (namespace, status, type, source, tags, time, importance, session, task).
Filters become payload conditions on indexed fields, so a query costs the same whatever the scope, instead of
sending every allowed id. Hits are re-checked against SQLite by the store (storage.ann_filter).

It speaks to a Qdrant server (`url`: HNSW, sharding, replicas, what one machine cannot hold) or runs
qdrant-client's local mode (`path` on disk, or ":memory:"), the same API without a server, which is how the
conformance suite tests it. Point 0 carries the store's uuid and the watermark of `vector_log` the
collection reflects, so a reopen catches up from there instead of re-uploading everything.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

import numpy as np

from hindsight.errors import ProviderUnavailableError, StorageUnavailableError
from hindsight.install_hint import extra_hint
from hindsight.storage.base import Scope
from hindsight.storage.vector_index import Payload

#: Points sent per upsert call.
UPLOAD_BATCH = 256
_META_ID = 0  # vkeys start at 1 (AUTOINCREMENT)
_KEYWORD_FIELDS = ("namespace", "status", "type", "source", "tags", "session_id", "source_task_id")
_FLOAT_FIELDS = ("t", "importance")


def _client(url: str | None, path: str | None, api_key: str | None) -> Any:
    try:
        from qdrant_client import QdrantClient
    except ImportError as exc:
        raise ProviderUnavailableError(
            "the qdrant vector backend needs qdrant-client: " + extra_hint("qdrant")) from exc
    if url:
        return QdrantClient(url=url, api_key=api_key)
    if not path or path == ":memory:":
        return QdrantClient(":memory:")
    try:
        return QdrantClient(path=path)
    except RuntimeError as exc:  # local mode is one process: a running server holds the folder (attack round 40)
        if "already accessed" not in str(exc):
            raise
        raise StorageUnavailableError(
            f"the local Qdrant folder '{path}' is held by another process (a running server?): local mode serves "
            "one process only; stop it, or run a Qdrant server and set HINDSIGHT_QDRANT_URL; nothing was written"
        ) from exc


class QdrantVectorIndex:
    """The `VectorIndex` of `storage.vector_index` over one Qdrant collection (cosine), filtering by payload."""

    approximate = True
    filters_natively = True

    def __init__(self, collection: str = "hindsight", url: str | None = None, path: str | None = None,
                 api_key: str | None = None, client: Any | None = None) -> None:
        from qdrant_client import models

        self._models = models
        self._client = client if client is not None else _client(url, path, api_key)
        self.collection = collection
        self.dim: int | None = None
        self.watermark: int | None = None
        self._uuid = "unknown"
        self._lock = threading.Lock()
        if self._client.collection_exists(collection):
            params = self._client.get_collection(collection).config.params.vectors
            self.dim = int(params.size)

    def __len__(self) -> int:
        if self.dim is None:
            return 0
        return max(0, int(self._client.count(self.collection, exact=True).count) - 1)  # less the meta point

    # ------------------------------------------------------------------ state
    def _create(self, dim: int) -> None:
        models = self._models
        self._client.create_collection(
            self.collection, vectors_config=models.VectorParams(size=dim, distance=models.Distance.COSINE))
        schemas = [(f, models.PayloadSchemaType.KEYWORD) for f in _KEYWORD_FIELDS]
        schemas += [(f, models.PayloadSchemaType.FLOAT) for f in _FLOAT_FIELDS]
        with warnings.catch_warnings():  # local mode scans payloads without indexes and says so; a server uses them
            warnings.simplefilter("ignore", UserWarning)
            for field, schema in schemas:
                self._client.create_payload_index(self.collection, field, schema)
        self.dim = dim

    def _meta_point(self, watermark: int) -> Any:
        assert self.dim is not None
        unit = [1.0] + [0.0] * (self.dim - 1)
        return self._models.PointStruct(id=_META_ID, vector=unit,
                                        payload={"hindsight_meta": True, "store_uuid": self._uuid,
                                                 "watermark": watermark})

    def load(self, store_uuid: str, max_seq: int) -> None:
        """Adopt the collection when its meta point names this store; otherwise the store rebuilds it."""
        self._uuid = store_uuid
        self.watermark = None
        if self.dim is None:
            return
        points = self._client.retrieve(self.collection, ids=[_META_ID], with_payload=True)
        if points and (points[0].payload or {}).get("store_uuid") == store_uuid:
            self.watermark = int(points[0].payload["watermark"])

    def _upsert(self, items: list[tuple[int, np.ndarray, Payload | None]], watermark: int) -> None:
        vectors = [np.asarray(v, dtype=np.float32).reshape(-1) for _, v, _ in items]
        points = [self._models.PointStruct(id=int(key), vector=v.tolist(), payload=payload or {})
                  for (key, _, payload), v in zip(items, vectors)]
        if self.dim is None:
            if not points:
                return
            self._create(int(vectors[0].shape[0]))
        elif points and vectors[0].shape[0] != self.dim:
            raise ValueError(f"vector has dimension {vectors[0].shape[0]}, index expects {self.dim}")
        points.append(self._meta_point(watermark))  # last: the watermark never runs ahead of the points
        for start in range(0, len(points), UPLOAD_BATCH):
            self._client.upsert(self.collection, points=points[start : start + UPLOAD_BATCH], wait=True)

    def rebuild(self, items: list[tuple[int, np.ndarray, Payload | None]], watermark: int) -> None:
        with self._lock:
            if self._client.collection_exists(self.collection):
                self._client.delete_collection(self.collection)
            self.dim = None
            self._upsert(items, watermark)
            self.watermark = watermark

    def apply(self, upserts: list[tuple[int, np.ndarray, Payload | None]], removes: list[int],
              watermark: int) -> None:
        with self._lock:
            if removes and self.dim is not None:
                self._client.delete(self.collection, wait=True,
                                    points_selector=self._models.PointIdsList(points=[int(k) for k in removes]))
            self._upsert(upserts, watermark)
            self.watermark = watermark

    def vectors(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.dim is None or len(keys) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.dim or 0), dtype=np.float32)
        points = self._client.retrieve(self.collection, ids=[int(k) for k in keys], with_vectors=True)
        return (np.array([int(p.id) for p in points], dtype=np.int64),
                np.array([p.vector for p in points], dtype=np.float32).reshape(len(points), self.dim))

    # ------------------------------------------------------------------ search
    def scope_filter(self, scope: Scope) -> Any:
        """The scope as Qdrant payload conditions (the store re-checks hits against SQLite)."""
        models = self._models
        must: list[Any] = [
            models.FieldCondition(key="namespace", match=models.MatchValue(value=scope.namespace)),
            models.FieldCondition(key="status", match=models.MatchAny(any=[s.value for s in scope.statuses])),
        ]
        for key, values in (("type", scope.types), ("source", scope.sources)):
            if values:
                must.append(models.FieldCondition(key=key, match=models.MatchAny(any=[v.value for v in values])))
        if scope.tags:
            must.append(models.FieldCondition(key="tags", match=models.MatchAny(any=list(scope.tags))))
        if scope.time_from is not None or scope.time_to is not None:
            must.append(models.FieldCondition(key="t", range=models.Range(
                gte=None if scope.time_from is None else scope.time_from.timestamp(),
                lte=None if scope.time_to is None else scope.time_to.timestamp())))
        if scope.min_importance is not None:
            must.append(models.FieldCondition(key="importance", range=models.Range(gte=scope.min_importance)))
        for key, value in (("session_id", scope.session_id), ("source_task_id", scope.source_task_id)):
            if value is not None:
                must.append(models.FieldCondition(key=key, match=models.MatchValue(value=value)))
        return models.Filter(must=must)

    def search_scope(self, query: np.ndarray, scope: Scope, limit: int) -> list[tuple[int, float]]:
        """Top `limit` (vkey, cosine) among points whose payload matches the scope."""
        if self.dim is None or limit <= 0:
            return []
        response = self._client.query_points(
            self.collection, query=np.asarray(query, dtype=np.float32).reshape(-1).tolist(),
            query_filter=self.scope_filter(scope), limit=limit, with_payload=False)
        return [(int(p.id), float(p.score)) for p in response.points]

    def search(self, query: np.ndarray, allowed: np.ndarray | None, limit: int) -> list[tuple[int, float]]:
        """Unscoped top `limit` (vkey, cosine); `allowed` narrows by id (small lists only)."""
        if self.dim is None or limit <= 0:
            return []
        models = self._models
        conditions: list[Any] = [models.HasIdCondition(has_id=[_META_ID])]
        must = [models.HasIdCondition(has_id=[int(x) for x in allowed])] if allowed is not None else None
        response = self._client.query_points(
            self.collection, query=np.asarray(query, dtype=np.float32).reshape(-1).tolist(),
            query_filter=models.Filter(must=must, must_not=conditions), limit=limit, with_payload=False)
        return [(int(p.id), float(p.score)) for p in response.points]

    def save(self) -> None:
        """Qdrant persists every upsert itself."""

    def close(self) -> None:
        self._client.close()
