"""Leave-one-round-out: does token alignment (`write.token_align`) improve the hygiene pair model?

    PYTHONPATH=src .venv/bin/python scripts/hygiene_token_loro.py [--cache /tmp/hindsight_hygiene_vectors.npz]
        [--rounds r1,r2,r4,r5,r6] [--report bench/results/hygiene_token_loro.json]

The same data, protocol and decision as scripts/train_hygiene_pairs.py (each held-out blind round's model, L2 and
thresholds chosen on the other rounds + own pairs, per-round safety floors), run twice: with the shipped features
(`pair_features.FEATURES`, "before") and with the token alignment features appended ("after"); the hand-written
judge's verdicts ("rules") beside them. Pair level: each labelled pair and each `others` keep pair, as the write
path would judge it (under the 0.80 floor: kept). Prints and writes each held-out round's confusion matrix.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_hygiene_pairs as thp  # noqa: E402

from hindsight.write.token_align import ALIGN_FEATURES  # noqa: E402


def _ranks(values: np.ndarray) -> np.ndarray:
    """1-based ranks, ties averaged."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):
        tied = values == v
        ranks[tied] = ranks[tied].mean()
    return ranks


def separation(P: np.ndarray, rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """Threshold-free: AUC of P(merge) for restatements against distinct pairs, of P(change) for changes against
    restatements + distinct pairs (pairs in the judged band), and the share of all the round's restatements / changes
    that the round's own best threshold would reach with at most 3% of its distinct pairs merged / 5% of its
    non-change pairs retired (an oracle bound: that threshold is chosen on the held-out round itself)."""
    kind = np.array([r["kind"] for r in rows])
    band = np.array([r["cosine"] for r in rows]) >= thp.FLOOR
    dist_all = np.isin(kind, ("distinct", "unrelated"))
    rest_all, change_all = kind == "restatement", kind == "change"
    nonchange_all = np.isin(kind, ("restatement", "distinct", "unrelated", "supplement"))

    def auc(s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> float | None:
        if not pos.any() or not neg.any():
            return None
        ranks = _ranks(np.concatenate([s[pos], s[neg]]))
        n1, n0 = int(pos.sum()), int(neg.sum())
        return round(float((ranks[:n1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)), 3)

    def oracle(s: np.ndarray, pos_all: np.ndarray, neg_all: np.ndarray, allowed: float) -> float | None:
        if not pos_all.any() or not neg_all.any():
            return None
        budget = int(allowed * neg_all.sum())  # negatives that may pass (under the band they never do)
        neg = np.sort(s[neg_all & band])[::-1]
        t = neg[budget] if budget < len(neg) else -np.inf
        return round(float(((s > t) & pos_all & band).sum() / pos_all.sum()), 3)

    return {"auc_merge_restatement_vs_distinct": auc(P[:, thp.MERGE], rest_all & band, dist_all & band),
            "auc_change_vs_restatement_distinct": auc(P[:, thp.CHANGE], change_all & band, nonchange_all & band),
            "oracle_restatements_at_97_distinct_kept": oracle(P[:, thp.MERGE], rest_all, dist_all, 0.03),
            "oracle_changes_at_5_wrong": oracle(P[:, thp.CHANGE], change_all, nonchange_all, 0.05)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/hindsight_hygiene_vectors.npz"))
    parser.add_argument("--rounds", default=",".join(thp.ROUNDS))
    parser.add_argument("--report", type=Path, default=thp.ROOT / "bench" / "results" / "hygiene_token_loro.json")
    parser.add_argument("--separation-only", action="store_true",
                        help="one fit per held-out round (the L2 given), threshold-free separation only")
    parser.add_argument("--l2", type=float, help="one L2 instead of the grid (faster; the same for both sides)")
    args = parser.parse_args()
    if args.l2 is not None:
        thp.L2_GRID = (args.l2,)
    thp.CACHE[0] = args.cache
    rows = thp.pairs()
    X = thp.featurise(rows, args.cache)
    for r, code in zip(rows, thp.old_judge(rows, args.cache)):
        r["rules"] = int(code)
    A = thp.align_matrix(rows, args.cache)
    y = np.array([r["y"] for r in rows])
    rnd = np.array([r["round"] for r in rows])
    report: dict[str, Any] = {"align_features": list(ALIGN_FEATURES), "held_out": {}}
    for held in args.rounds.split(","):
        train_rows = rnd != held
        tr = [r for r, k in zip(rows, train_rows) if k]
        te = [r for r, k in zip(rows, ~train_rows) if k]
        cos = np.array([r["cosine"] for r in te])
        entry: dict[str, Any] = {"rules": thp.rates(np.where(cos >= thp.FLOOR, [r["rules"] for r in te], thp.KEEP), te)}
        for name, M in (("before", X), ("after", np.hstack([X, A]))):
            judged = np.array([r["cosine"] >= thp.FLOOR for r in tr])
            if args.separation_only:
                model = thp.fit(M[train_rows][judged], y[train_rows][judged], thp.L2_GRID[0])
                entry[name] = separation(model.probabilities(M[~train_rows]), te)
                continue
            model, chosen = thp.train(M[train_rows], y[train_rows], tr)
            pred = thp.judged(model.probabilities(M[~train_rows]), te, model.t_merge, model.t_change)
            entry[name] = {"chosen_on_other_rounds": chosen, **thp.rates(pred, te),
                           "separation": separation(model.probabilities(M[~train_rows]), te)}
        report["held_out"][held] = entry
        print(held, json.dumps(entry), file=sys.stderr, flush=True)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
