"""change33 variant E (bench/results/change33_rule.md, addendum): cosines of the old text with the new text and with
its spans, from the project's default embedder (documents side), kept in a pickle beside the run.

The three readings: the whole new text; the closest span that carries a change cue (`value_align.spans`,
`supersede.change_signalled`; 0 when none); the closest span of any kind.
"""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

from hindsight.write.clause_split import spans
from hindsight.write.supersede import change_signalled

NAMES = ("cos_whole", "cos_cue_span", "cos_any_span")


class Vectors:
    def __init__(self, cache: Path) -> None:
        self.cache = cache
        self.vec: dict[str, np.ndarray] = pickle.loads(cache.read_bytes()) if cache.exists() else {}

    def need(self, pairs: list[tuple[str, str]]) -> None:
        """Encode every text and span the pairs' readings need that the cache lacks (in batches), and keep them."""
        want: list[str] = []
        for old, new in pairs:
            want += [old, new, *spans(new)]
        missing = sorted({t for t in want if t not in self.vec})
        if missing:
            from hindsight.embeddings.factory import create_embedder
            embedder = create_embedder()
            for k in range(0, len(missing), 256):
                batch = missing[k:k + 256]
                for text, v in zip(batch, embedder.embed_documents(batch), strict=True):
                    self.vec[text] = np.asarray(v, dtype=np.float32) / max(1e-9, float(np.linalg.norm(v)))
                print("encoded", k + len(batch), "of", len(missing), file=sys.stderr, flush=True)
            self.cache.write_bytes(pickle.dumps(self.vec))

    def features(self, old: str, new: str) -> list[float]:
        o = self.vec[old]
        cos = {s: float(self.vec[s] @ o) for s in spans(new)}
        cued = [c for s, c in cos.items() if change_signalled(s)]
        return [float(self.vec[new] @ o), max(cued, default=0.0), max(cos.values(), default=0.0)]
