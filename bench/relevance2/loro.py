"""Leave one dev conversation out: which inputs and which C make `relevance` best calibrated on LoCoMo dev.

    PYTHONPATH=src python bench/relevance2/loro.py ROWS_DEV.json > bench/relevance2/out/loro_dev.json

ROWS_DEV.json comes from `scripts/calibrate_relevance.py --split dev --rows ...`. For each held-out conversation
the model is fitted on the other three (their own and foreign questions) and scored on the held-out store's own
and foreign questions; the pooled out-of-fold probabilities give Brier, log loss, ECE and issue 14's shares.
A greedy forward selection over `relevance.ALL_FEATURES` (by out-of-fold log loss) runs last.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts")]

from calibrate_relevance import CHOSEN_ROUND2 as CHOSEN  # noqa: E402
from calibrate_relevance import criteria, fit, matrix, probabilities, sweep  # noqa: E402

from hindsight.retrieval.relevance import ALL_FEATURES, FEATURES  # noqa: E402

#: inputs a LoCoMo fit cannot learn (every turn is the same type, no query cues one) or should not: age (the
#: store's last session is always one day old, so age would learn the dataset's shape) and the second step's score
#: (it runs only on session-structured English stores: on every LoCoMo search, on no blind fact-set search, so a
#: fit would read its absence, which it never saw, as "irrelevant")
UNLEARNABLE = ("type_cued", "type_match", "age_log", "second_pass", "second_pass_missing")


def out_of_fold(rows: list[dict], names: tuple[str, ...], c: float, isotonic: bool) -> list[list[float]]:
    convs = sorted({r["conv"] for r in rows})
    probs: list[list[float] | None] = [None] * len(rows)
    for held in convs:
        model = fit([r for r in rows if r["conv"] != held], names, c, isotonic)
        for i, r in enumerate(rows):
            if r["conv"] == held:
                probs[i] = [model.of(f) for f in r["features"]]
    return [p for p in probs if p is not None]


def summary(rows: list[dict], probs: list[list[float]]) -> dict:
    c = criteria(rows, probs)
    keep = ("foreign_any_hit_at_or_above", "own_evidence_at_or_above", "own_evidence_in_top10_at_all",
            "evidence_share_of_those", "own_share_bound_at_precision_half", "brier", "log_loss", "ece")
    return {**{k: c[k] for k in keep}, "curve": c["curve"],
            "sweep": [(s["threshold"], s["foreign_any_hit_at_or_above"], s["own_evidence_at_or_above"])
                      for s in sweep(rows, probs)]}


def forward(rows: list[dict], pool: tuple[str, ...], c: float, steps: int) -> list[tuple[str, float]]:
    """Greedy forward selection by out-of-fold log loss (the same standardised logistic fit, on one matrix)."""
    from sklearn.linear_model import LogisticRegression

    x, y = matrix(rows, pool)
    conv = np.asarray([r["conv"] for r in rows for _ in r["labels"]])

    def loss(cols: list[int]) -> float:
        p = np.zeros(len(y))
        for held in np.unique(conv):
            train, test = conv != held, conv == held
            mean, scale = x[train][:, cols].mean(axis=0), x[train][:, cols].std(axis=0)
            scale[scale < 1e-9] = 1.0
            lr = LogisticRegression(C=c, max_iter=5000).fit((x[train][:, cols] - mean) / scale, y[train])
            p[test] = lr.predict_proba((x[test][:, cols] - mean) / scale)[:, 1]
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    chosen: list[int] = []
    path: list[tuple[str, float]] = []
    for _ in range(steps):
        best, j = min((loss(chosen + [j]), j) for j in range(len(pool)) if j not in chosen)
        if path and best > path[-1][1] - 1e-4:
            break
        chosen.append(j)
        path.append((pool[j], round(best, 5)))
        print(f"forward: {path[-1]}", file=sys.stderr)
    return path


def main() -> None:
    rows = json.loads(Path(sys.argv[1]).read_text())
    learnable = tuple(n for n in ALL_FEATURES if n not in UNLEARNABLE)
    if "--forward" in sys.argv:  # only the selection path
        print(json.dumps(forward(rows, learnable, 1.0, 16)))
        return
    out: dict = {"questions": len(rows), "as collected (the model active when the rows were collected: main's, in-sample on dev 0-1, for out/loro_dev.json)": summary(rows, probabilities(rows, None))}
    configs = [("first 8 inputs, refit", FEATURES, 1.0, False), ("first 8 inputs + isotonic", FEATURES, 1.0, True),
               ("all learnable", learnable, 1.0, False), ("all learnable + isotonic", learnable, 1.0, True),
               ("all learnable, C 0.1", learnable, 0.1, False), ("chosen + isotonic", CHOSEN, 1.0, True),
               ("chosen", CHOSEN, 1.0, False)]
    for label, names, c, iso in configs:
        out[label] = summary(rows, out_of_fold(rows, names, c, iso))
        print(label, {k: v for k, v in out[label].items() if k not in ("curve", "sweep")}, file=sys.stderr)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
