"""Dense-only R@10 of session-turn vectors whose lower layers run once per turn and top k layers jointly
(`bench/split_layers.py`), against the joined text encoded whole (issue 14, round 32).

    PYTHONPATH=src:bench .venv/bin/python bench/split_layers_dense.py --conversations 0 1 2 3 --top 2 4 6 \
        --out bench/results/split_layers_dense_dev.json

Per LoCoMo turn (session context: its session's two preceding turns, joined as the write path joins them), ONNX
engine: the joined text encoded whole (what `encode` stores), the turn alone, and for each k the split vector.
Questions embedded query-side; R@10 by cosine over the conversation's turns (no other channel). Also: the turn's own
vector through the two sessions against `encode` (max abs difference), and cosine of split to whole.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, questions, turns  # noqa: E402
from one_pass_dense import with_context  # noqa: E402
from split_layers import SplitEncoder  # noqa: E402

from hindsight.embeddings.e5_numpy import bundled_model_path  # noqa: E402
from hindsight.embeddings.e5_onnx import OnnxE5  # noqa: E402


def recall_at(query: np.ndarray, vectors: np.ndarray, dia: list[str], asked: list[dict], k: int = 10) -> list[float]:
    scores = query @ vectors.T
    out = []
    for i, q in enumerate(asked):
        top = {dia[j] for j in np.argsort(-scores[i])[:k]}
        wanted = set(q["evidence"])
        out.append(len(wanted & top) / len(wanted))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--top", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    model = OnnxE5(bundled_model_path())
    samples = json.loads(DATA.read_text())
    rows: dict[str, dict] = {}
    per_conv = []
    for conv in args.conversations:
        start = time.process_time()
        items = turns(samples[conv])
        pairs = with_context(items)
        facts = [item["content"] for item, _ in pairs]
        contexts = [c for _, c in pairs]
        dia = [item["metadata"]["dia_id"] for item in items]
        joined_texts = [f + "\n" + " ".join(c) if c else f for f, c in zip(facts, contexts)]
        whole = model.encode(joined_texts)
        alone = model.encode(facts)
        asked = questions(samples[conv])
        query = model.encode([q["question"] for q in asked], True)
        has = np.array([bool(c) for c in contexts])
        variants = {"joined whole (today)": whole, "turn alone": alone}
        info: dict[str, dict] = {}
        for k in args.top:
            split = SplitEncoder(model, k)
            states = dict(zip(facts, split.lower_states(facts)))
            own = split.pooled([states[f] for f in facts])
            built = [split.joined_row(f, c, states) if c else None for f, c in zip(facts, contexts)]
            fallback = sum(1 for b, c in zip(built, contexts) if c and b is None)
            vec = alone.copy()
            at = [i for i, b in enumerate(built) if b is not None]
            vec[at] = split.pooled([built[i] for i in at])
            miss = [i for i, (b, c) in enumerate(zip(built, contexts)) if c and b is None]
            vec[miss] = whole[miss]
            cos = np.sum(vec[has] * whole[has], axis=1)
            info[f"top {k}"] = {"own_max_abs_diff": float(np.abs(own - alone).max()), "fallback_whole": fallback,
                                "cos_to_whole_mean": round(float(cos.mean()), 4),
                                "cos_to_whole_p5": round(float(np.percentile(cos, 5)), 4)}
            variants[f"top {k}"] = vec
        for name, vec in variants.items():
            rows.setdefault(name, {"r10": []})["r10"].extend(recall_at(query, vec, dia, asked))
        per_conv.append({"conversation": conv, "turns": len(items), "questions": len(asked), "splits": info,
                         "r10": {n: round(float(np.mean(recall_at(query, v, dia, asked))), 4)
                                 for n, v in variants.items()}})
        print(json.dumps(per_conv[-1]), f"{time.process_time() - start:.0f} s CPU", flush=True)
    table = {name: round(float(np.mean(v["r10"])), 4) for name, v in rows.items()}
    print(json.dumps(table, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"conversations": args.conversations, "dense_r10": table,
                                        "per_conversation": per_conv}, indent=1) + "\n")


if __name__ == "__main__":
    main()
