"""Main's own verdicts of ``bench/guard22_scan.py``'s rows, to check ``bench/guard22_readings.py``'s offline base.

    PYTHONPATH=src .venv/bin/python bench/guard22_main_screen.py vectors --scan scan.jsonl --cache-dir /tmp/guard22 --out vecs.npy
    cd /tmp && PYTHONPATH=/work/main/src /work/main/.venv/bin/python /work/wt/guard22/bench/guard22_main_screen.py screen --scan scan.jsonl --vectors vecs.npy --out main.jsonl

``guard_lowo_fast`` puts this checkout's ``src`` first on the path when imported, so main's guard is run in a second
process that imports nothing from this checkout: ``vectors`` writes the runtime vector of each row (this checkout's
cache), ``screen`` screens each row with whatever ``hindsight`` is on ``PYTHONPATH`` (main's) and those vectors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("vectors", "screen"))
    parser.add_argument("--scan", type=Path, required=True)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard22"))
    parser.add_argument("--vectors", type=Path, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    import numpy as np

    rows = [json.loads(x) for x in args.scan.read_text(encoding="utf-8").splitlines() if x.strip()]
    if args.mode == "vectors":
        sys.path.insert(0, str(ROOT / "scripts"))
        sys.path.insert(1, str(ROOT / "bench"))
        import guard_lowo_fast as lf

        np.save(args.out, lf.runtime_vectors([r["red"] for r in rows], args.cache_dir, "onnx"))
        return
    import hindsight.safety.guard as guard_module

    print("screening with", guard_module.__file__)
    vectors = np.load(args.vectors)
    guard = guard_module.WriteGuard()
    now: list[np.ndarray] = []
    guard_module.embed_for_screening = lambda windows: list(now)  # type: ignore[assignment]
    with args.out.open("w", encoding="utf-8") as out:
        for r, vector in zip(rows, vectors, strict=True):
            now[:] = [vector]
            v = guard.screen(r["red"], embedding=vector)
            out.write(json.dumps({"text": r["text"], "writer": r["writer"], "flag": v.suspicious, "reasons": v.reasons},
                                 ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
