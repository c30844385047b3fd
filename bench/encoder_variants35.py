"""Encoder precisions side by side: CPU ms per encode, cosine to q4 and dense-only R@10 (issue 14, round 35).

    PYTHONPATH=src:bench .venv/bin/python bench/encoder_variants35.py --conversation 0 --precisions q4 int8 \
        --out bench/results/encoder_variants35.json

Per LoCoMo turn of one dev conversation the stored text as the write path joins it (`fact + "\\n" + " ".join(two
predecessors)`), encoded one text per call by `OnnxE5(precision=...)` (the int8 graph is built locally from the fp32
one by onnxruntime's quantize_dynamic on first use; no download); the questions query-side; R@10 by cosine over the
conversation's turns (`one_pass_dense.dense_recall`). CPU time of this process (one intra-op thread). The rule the
numbers are read under: bench/results/encoder_variants35_rule.md (written first).
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversation", type=int, default=0)
    parser.add_argument("--precisions", nargs="+", default=["q4", "int8"])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    samples = json.loads(DATA.read_text())
    items = turns(samples[args.conversation])
    texts = [item["content"] + "\n" + " ".join(context) if context else item["content"]
             for item, context in with_context(items)]
    dia = [item["metadata"]["dia_id"] for item in items]
    asked = questions(samples[args.conversation])
    result: dict[str, object] = {"conversation": args.conversation, "turns": len(texts), "questions": len(asked)}
    reference: np.ndarray | None = None
    for precision in args.precisions:
        model = OnnxE5(bundled_model_path(), precision=precision)
        model.encode(texts[:2])  # warm the session
        start = time.process_time()
        rows = [model.encode([t])[0] for t in texts]
        ms = (time.process_time() - start) * 1000 / len(texts)
        matrix = np.vstack(rows)
        recall = dense_recall(model, asked, {precision: rows}, dia)[precision]
        row: dict[str, float] = {"cpu_ms_per_encode": round(ms, 2), "dense_r10": round(float(np.mean(recall)), 4)}
        if reference is None:
            reference = matrix
        else:
            cos = np.sum(matrix * reference, axis=1) / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(reference, axis=1))
            row.update(cos_to_first_mean=round(float(cos.mean()), 6), cos_to_first_min=round(float(cos.min()), 6))
        result[precision] = row
        print(precision, row, flush=True)
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
