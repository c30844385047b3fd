"""The live search with the shipped model vs the collected rows: the same hits in the same places (relevance
moves nothing), and the runtime's relevance equal to the offline model's on the captured inputs.

    PYTHONPATH=src python bench/relev43/live_check.py ROWS_COLLECTED.json ROWS_LIVE.json CONV
"""

import json
import sys
from pathlib import Path

from hindsight.retrieval.relevance import DEFAULT_MODEL, model_for


def main() -> None:
    collected = [r for r in json.loads(Path(sys.argv[1]).read_text()) if r["conv"] == int(sys.argv[3])]
    live = json.loads(Path(sys.argv[2]).read_text())
    model = model_for(DEFAULT_MODEL)
    assert model is not None
    same_order = sum(a["dia_ids"] == b["dia_ids"] for a, b in zip(collected, live, strict=True))
    diffs = [abs(round(model.of(f), 4) - v) for a, b in zip(collected, live, strict=True) if a["dia_ids"] == b["dia_ids"]
             for f, v in zip(a["features"], b["shipped"], strict=True)]
    print(json.dumps({"questions": len(live), "same_hits_same_order": same_order,
                      "hits_compared": len(diffs), "max_abs_diff_live_vs_offline": max(diffs, default=0.0)}))


if __name__ == "__main__":
    main()
