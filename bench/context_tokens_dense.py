"""Dense-only R@10 against tokens encoded per write, for shorter session contexts (issue 14, round 20).

    PYTHONPATH=src .venv/bin/python bench/context_tokens_dense.py --conversations 0 1 \
        --out bench/results/context_tokens_dense.json

Per LoCoMo turn of a dev conversation, the vector stored with session context (the turn, then its session's
preceding turns joined as the write path joins them: `fact + "\\n" + " ".join(context)`), encoded by the default
ONNX engine, for each context variant: the two predecessors (today), the nearest one only, and the two predecessors'
token ids cut to their last or first N tokens. Questions embedded query-side; R@10 by cosine over the
conversation's turns (no other channel). Tokens: what the write encodes (the stored text plus the turn alone, which
the guard and hygiene read), per turn.
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
from one_pass_dense import dense_recall, with_context  # noqa: E402

from hindsight.embeddings.e5_numpy import bundled_model_path  # noqa: E402
from hindsight.embeddings.e5_onnx import OnnxE5  # noqa: E402

CUTS = (16, 32, 48, 64)


def variants(ids: list[int], head: int, nearest: list[int]) -> dict[str, list[int]]:
    """Content ids of the stored text per variant; `head`: the turn's own ids, `nearest`: ids of the joined text
    with the nearest predecessor only."""
    rest = ids[head:]
    out = {"two predecessors (today)": ids, "nearest predecessor": nearest}
    for n in CUTS:
        out[f"last {n} tokens of context"] = ids[:head] + rest[-n:]
        out[f"first {n} tokens of context"] = ids[:head] + rest[:n]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    model = OnnxE5(bundled_model_path())
    samples = json.loads(DATA.read_text())
    recall: dict[str, list[float]] = {}
    tokens: dict[str, list[int]] = {}
    extra: list[int] = []  # the turn alone, encoded too where the stored text is not the turn alone
    for conv in args.conversations:
        items = turns(samples[conv])
        vectors: dict[str, list[np.ndarray]] = {}
        dia = []
        start = time.process_time()
        for item, context in with_context(items):
            fact = item["content"]
            dia.append(item["metadata"]["dia_id"])
            head_ids = model.content_ids(fact, False)
            extra.append(len(head_ids) + 2 if context else 0)
            if not context:
                named = variants(head_ids, len(head_ids), head_ids)
            else:
                ids = model.content_ids(fact + "\n" + " ".join(context), False)
                nearest = model.content_ids(fact + "\n" + context[-1], False)
                named = variants(ids, len(head_ids), nearest)
            named["turn alone"] = head_ids
            for name, content in named.items():
                vectors.setdefault(name, []).append(model.encode([""], ids=[content])[0])
                tokens.setdefault(name, []).append(len(content) + 2)
        print(f"conversation {conv}: {len(items)} turns, {time.process_time() - start:.0f} s CPU", flush=True)
        for name, values in dense_recall(model, questions(samples[conv]), vectors, dia).items():
            recall.setdefault(name, []).extend(values)
    alone = float(np.mean(extra))
    table = []
    for name, values in recall.items():
        stored = float(np.mean(tokens[name]))
        per_write = stored if name == "turn alone" else stored + alone
        table.append({"variant": name, "dense_r10": round(float(np.mean(values)), 4), "questions": len(values),
                      "stored_text_tokens": round(stored, 1), "tokens_per_write": round(per_write, 1)})
        print(f"{name:32s} dense R@10 {np.mean(values):.4f}  stored-text tokens {stored:6.1f}  per write {per_write:6.1f}")
    if args.out:
        args.out.write_text(json.dumps({"conversations": args.conversations, "rows": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
