"""The guard's own cost per write when handed the write's document vector (the engine's path), on plain memories.

    PYTHONPATH=src .venv/bin/python bench/guard_screen_cost.py LABEL

250 plain memories (every tenth of bench/plain_facts.py), redacted, each screened once per round, three rounds,
with a fixed unit vector (the cost does not depend on the vector's values; every text of six words or more
reaches the model). Run it for two builds back to back (PYTHONPATH) to compare them under the same load.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plain_facts import load_plain_facts  # noqa: E402

from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "build"
    texts = [redactor(f["text"])[0] for f in load_plain_facts()[::10]][:250]
    guard = WriteGuard()
    vec = np.random.default_rng(0).normal(size=384).astype(np.float32)
    vec /= np.linalg.norm(vec)
    guard.screen("warm up text for the guard please", embedding=vec)
    for rep in range(3):
        ms = []
        for text in texts:
            t0 = time.perf_counter()
            guard.screen(text, embedding=vec)
            ms.append((time.perf_counter() - t0) * 1000)
        p95 = sorted(ms)[int(0.95 * len(ms))]
        print(f"{label} round {rep}: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
