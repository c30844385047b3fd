"""Per LoCoMo turn: the turn-alone vector, the joined vector (turn + two predecessors, what `encode` stores) and the
questions' query vectors, dumped to an .npz per conversation (issue 14, round 32: input of bench/compose_map.py).

    PYTHONPATH=src:bench .venv/bin/python bench/compose_vectors.py --conversations 0 1 2 3 4 5 6 7 8 9 \
        --out /tmp/speed32/vectors
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

from hindsight.embeddings.e5_numpy import bundled_model_path  # noqa: E402
from hindsight.embeddings.e5_onnx import OnnxE5  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    model = OnnxE5(bundled_model_path())
    samples = json.loads(DATA.read_text())
    for conv in args.conversations:
        start = time.process_time()
        items = turns(samples[conv])
        pairs = with_context(items)
        facts = [item["content"] for item, _ in pairs]
        joined = [f + "\n" + " ".join(c) if c else f for f, (_, c) in zip(facts, pairs)]
        alone = model.encode(facts)
        both = model.encode(joined)
        asked = questions(samples[conv])
        query = model.encode([q["question"] for q in asked], True)
        # predecessor index per turn (-1: none), in write order within the session
        prev = np.full((len(items), 2), -1, dtype=np.int64)
        last: dict[str, list[int]] = {}
        for i, item in enumerate(items):
            seen = last.setdefault(item["session_id"], [])
            for k, j in enumerate(reversed(seen[-2:])):
                prev[i, k] = j  # prev[i, 0] nearest, prev[i, 1] the one before
            seen.append(i)
        lengths = np.array([len(model.content_ids(f, False)) for f in facts], dtype=np.int64)
        np.savez(args.out / f"conv{conv}.npz", alone=alone, joined=both, query=query, prev=prev, lengths=lengths,
                 dia=np.array([item["metadata"]["dia_id"] for item in items]),
                 evidence=np.array([json.dumps(q["evidence"]) for q in asked]),
                 category=np.array([q["category"] for q in asked]))
        print(f"conversation {conv}: {len(items)} turns, {len(asked)} questions, "
              f"{time.process_time() - start:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()
