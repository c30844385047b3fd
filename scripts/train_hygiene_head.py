"""Train the pair head (`write.pair_head`: keep / merge / change from the pair features, main's verdict - the rules'
class, the scalar pair model's probabilities, main's class - and the two texts' vectors) and report it
leave-one-round-out.

    PYTHONPATH=src .venv/bin/python scripts/train_hygiene_head.py [--cache /tmp/hygiene_vectors.npz] [--k 64]
        [--out src/hindsight/data/hygiene_pair_head.npz] [--report bench/results/hygiene_head_loro.json]
        [--loro-dir DIR] [--rounds r9,r8,...] [--budget 0.01 | --pooled 0.0025] [--inner-folds 3 (0: one per round)]

Data: as scripts/train_hygiene_pairs.py (its `pairs`, `featurise`, `old_judge`, `vectors`), over every released
hygiene round (`ROUNDS`: r1, r2, r4-r10 and the training-only sets r8T1, r9T1, r10T1) and the project's own pairs.
Main's verdict of each pair is the shipped scalar model (`pair_model.shipped_model`) over the rules' class, as the
write path decides it; the head only adds merges / changes where main keeps (`PairHead.decide_many`), and every
budget below is counted against main's errors.

Protocol, for each held-out round H: the projection (top-k principal directions of the query-side vectors of the
training texts), the fit and both thresholds use the other rounds only. Thresholds are chosen on out-of-fold
probabilities of the training rows (the training rounds in INNER_FOLDS folds of whole rounds, each predicted by a fit
without its fold; own pairs in 5 hash groups spread over the folds),
maximising merge recall + change recall subject to, in every training round separately: distinct kept apart (not
merged, not retired) >= 0.97 or no worse than main there, wrong deprecations <= 0.05 or no worse than main,
others untouched no worse than max(0.94, main). `--budget`: an added-error budget per training round
instead of the floors; `--pooled`: the added errors counted over the training rounds pooled instead (docs/benchmarks.md
"Hygiene, round 10"; round 11 uses --pooled 0.0025 --inner-folds 0). The head of --out is then fitted on every round with thresholds chosen the same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_hygiene_pairs as base  # noqa: E402
from train_hygiene_pairs import CHANGE, KEEP, MERGE, NAMES, OTHER_KINDS  # noqa: E402

from hindsight.write.pair_head import PairHead, head_row  # noqa: E402
from hindsight.write.pair_model import PairModel, shipped_model  # noqa: E402

ROOT = base.ROOT
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r8T1", "r9T1", "r10T1")
GRID = (*(round(float(x), 3) for x in np.arange(0.50, 0.99, 0.025)), 0.99, 1.01)
KEEP_FLOOR, WRONG_CEIL, OTHERS_FLOOR = 0.97, 0.05, 0.94
#: --budget: instead of the floors, the share of distinct pairs (and of others) the head may add to main's errors
BUDGET: list[float | None] = [None]
#: --pooled: select on the training rounds pooled instead: the head's added distinct pairs merged or retired, added
#: wrong deprecations and added others touched (each over main's, pooled counts) at most this share of their pairs
POOLED: list[float | None] = [None]
#: Out-of-fold probabilities for the thresholds: the training rounds in this many folds of whole rounds (--inner-folds;
#: 0: one fold per round, and per own-pairs hash group).
INNER_FOLDS = [3]
C = 0.05  # inverse L2 strength: set once, not tuned (docs/benchmarks.md "Hygiene, round 10")


def projection(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(centre, basis): the top-k principal directions of `vectors`, each scaled to unit variance."""
    centre = vectors.mean(axis=0)
    _, s, vt = np.linalg.svd(vectors - centre, full_matrices=False)
    std = s[:k] / np.sqrt(max(1, len(vectors) - 1))
    return centre, vt[:k] / np.maximum(std, 1e-9)[:, None]


class Data:
    def __init__(self, rows: list[dict[str, Any]], X: np.ndarray, U: np.ndarray, V: np.ndarray,
                 model: PairModel) -> None:
        self.rows, self.X, self.U, self.V = rows, X, U, V
        self.y = np.array([r["y"] for r in rows])
        self.rules = np.array([r["rules"] for r in rows])
        self.model_p = model.probabilities(X)  # the scalar pair model's probabilities (main's)
        self.main = PairModel.decide_many(self.model_p, model.t_merge, model.t_change, self.rules)
        self.kind = np.array([r["kind"] for r in rows])
        self.rnd = np.array([r["round"] for r in rows])
        self.judged = np.array([r["cosine"] for r in rows]) >= base.FLOOR
        self.main = np.where(self.judged, self.main, KEEP)  # main's class as the write path decides it
        self.group = np.array([r["round"] if r["round"] != "own"
                               else f"own{int(hashlib.sha1(r['new'].encode()).hexdigest(), 16) % 5}" for r in rows])

    def features(self, train: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows of `head_row` for every pair, the projection fitted on the texts of `train` rows."""
        centre, basis = projection(np.vstack([self.U[train], self.V[train]]), k)
        pu, pv = (self.U - centre) @ basis.T, (self.V - centre) @ basis.T
        block = np.hstack([pu * pv, np.abs(pu - pv)])
        F = np.vstack([head_row(x, int(c), p, int(m), b)
                       for x, c, p, m, b in zip(self.X, self.rules, self.model_p, self.main, block)])
        return F, centre, basis


def fit(F: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Multinomial logistic regression on standardised rows, classes weighted to balance (scikit-learn, lbfgs)."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = F.mean(axis=0), F.std(axis=0)
    scale[scale < 1e-6] = 1.0
    counts = np.bincount(y, minlength=3).astype(np.float64)
    weight = counts.sum() / (3 * np.maximum(counts, 1))
    model = LogisticRegression(C=C, max_iter=500, class_weight={i: float(weight[i]) for i in range(3)})
    model.fit((F - mean) / scale, y)
    return mean, scale, model.coef_.T.astype(np.float64), model.intercept_.astype(np.float64)


def probabilities(params: tuple[np.ndarray, ...], F: np.ndarray) -> np.ndarray:
    mean, scale, W, b = params
    logits = ((F - mean) / scale) @ W + b
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def decided(d: Data, P: np.ndarray, idx: np.ndarray, t: tuple[float, float]) -> np.ndarray:
    """The write path's class of rows `idx`: the head on top of main from the judge's floor, keep under it."""
    return np.where(d.judged[idx], PairHead.decide_many(P, d.main[idx], *t), KEEP)


def choose(d: Data, P: np.ndarray, idx: np.ndarray) -> tuple[float, float]:
    """Thresholds on out-of-fold `P` of rows `idx` under the per-round floors (released rounds only); every
    baseline is main's verdict (`Data.main`)."""
    main = d.main[idx]
    y, kind, rnd = d.y[idx], d.kind[idx], d.rnd[idx]
    if POOLED[0] is not None:
        return choose_pooled(main, y, kind, POOLED[0], lambda t: decided(d, P, idx, t))
    checks = []
    for g in sorted(set(rnd.tolist()) - {"own"}):
        dm = (rnd == g) & np.isin(kind, ("distinct", "unrelated"))
        km = (rnd == g) & (y != CHANGE) & ~np.isin(kind, OTHER_KINDS)  # restatements, distinct, supplements
        om = (rnd == g) & (kind == "other")
        rate = lambda pred, m, bad: float(bad(pred[m]).mean()) if m.any() else 0.0  # noqa: E731
        rd, rw, ro = (rate(main, dm, lambda p: p != KEEP), rate(main, km, lambda p: p == CHANGE),
                      rate(main, om, lambda p: p != KEEP))
        if BUDGET[0] is None:  # floors: the target, or main's own rate where it already misses it
            checks.append((dm, km, om, max(1 - KEEP_FLOOR, rd), max(WRONG_CEIL, rw), max(1 - OTHERS_FLOOR, ro)))
        else:  # an added-error budget: at most BUDGET more distinct pairs / others touched than main
            checks.append((dm, km, om, rd + BUDGET[0], max(WRONG_CEIL, rw), ro + BUDGET[0]))
    best: tuple[float, tuple[float, float]] | None = None
    for tm, tc in ((a, b) for a in GRID for b in GRID):
        pred = decided(d, P, idx, (tm, tc))
        if any((dm.any() and (pred[dm] != KEEP).mean() > ld + 1e-9)
               or (km.any() and (pred[km] == CHANGE).mean() > lw + 1e-9)
               or (om.any() and (pred[om] != KEEP).mean() > lo + 1e-9) for dm, km, om, ld, lw, lo in checks):
            continue
        score = float((pred[y == MERGE] == MERGE).mean() + (pred[y == CHANGE] == CHANGE).mean())
        if best is None or score > best[0] + 1e-9:
            best = (score, (tm, tc))
    return best[1] if best else (1.01, 1.01)  # nothing safe: main decides


def choose_pooled(main: np.ndarray, y: np.ndarray, kind: np.ndarray, cap: float,
                  predict: Any) -> tuple[float, float]:
    """Thresholds maximising restatements merged + changes retired (pooled counts) subject to, over all training
    rounds pooled: distinct pairs merged or retired, wrong deprecations (restatement, distinct, supplement retired)
    and others touched each no more than `cap` of their pairs beyond what main already does."""
    dm = np.isin(kind, ("distinct", "unrelated"))
    km = (y != CHANGE) & ~np.isin(kind, OTHER_KINDS)
    om = kind == "other"
    base_d, base_w, base_o = (int((main[dm] != KEEP).sum()), int((main[km] == CHANGE).sum()),
                              int((main[om] != KEEP).sum()))
    best: tuple[int, tuple[float, float]] | None = None
    for t in ((a, b) for a in GRID for b in GRID):
        pred = predict(t)
        if (int((pred[dm] != KEEP).sum()) - base_d > cap * dm.sum() + 1e-9
                or int((pred[km] == CHANGE).sum()) - base_w > cap * km.sum() + 1e-9
                or int((pred[om] != KEEP).sum()) - base_o > cap * om.sum() + 1e-9):
            continue
        score = int((pred[y == MERGE] == MERGE).sum() + (pred[y == CHANGE] == CHANGE).sum())
        if best is None or score > best[0]:
            best = (score, t)
    return best[1] if best else (1.01, 1.01)


def train(d: Data, rows_in: np.ndarray, k: int) -> tuple[PairHead, dict[str, Any], np.ndarray]:
    """Projection, fit and thresholds from the rows `rows_in` (a boolean mask) only."""
    F, centre, basis = d.features(rows_in, k)
    fit_rows = np.where(rows_in & d.judged)[0]
    P = np.zeros((len(d.rows), 3))
    groups = sorted(set(d.group[fit_rows].tolist()))
    n_folds = INNER_FOLDS[0] or len(groups)
    fold = {g: i % n_folds for i, g in enumerate(groups)}  # whole rounds per fold (own pairs: hash folds)
    inner = np.array([fold[g] for g in d.group[fit_rows]])
    for f in range(n_folds):
        test, rest = fit_rows[inner == f], fit_rows[inner != f]
        P[test] = probabilities(fit(F[rest], d.y[rest]), F[test])
    chosen = np.where(rows_in & (d.rnd != "own"))[0]
    tm, tc = choose(d, P[chosen], chosen)
    mean, scale, W, b = fit(F[fit_rows], d.y[fit_rows])
    head = PairHead(centre=centre, basis=basis, mean=mean, scale=scale, weights=W, bias=b, t_merge=tm, t_change=tc)
    return head, {"t_merge": tm, "t_change": tc}, F


def rates(d: Data, pred: np.ndarray, idx: np.ndarray) -> dict[str, Any]:
    y, kind = d.y[idx], d.kind[idx]
    other = np.isin(kind, OTHER_KINDS)

    def share(mask: np.ndarray, hit: np.ndarray) -> float | None:
        return round(float(hit[mask].mean()), 3) if mask.any() else None

    return {
        "distinct_kept_apart": share(np.isin(kind, ("distinct", "unrelated")), pred == KEEP),
        "restatements_merged": share(y == MERGE, pred == MERGE),
        "changes_deprecate_old": share((y == CHANGE) & (kind != "retrieval"), pred == CHANGE),
        "wrong_deprecations": share((y != CHANGE) & ~other, pred == CHANGE),
        "others_untouched": share(kind == "other", pred == KEEP),
        "confusion": {f"{NAMES[int(a)]}->{NAMES[int(b)]}": int(n)
                      for (a, b), n in sorted(Counter(zip(y.tolist(), pred.tolist())).items())},
    }


def load_data(cache: Path) -> Data:
    base.ROUNDS = ROUNDS
    base.CACHE[0] = cache
    rows = base.pairs()
    X = base.featurise(rows, cache)
    for r, code in zip(rows, base.old_judge(rows, cache)):
        r["rules"] = int(code)
    vec = base.vectors([t for r in rows for t in (r["old"], r["new"])], cache)
    U = np.vstack([vec[r["old"]][1] for r in rows])
    V = np.vstack([vec[r["new"]][1] for r in rows])
    model = shipped_model()
    if model is None or model.aligned:
        raise SystemExit("main's scalar pair model (src/hindsight/data/hygiene_pair_model.npz, plain features) is needed")
    return Data(rows, X, U, V, model)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/hindsight_hygiene_vectors.npz"))
    parser.add_argument("--k", type=int, default=32, help="principal directions of the vectors kept")
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "hindsight" / "data" / "hygiene_pair_head.npz")
    parser.add_argument("--report", type=Path, default=ROOT / "bench" / "results" / "hygiene_head_loro.json")
    parser.add_argument("--loro-dir", type=Path, help="also save each held-out round's head (head_without_<round>.npz)")
    parser.add_argument("--rounds", help="comma-separated held-out rounds to report, in this order (default: all; none: only the shipped fit)")
    parser.add_argument("--budget", type=float, help="select under an added-error budget per training round instead "
                        "of the floors (e.g. 0.01: one distinct pair in 100 merged or retired beyond main)")
    parser.add_argument("--pooled", type=float, help="select on the training rounds pooled: added distinct merged or "
                        "retired, added wrong deprecations and added others touched each at most this share "
                        "(e.g. 0.005) of their pairs, counted over all training rounds together")
    parser.add_argument("--inner-folds", type=int, default=3, help="folds of whole training rounds for the "
                        "out-of-fold probabilities the thresholds are chosen on (0: one per round)")
    args = parser.parse_args()
    BUDGET[0], POOLED[0], INNER_FOLDS[0] = args.budget, args.pooled, args.inner_folds
    d = load_data(args.cache)
    report: dict[str, Any] = {"k": args.k, "budget": args.budget, "pooled": args.pooled, "inner_folds": args.inner_folds, "rows": dict(Counter(d.rnd.tolist())), "held_out": {}}
    held_out = ROUNDS if not args.rounds else () if args.rounds == "none" else tuple(args.rounds.split(","))
    for held in held_out:
        head, chosen, F = train(d, d.rnd != held, args.k)
        if args.loro_dir:
            args.loro_dir.mkdir(parents=True, exist_ok=True)
            head.save(args.loro_dir / f"head_without_{held}.npz")
        idx = np.where(d.rnd == held)[0]
        pred = decided(d, head.probabilities(F[idx]), idx, (head.t_merge, head.t_change))
        entry = {"chosen_on_other_rounds": chosen, "new": rates(d, pred, idx), "main": rates(d, d.main[idx], idx),
                 "rules": rates(d, np.where(d.judged[idx], d.rules[idx], KEEP), idx)}
        report["held_out"][held] = entry
        print(held, json.dumps(entry), file=sys.stderr, flush=True)
    head, chosen, _ = train(d, np.ones(len(d.rows), dtype=bool), args.k)
    report["shipped"] = chosen
    head.save(args.out)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
