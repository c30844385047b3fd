"""Vector indexes behind the SQLite store: the `VectorIndex` protocol and the exact in-memory default.

Vectors are addressed by `vkey`, the key of their row in the `vectors` table: SQLite's AUTOINCREMENT never
hands the same number out twice, so a stale index can at worst miss a vector, never attribute a deleted
memory's vector to a new memory (memory rowids are reused; they are not keys here).

Every index follows the SQLite file through `vector_log`, a change counter the database bumps (by trigger) in
the same transaction as each vector change, whichever process made it: `watermark` is the last log entry an
index reflects, and the store catches it up before each search (`storage.ann_sync`).

Exact cosine over a contiguous float32 matrix is ~1 ms per 10k vectors at dim 384 on one core: at the scale
one person's store reaches it beats HNSW on recall and simplicity. `storage.ann_hnsw` is the persisted
approximate index for millions. The SQLite file stays the source of truth; every index is derived.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

import numpy as np

#: Scope fields of a memory, for indexes that filter natively (Qdrant payload conditions).
Payload = dict[str, Any]


class VectorIndex(Protocol):
    """Dense vectors addressed by vkey. The SQLite file is the source of truth; an index is derived."""

    #: last `vector_log.seq` this index reflects (None: nothing loaded yet, the store rebuilds it)
    watermark: int | None
    #: True when search is approximate (the store then applies filters by oversampling or exact fallback)
    approximate: bool
    #: True when the index filters by scope itself and wants each vector's payload
    filters_natively: bool

    def __len__(self) -> int: ...

    def load(self, store_uuid: str, max_seq: int) -> None:
        """Restore persisted state for this store if any (sets `watermark`); no-op for in-memory indexes."""
        ...

    def rebuild(self, items: list[tuple[int, np.ndarray, Payload | None]], watermark: int) -> None:
        """Hold exactly these vectors, reflecting the log up to `watermark`."""
        ...

    def apply(self, upserts: list[tuple[int, np.ndarray, Payload | None]], removes: list[int],
              watermark: int) -> None:
        """Incremental catch-up: add or overwrite `upserts`, drop `removes` (missing keys are ignored)."""
        ...

    def vectors(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(keys present, their vectors) for exact search over a few allowed rows."""
        ...

    def search(self, query: np.ndarray, allowed: np.ndarray | None, limit: int) -> list[tuple[int, float]]:
        """Top `limit` (vkey, cosine) among `allowed` vkeys (None = all), best first."""
        ...

    def save(self) -> None:
        """Persist (if this index persists at all)."""
        ...

    def close(self) -> None: ...


def top_k(keys: np.ndarray, matrix: np.ndarray, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
    """Exact cosine top-`limit` over rows of `matrix` (unit vectors), best first."""
    if limit <= 0 or len(keys) == 0:
        return []
    scores = matrix @ np.asarray(query, dtype=np.float32).reshape(-1)
    k = min(limit, scores.shape[0])
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(keys[i]), float(scores[i])) for i in top]


class ExactVectorIndex:
    """Rows addressed by vkey in one matrix; deletes swap the last row into the hole. Rebuilt on every open."""

    approximate = False
    filters_natively = False

    def __init__(self, dim: int | None = None) -> None:
        self.dim = dim
        self.watermark: int | None = None
        self._matrix = np.zeros((0, dim or 0), dtype=np.float32)
        self._keys = np.zeros(0, dtype=np.int64)
        self._position: dict[int, int] = {}
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._size

    def _ensure_capacity(self, extra: int) -> None:
        needed = self._size + extra
        if needed <= len(self._keys):
            return
        capacity = max(needed, 2 * len(self._keys), 256)
        matrix = np.zeros((capacity, self.dim or 0), dtype=np.float32)
        keys = np.zeros(capacity, dtype=np.int64)
        matrix[: self._size] = self._matrix[: self._size]
        keys[: self._size] = self._keys[: self._size]
        self._matrix, self._keys = matrix, keys

    def _upsert(self, key: int, vector: np.ndarray) -> None:
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if self.dim is None or self._size == 0 and self.dim != vector.shape[0]:
            self.dim = int(vector.shape[0])
            self._matrix = np.zeros((0, self.dim), dtype=np.float32)
            self._keys = np.zeros(0, dtype=np.int64)
        if vector.shape[0] != self.dim:
            raise ValueError(f"vector has dimension {vector.shape[0]}, index expects {self.dim}")
        position = self._position.get(key)
        if position is None:
            self._ensure_capacity(1)
            position = self._size
            self._size += 1
            self._position[key] = position
            self._keys[position] = key
        self._matrix[position] = vector

    def _remove(self, key: int) -> None:
        position = self._position.pop(key, None)
        if position is None:
            return
        last = self._size - 1
        if position != last:
            moved = int(self._keys[last])
            self._matrix[position] = self._matrix[last]
            self._keys[position] = moved
            self._position[moved] = position
        self._size -= 1

    def load(self, store_uuid: str, max_seq: int) -> None:
        """Nothing persisted: the store rebuilds from SQLite on open."""

    def rebuild(self, items: list[tuple[int, np.ndarray, Payload | None]], watermark: int) -> None:
        with self._lock:
            self._position.clear()
            self._size = 0
            for key, vector, _ in items:
                self._upsert(key, vector)
            self.watermark = watermark

    def apply(self, upserts: list[tuple[int, np.ndarray, Payload | None]], removes: list[int],
              watermark: int) -> None:
        with self._lock:
            for key in removes:
                self._remove(key)
            for key, vector, _ in upserts:
                self._upsert(key, vector)
            self.watermark = watermark

    def vectors(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            positions = [self._position[int(k)] for k in keys if int(k) in self._position]
            return self._keys[positions].copy(), self._matrix[positions].copy()

    def save(self) -> None:
        """Nothing to persist."""

    def close(self) -> None:
        """Nothing to release."""

    def search(self, query: np.ndarray, allowed: np.ndarray | None, limit: int) -> list[tuple[int, float]]:
        """Top `limit` (vkey, cosine) among `allowed` vkeys (None = all)."""
        with self._lock:
            if self._size == 0 or limit <= 0:
                return []
            keys = self._keys[: self._size]
            matrix = self._matrix[: self._size]
            if allowed is not None:
                mask = np.isin(keys, allowed)
                if not mask.any():
                    return []
                keys, matrix = keys[mask], matrix[mask]
            return top_k(keys, matrix, query, limit)
