"""Leave one dev conversation out with round 43's query-level inputs (candidate A: evidence label; B: passage).

    PYTHONPATH=src python bench/relev43/loco.py ROWS_DEV.json OUT.json

ROWS_DEV.json comes from `scripts/calibrate_relevance.py --split dev --rows ...` (this branch: the rows carry the
pool inputs and `passage_labels`). For each label a greedy forward selection over the learnable inputs by
out-of-fold log loss (bench/relevance2/loro.py's), then out-of-fold summaries of: today's 11 inputs refitted, the
chosen inputs, the chosen inputs + isotonic. The own check always counts evidence turns (the issue's check); B
trains on the passage label only.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "bench" / "relevance2")]

from calibrate_relevance import CHOSEN_ROUND2 as CHOSEN  # noqa: E402
from loro import UNLEARNABLE, forward, out_of_fold, summary  # noqa: E402

from hindsight.retrieval.relevance import ALL_FEATURES  # noqa: E402

LEARNABLE = tuple(n for n in ALL_FEATURES if n not in UNLEARNABLE)


def relabel(rows: list[dict], key: str) -> list[dict]:
    """The rows with `key`'s labels as the training labels (the evidence labels kept as `evidence`)."""
    return [{**r, "labels": r[key], "evidence": r["labels"]} for r in rows]


def evidence_view(rows: list[dict]) -> list[dict]:
    return [{**r, "labels": r.get("evidence", r["labels"])} for r in rows]


def main() -> None:
    rows = json.loads(Path(sys.argv[1]).read_text())
    out: dict = {"questions": len(rows), "as collected (main's model)": summary(rows, [r["shipped"] for r in rows])}
    for name, key in (("A", "labels"), ("B", "passage_labels")):
        train = relabel(rows, key)
        path = forward(train, LEARNABLE, 1.0, 16)
        chosen = tuple(n for n, _ in path)
        out[name] = {"forward": path}
        for label, names, iso in (("today's 11, refit", CHOSEN, False), ("chosen", chosen, False),
                                  ("chosen + isotonic", chosen, True)):
            probs = out_of_fold(train, names, 1.0, iso)
            out[name][label] = summary(evidence_view(train), probs)
            print(name, label, {k: v for k, v in out[name][label].items() if k not in ("curve", "sweep")},
                  file=sys.stderr)
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
