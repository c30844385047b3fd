"""Dense-only R@10 of the vectors each one-pass mode stores, LoCoMo conversations (offline, no write path).

    PYTHONPATH=src .venv/bin/python bench/one_pass_dense.py 0        # conversations, comma-separated

Per turn (session context: the two preceding turns of its session, joined as the write path joins them):
"joint" the joined text encoded (what `encode` and `late` store), "masked" the `isolated` pass (<s> turn </s>
context </s>, the first block attending only to itself: `NumpyE5.encode_heads(isolate=True)`), "alone" the
turn alone. Questions embedded query-side; R@10 by cosine over the conversation's turns.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, questions, turns  # noqa: E402

from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path  # noqa: E402


def with_context(items: list[dict[str, Any]], size: int = 2) -> list[tuple[dict[str, Any], list[str]]]:
    """Each turn with the `size` preceding turns of its session (the write path's session context)."""
    earlier: dict[str, list[str]] = {}
    out = []
    for item in items:
        seen = earlier.setdefault(item["session_id"], [])
        out.append((item, seen[-size:] if size else []))
        seen.append(item["content"])
    return out


def dense_recall(model: NumpyE5, asked: list[dict[str, Any]], vectors: dict[str, list[np.ndarray]],
                 dia: list[str], k: int = 10) -> dict[str, list[float]]:
    """Per variant, each question's R@k by cosine of its query-side vector over the turns' `vectors` (ids `dia`)."""
    queries = model.encode([q["question"] for q in asked], True)
    out: dict[str, list[float]] = {}
    for name, rows in vectors.items():
        scores = queries @ np.vstack(rows).T
        for i, q in enumerate(asked):
            top = {dia[j] for j in np.argsort(-scores[i])[:k]}
            wanted = set(q["evidence"])
            out.setdefault(name, []).append(len(wanted & top) / len(wanted))
    return out


def main() -> None:
    model = NumpyE5(bundled_model_path())
    convs = [int(c) for c in (sys.argv[1] if len(sys.argv) > 1 else "0").split(",")]
    samples = json.loads(DATA.read_text())
    recall: dict[str, list[float]] = {"joint": [], "masked": [], "alone": []}
    for conv in convs:
        items = turns(samples[conv])
        vectors: dict[str, list[np.ndarray]] = {k: [] for k in recall}
        dia, wall = [], []
        start = time.process_time()
        for item, context in with_context(items):
            fact = item["content"]
            alone = model.encode([fact])[0]
            dia.append(item["metadata"]["dia_id"])
            vectors["alone"].append(alone)
            if not context:
                vectors["joint"].append(alone)
                vectors["masked"].append(alone)
                continue
            joined = fact + "\n" + " ".join(context)
            ids = model.content_ids(joined, False)
            head = len(model.content_ids(fact, False))
            full, _ = model.encode_heads([ids], [0])
            vectors["joint"].append(full[0])
            masked, own = model.encode_heads([ids], [head], isolate=True)
            vectors["masked"].append(masked[0])
            wall.append(float(own[0] @ alone))
        print(f"conversation {conv}: {len(items)} turns, {time.process_time() - start:.0f} s CPU, isolated head "
              f"vs alone min cosine {min(wall):.7f}", flush=True)
        for name, values in dense_recall(model, questions(samples[conv]), vectors, dia).items():
            recall[name].extend(values)
    for name, values in recall.items():
        print(f"{name}: dense R@10 {np.mean(values):.4f} over {len(values)} questions")


if __name__ == "__main__":
    main()
