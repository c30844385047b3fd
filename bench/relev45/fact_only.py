"""Post-held-out exploration, dev only + the named check (NOT a held-out result): a fact-store-only model H.

    PYTHONPATH=src python bench/relev45/fact_only.py   # rows: /tmp/relev43/rows/blind.json, /tmp/relev45/relev45_tiny_dev.json
"""
import json, sys
from pathlib import Path
sys.path[:0] = ["bench/relev45", "scripts", "bench/relevance2", "bench/relev43"]
from fit import DEV_ROUNDS, LEARNABLE, out_of_fold, log_loss, brief, group
from calibrate_relevance import criteria, fit, probabilities
from hindsight.retrieval.relevance import DEFAULT_MODEL, model_for
blind = [r for r in json.load(open("/tmp/relev43/rows/blind.json")) if r["round"] in DEV_ROUNDS]
tiny = json.load(open("/tmp/relev45/relev45_tiny_dev.json"))
rows = blind + tiny
probs = out_of_fold(rows, LEARNABLE)
main = model_for(DEFAULT_MODEL)
out = {}
for name, pr in (("H_oof", probs), ("main", probabilities(rows, main))):
    out[name] = {k: brief(criteria([r for r in rows if (r["round"].startswith("tiny_")) == t],
                                   [p for r, p in zip(rows, pr) if (r["round"].startswith("tiny_")) == t]))
                 for k, t in (("blind", False), ("tiny", True))} | {"log_loss": round(log_loss(rows, pr), 5)}
print(out)
Path("/tmp/relev45/h_models.json").write_text(json.dumps({"H": fit(rows, LEARNABLE).to_entry()}))
Path("/tmp/relev45/h_dev.json").write_text(json.dumps(out, default=float))
