"""Encoder CPU per LoCoMo turn: today's two passes (the turn alone and the joined text, 12 layers each) against the
split path (the turn's 12 layers in two sessions, then the top k layers over the joined text's assembled states;
bench/split_layers.py), the same turns, rounds interleaved (issue 14, round 32).

    PYTHONPATH=src:bench .venv/bin/python bench/split_layers_cost.py --turns 60 --top 3 --rounds 3 \
        --out bench/results/split_layers_cost.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, turns  # noqa: E402
from one_pass_dense import with_context  # noqa: E402
from split_layers import SplitEncoder  # noqa: E402

from hindsight.embeddings.e5_numpy import bundled_model_path  # noqa: E402
from hindsight.embeddings.e5_onnx import OnnxE5  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--top", type=int, nargs="+", default=[3])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    model = OnnxE5(bundled_model_path())
    pairs = [(item["content"], c) for item, c in with_context(turns(json.loads(DATA.read_text())[0]))][: args.turns]
    splits = {k: SplitEncoder(model, k) for k in args.top}
    runs: dict[str, list[float]] = {}

    def today() -> None:
        for fact, context in pairs:  # one write: one call with the joined text and the turn alone
            model.encode([fact + "\n" + " ".join(context), fact] if context else [fact])

    def split(enc: SplitEncoder) -> None:
        enc._states.clear()
        for fact, context in pairs:  # one write: the turn's lower states, kept; its own vector; the joined vector
            states = dict(zip([fact, *context], enc.lower_states([fact, *context])))
            enc.pooled([states[fact]])
            row = enc.joined_row(fact, context, states) if context else None
            if row is not None:
                enc.pooled([row])
            elif context:
                model.encode([fact + "\n" + " ".join(context)])

    today()  # warm-up
    for enc in splits.values():
        split(enc)
    for _ in range(args.rounds):
        for name, fn in [("today (two whole passes)", today)] + [(f"split, top {k}", lambda e=e: split(e))
                                                                 for k, e in splits.items()]:
            start = time.process_time()
            fn()
            runs.setdefault(name, []).append(1000 * (time.process_time() - start) / len(pairs))
    table = {name: {"cpu_ms_per_turn": [round(v, 2) for v in values], "median": round(sorted(values)[len(values) // 2], 2)}
             for name, values in runs.items()}
    print(json.dumps(table, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"turns": len(pairs), "rounds": args.rounds, "rows": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
