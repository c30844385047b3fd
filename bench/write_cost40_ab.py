"""Two source trees timed in one run, alternated (issue 14, write cost round 40): the same measurement run as a
subprocess under each tree's `src`, the order swapped every round (A B, B A, ...), so load drift hits both alike.

    # the write path outside the encoder (bench/write_profile.py's replay, every vector from one cached file)
    PYTHONPATH=bench .venv/bin/python bench/write_cost40_ab.py --trees main=/tmp/main_src branch=src --rounds 6 \
        replay --conversations 0 1 --turns 60 --vectors /tmp/speed40/vec.npz --out bench/results/write_cost40_ab.json
    # with the encoder: single writes and batches of 64 side by side, the raw encoder in the same run
    PYTHONPATH=bench .venv/bin/python bench/write_cost40_ab.py --trees main=/tmp/main_src branch=src --rounds 3 \
        throughput --turns 60 --out bench/results/throughput_40_ab.json

`replay`: each subprocess runs `write_profile.py --rounds 2` (a fresh store each pass, lexical caches cleared before
each; `--batch N`: N turns per `store_many` call); the second pass is the one counted (the first also loads what loads lazily). Reported: CPU ms per write outside
the encoder per round and tree (mean of the conversations), the medians, the ratio of medians (second tree / first),
each round's ratio and their spread, and in how many rounds the second tree was cheaper. `throughput`: each
subprocess runs `throughput.py --sizes --engines onnx --raw-rounds 1`; reported per tree and round: CPU ms per write
of single writes and of batches, by stage, and the raw encoder's CPU ms per text. The 1-minute load at each round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run(tree: str, args: list[str]) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{tree}:{ROOT / 'bench'}"}
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if proc.returncode:
        sys.exit(f"{tree}: {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1]) if args[0].endswith("write_profile.py") else {}


def replay(tree: str, opts: argparse.Namespace) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run(tree, [str(ROOT / "bench/write_profile.py"), "--conversations", *map(str, opts.conversations), "--turns",
                   str(opts.turns), "--rounds", "2", "--batch", str(opts.batch), "--vectors", opts.vectors,
                   "--out", out.name])
        result = json.loads(Path(out.name).read_text())
    per = [c["cached_cpu_ms_per_write"][-1] for c in result["conversations"].values()]
    return {"cpu_ms_per_write": round(sum(per) / len(per), 2), "per_conversation": per}


def throughput(tree: str, opts: argparse.Namespace) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run(tree, [str(ROOT / "bench/throughput.py"), "--turns", str(opts.turns), "--sizes", "--engines", "onnx",
                   "--raw-rounds", "1", "--batch", str(opts.batch), "--out", out.name])
        result = json.loads(Path(out.name).read_text())
    single, batch = result["locomo_turns_single_onnx"], result[f"locomo_turns_batch{opts.batch}_onnx"]
    return {"cpu_ms_per_write": single["cpu_ms_per_write"], "batch_cpu_ms_per_write": batch["cpu_ms_per_write"],
            "batch_over_single": round(batch["cpu_ms_per_write"] / single["cpu_ms_per_write"], 3),
            "single_stages": single["cpu_stage_ms_per_write"], "batch_stages": batch["cpu_stage_ms_per_write"],
            "encoder_per_write": {k: single[k] for k in single if k.startswith("encoder_")},
            "raw_encoder": result["raw_embedder_onnx"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trees", nargs=2, required=True, help="NAME=SRC_DIR NAME=SRC_DIR (first: the reference)")
    parser.add_argument("--rounds", type=int, default=6)
    sub = parser.add_subparsers(dest="mode", required=True)
    rp = sub.add_parser("replay")
    rp.add_argument("--conversations", type=int, nargs="+", default=[0, 1])
    rp.add_argument("--turns", type=int, default=60)
    rp.add_argument("--vectors", required=True)
    rp.add_argument("--batch", type=int, default=1, help="turns per store_many call (1: single writes)")
    rp.add_argument("--out", default="")
    tp = sub.add_parser("throughput")
    tp.add_argument("--turns", type=int, default=60)
    tp.add_argument("--batch", type=int, default=64)
    tp.add_argument("--out", default="")
    opts = parser.parse_args()
    trees = dict(t.split("=", 1) for t in opts.trees)
    names = list(trees)
    measure = replay if opts.mode == "replay" else throughput
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    loads: list[float] = []
    for r in range(opts.rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            rows[name].append(measure(trees[name], opts))
            loads.append(round(os.getloadavg()[0], 1))
            print(r, name, rows[name][-1]["cpu_ms_per_write"], time.strftime("%H:%M:%S"), loads[-1], file=sys.stderr,
                  flush=True)
    first, second = names
    cost = {name: [row["cpu_ms_per_write"] for row in rows[name]] for name in names}
    ratios = [round(b / a, 3) for a, b in zip(cost[first], cost[second], strict=True)]
    result: dict[str, Any] = {
        "mode": opts.mode, "trees": trees, "options": {k: v for k, v in vars(opts).items() if k not in ("trees",)},
        "cpu_ms_per_write": cost, "median": {k: statistics.median(v) for k, v in cost.items()},
        "ratio_of_medians": round(statistics.median(cost[second]) / statistics.median(cost[first]), 3),
        "round_ratios": ratios, "round_ratio_spread": [min(ratios), max(ratios)],
        f"rounds_{second}_cheaper": f"{sum(x < 1.0 for x in ratios)} of {opts.rounds}", "load_1min": loads,
        "rows": rows}
    if opts.mode == "throughput":
        for name in names:
            batch = [row["batch_cpu_ms_per_write"] for row in rows[name]]
            result.setdefault("batch_median", {})[name] = statistics.median(batch)
            result.setdefault("batch_over_single_per_round", {})[name] = [row["batch_over_single"] for row in rows[name]]
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}))
    if opts.out:
        Path(opts.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
