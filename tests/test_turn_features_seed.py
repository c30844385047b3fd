"""The second step's turn features do not depend on Python's string hash seed (sums over sets were summed in hash
order, so `own_terms` differed in its last bits between processes and could reorder ties)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
from hindsight.retrieval.turn_features import rows
words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec "
         "romeo sierra tango").split()
contents = {f"m{i}": f"Speaker{i % 3}: " + " ".join(w for j, w in enumerate(words) if (i * 7 + j) % (2 + i % 4) == 0)
            for i in range(30)}
out = rows(contents, sorted(contents), " ".join(words))
print(repr([out[k] for k in sorted(out)]))
"""


def _run(seed: int) -> str:
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_own_terms_identical_under_every_hash_seed() -> None:
    outputs = {_run(seed) for seed in range(6)}
    assert len(outputs) == 1
