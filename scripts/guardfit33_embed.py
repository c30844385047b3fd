"""Round 33: ``guardfit32_embed`` with round 33's priority order (issue 10; docs/benchmarks.md "Guard, round 33").

    env PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python scripts/guardfit33_embed.py --part 0/2 --until 20:38
    ... --part 1/2 ...; then ... --merge

Order: 1. the held-out rounds r26 - r31 (guard writers with their b writers, retrieval memories, long texts' windows);
2. the texts the pinned pre-check and the suite's tests lean on: own texts, ops notes, plain facts, the suite's texts
and the pinned writers, the census's PII notes; 3. blind r17 - r25b; 4. blind r1 - r16b; 5. the other retrieval
memories; 6. every other writer (training writers, transcripts) in round 32's fixed shuffle. Same cache files and
options as ``guardfit32_embed`` (whose ``rank`` this replaces).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guard_curve as gc  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
import guardfit32_embed as g32  # noqa: E402
import guardfit32_eval as ge  # noqa: E402

HELD = ("r26", "r27", "r28", "r29", "r30", "r31")


def rank(writer: str) -> int:
    rnd = ge.round_of(writer)
    num = int(rnd[1:]) if rnd else 0
    if rnd in HELD and not writer.startswith("census-"):
        return 1
    if writer in (lf.OWN, lf.OPS, gm.PLAIN_WRITER) or writer in gc.pinned_writers() or writer.startswith("census-"):
        return 2
    if writer.startswith("blind-"):
        return 3 if num >= 17 else 4
    if writer.startswith("retr-"):
        return 5
    return 6


def merge_all(cache_dir: Path) -> None:
    """Every process's cache file (``emb_<engine>_<name>``, round 32's and the lead's too) into emb_onnx / emb_c."""
    for engine in ("onnx", "c"):
        path = lf.cache_path(cache_dir, engine)
        cache = gm._load_cache(path)
        for part in sorted(cache_dir.glob(f"emb_{engine}_*.json")):
            cache.update(gm._load_cache(part.with_suffix(".npy")))
        gm._save_cache(cache, path)
        print(engine, len(cache), flush=True)


g32.rank = rank

if __name__ == "__main__":
    if "--merge-all" in sys.argv:
        merge_all(Path("/tmp/gf32/cache"))
    else:
        g32.main()
