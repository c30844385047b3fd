"""Post-held-out exploration, dev only + the named check (NOT a held-out result): a fact-store-only model H
(every learnable input, fitted on the blind dev rounds r33, r35, r37 and their 8-memory stores).

    PYTHONPATH=src python bench/relev45/fact_only.py BLIND.json TINY_DEV.json OUT_DIR
    PYTHONPATH=src python bench/relev45/small_store.py OUT_DIR/h_models.json OUT_DIR/h_small.json
"""

import json
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent)]

from fit import DEV_ROUNDS, LEARNABLE, brief, criteria, fit, log_loss, out_of_fold, probabilities  # noqa: E402

from hindsight.retrieval.relevance import DEFAULT_MODEL, model_for  # noqa: E402


def main() -> None:
    blind = [r for r in json.loads(Path(sys.argv[1]).read_text()) if r["round"] in DEV_ROUNDS]
    rows, out_dir = blind + json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[3])
    out: dict = {}
    for name, probs in (("H_out_of_fold", out_of_fold(rows, LEARNABLE)),
                        ("main", probabilities(rows, model_for(DEFAULT_MODEL)))):
        out[name] = {"log_loss": round(log_loss(rows, probs), 5)}
        for kind, tiny in (("blind", False), ("tiny", True)):
            sub = [(r, p) for r, p in zip(rows, probs, strict=True) if r["round"].startswith("tiny_") == tiny]
            out[name][kind] = brief(criteria([r for r, _ in sub], [p for _, p in sub]))
    print(out, file=sys.stderr)
    (out_dir / "h_models.json").write_text(json.dumps({"H": fit(rows, LEARNABLE).to_entry()}))
    (out_dir / "h_dev.json").write_text(json.dumps(out, default=float))


if __name__ == "__main__":
    main()
