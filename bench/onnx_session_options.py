"""ONNX Runtime session options against the shipped session: same vectors? less CPU? (issue 14, round 20).

    PYTHONPATH=src .venv/bin/python bench/onnx_session_options.py --turns 30 --rounds 3 \
        --out bench/results/onnx_session_options.json

LoCoMo conversation 0's first turns and each turn joined with its two predecessors (the texts a write encodes), one
text per call through `OnnxE5.encode`, the shipped session swapped for one built with other options from the same
cached graph; max |difference| and min cosine against the shipped session's vectors, CPU ms per text per round
(variants interleaved within each round, one intra-op thread).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np
import onnxruntime as ort  # (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import locomo_turns  # noqa: E402

from hindsight.embeddings.e5_numpy import bundled_model_path  # noqa: E402
from hindsight.embeddings.e5_onnx import OnnxE5  # noqa: E402


def session(graph: str, **options: Any) -> Any:
    """A session as `OnnxE5` builds it, then `options` (attributes of SessionOptions, or "cfg:key" entries)."""
    built = ort.SessionOptions()
    built.intra_op_num_threads = 1
    built.inter_op_num_threads = 1
    built.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    built.add_session_config_entry("session.intra_op.allow_spinning", "0")
    for key, value in options.items():
        if key.startswith("cfg:"):
            built.add_session_config_entry(key[4:], value)
        else:
            setattr(built, key, value)
    return ort.InferenceSession(graph, built, providers=["CPUExecutionProvider"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    own = [t["content"] for t in locomo_turns(args.turns)]
    texts = [t for i in range(len(own)) for t in (own[i], "\n".join(own[max(0, i - 2) : i + 1]))]
    model = OnnxE5(bundled_model_path())
    graph = str(model.graph)
    level = ort.GraphOptimizationLevel
    variants = {
        "shipped": model.session,
        "no memory pattern": session(graph, enable_mem_pattern=False),
        "no CPU arena": session(graph, enable_cpu_mem_arena=False, enable_mem_pattern=False),
        "optimisation EXTENDED": session(graph, graph_optimization_level=level.ORT_ENABLE_EXTENDED),
        "optimisation BASIC": session(graph, graph_optimization_level=level.ORT_ENABLE_BASIC),
        "denormals as zero": session(graph, **{"cfg:session.set_denormal_as_zero": "1"}),
    }
    ids = [model.content_ids(t, False) for t in texts]

    def vectors(chosen: Any) -> np.ndarray:
        model.session = chosen
        return np.stack([model.encode([t], ids=[i])[0] for t, i in zip(texts, ids)])

    reference = vectors(variants["shipped"])
    rows: dict[str, dict[str, Any]] = {}
    for name, chosen in variants.items():
        got = vectors(chosen)
        rows[name] = {"max_abs_diff": float(np.abs(got - reference).max()),
                      "min_cosine": float((got * reference).sum(axis=1).min()), "cpu_ms_per_text": []}
    for _ in range(args.rounds):
        for name, chosen in variants.items():
            start = time.process_time()
            vectors(chosen)
            rows[name]["cpu_ms_per_text"].append(round((time.process_time() - start) / len(texts) * 1000, 2))
    for name, row in rows.items():
        row["median_cpu_ms"] = float(np.median(row["cpu_ms_per_text"]))
        print(f"{name:24s} max |diff| {row['max_abs_diff']:.3g}  min cos {row['min_cosine']:.7f}  "
              f"CPU ms per text {row['cpu_ms_per_text']} (median {row['median_cpu_ms']})")
    if args.out:
        args.out.write_text(json.dumps({"texts": len(texts), "onnxruntime": ort.__version__, "rows": rows},
                                       indent=1) + "\n")


if __name__ == "__main__":
    main()
