"""Session-window late chunking (issue 14 write cost): dense-only R@10 on LoCoMo, measured, not shipped.

    PYTHONPATH=src .venv/bin/python bench/window_dense.py 0 256     # conversations, window tokens

Each session's turns are packed into windows of at most N tokens (each window starting two turns before its first
new turn) and encoded once with the numpy runner; a turn's vector is the mean of its own tokens' last-layer states
("win_span"; with <s>: "win_span_s"; from its second predecessor's first token on: "win_prev2"). Compared with the
turn alone and with the write path's joined text (turn + two predecessors), by cosine over the conversation's turns.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, questions, turns  # noqa: E402

from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path  # noqa: E402


def window_vectors(model: NumpyE5, items: list[dict], width: int) -> tuple[dict[str, np.ndarray], int]:
    """Per-turn vectors pooled from session windows, and the tokens encoded."""
    prefix = model.content_ids("", False)
    out = {k: np.zeros((len(items), model.dim), dtype=np.float32) for k in ("win_span", "win_span_s", "win_prev2")}
    sessions: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        sessions.setdefault(item["session_id"], []).append(i)
    tokens = 0
    for idx in sessions.values():
        pieces = [model.tokenizer.content_ids(" " + items[i]["content"]) for i in idx]
        start = 0
        while start < len(idx):
            seq, spans, j = list(prefix), [], max(0, start - 2)
            while j < len(idx) and (len(seq) + len(pieces[j]) <= width or j <= start) and len(seq) < 500:
                spans.append((j, len(seq), min(500, len(seq) + len(pieces[j]))))
                seq += pieces[j][: 500 - len(seq)]
                j += 1
            ids = np.array([[model.tokenizer.bos, *seq, model.tokenizer.eos]])
            tokens += ids.shape[1]
            states = model._forward(ids, np.array([ids.shape[1]]), pool=False)[0]
            for pos, (k, a, b) in enumerate(spans):
                if k < start:
                    continue
                i = idx[k]
                out["win_span"][i] = states[1 + a : 1 + b].mean(0)
                out["win_span_s"][i] = np.vstack([states[:1], states[1 + a : 1 + b]]).mean(0)
                out["win_prev2"][i] = states[1 + spans[max(0, pos - 2)][1] : 1 + b].mean(0)
            start = j
    for matrix in out.values():
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-6)
    return out, tokens


def main() -> None:
    model = NumpyE5(bundled_model_path())
    convs = [int(c) for c in (sys.argv[1] if len(sys.argv) > 1 else "0").split(",")]
    width = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    samples = json.loads(DATA.read_text())
    recall: dict[str, list[float]] = {}
    for conv in convs:
        items = turns(samples[conv])
        dia = [it["metadata"]["dia_id"] for it in items]
        cpu: dict[str, float] = {}
        t0 = time.process_time()
        vectors = {"alone": model.encode([it["content"] for it in items])}
        cpu["alone"] = time.process_time() - t0
        t0, prev, joined = time.process_time(), {}, []
        for it in items:
            earlier = prev.setdefault(it["session_id"], [])
            context = earlier[-2:]
            earlier.append(it["content"])
            joined.append(it["content"] + "\n" + " ".join(context) if context else it["content"])
        vectors["joint"] = model.encode(joined)
        cpu["joint"] = time.process_time() - t0
        t0 = time.process_time()
        windows, tokens = window_vectors(model, items, width)
        cpu["window"] = time.process_time() - t0
        vectors |= windows
        vectors["joint+win"] = vectors["joint"] + windows["win_span"]
        vectors["alone+win"] = vectors["alone"] + windows["win_span"]
        print(f"conversation {conv}: {len(items)} turns; CPU ms per turn "
              + ", ".join(f"{k} {1000 * v / len(items):.1f}" for k, v in cpu.items())
              + f"; window tokens per turn {tokens / len(items):.1f}", flush=True)
        asked = questions(samples[conv])
        queries = model.encode([q["question"] for q in asked], True)
        for name, matrix in vectors.items():
            scores = queries @ matrix.T
            for i, q in enumerate(asked):
                top = {dia[j] for j in np.argsort(-scores[i])[:10]}
                wanted = set(q["evidence"])
                recall.setdefault(name, []).append(len(wanted & top) / len(wanted))
    for name, values in recall.items():
        print(f"{name}: dense R@10 {np.mean(values):.4f} over {len(values)} questions")


if __name__ == "__main__":
    main()
