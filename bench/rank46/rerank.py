"""Round 46 offline re-order of today's top 20 / 30 by a learned ranker (measurement only).

    python bench/rank46/rerank.py COL 0 1 2 3 --out bench/results/rank46/dev.json --pick bench/results/rank46/pick.json
    python bench/rank46/rerank.py COL 0 1 2 3 --test COLT 4 5 6 7 8 9 --apply bench/results/rank46/pick.json \
        --out bench/results/rank46/test.json                                  # once

COL holds round 40's rows (`bench/recall40/collect.py`); today's order is recall45's baseline (round 38's top 50
with round 40's step 6d). Features per candidate: `features.py`. Variants (declared in
bench/results/rank46/ship_rule.md): model {pairwise logistic C 0.01 / 0.1 / 1, HistGB pointwise} x lam {0, 0.5,
1, 2} (weight of today's prior -log(rank) added to the per-question standardised model score) x depth {20, 30}.
Dev figures are leave-one-conversation-out only: trained on three dev conversations, scored on the fourth.
`--amended` (amendment 1: the boundary swap) and `--gated` (amendment 2: list questions only) score the other
grids; `--sweep` (after the one test score; chooses nothing) scores every variant trained on COL on the `--test`
conversations.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from features import NAMES, prepare
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "recall38"))
from fuse import CATS, fmt, summary  # noqa: E402

sys.path.insert(0, str(HERE.parents[1] / "src"))
from hindsight.retrieval.class_lexicon import asks_list  # noqa: E402

MODELS = ("pair0.01", "pair0.1", "pair1", "hgb")
LAMS = (0.0, 0.5, 1.0, 2.0)
DEPTHS = (20, 30)
VARIANTS = [(m, lam, d) for m in MODELS for lam in LAMS for d in DEPTHS]
# amendment 1 (ship_rule.md): keep today's order, swap at most k of places 6-10 for better-scored places 11-depth
AMENDED = [(m, "swap", k, tau, d) for m in ("pair0.01w", "pair0.1w", "hgb") for k in (1, 2, 3)
           for tau in (0.0, 0.5, 1.0) for d in DEPTHS]
# amendment 2: every variant of both grids applied to list questions only (`class_lexicon.asks_list`)
GATED = [("list", *v) for v in VARIANTS + AMENDED]
_FITS: dict[tuple, Ranker] = {}


def recall_at(q: dict, top: list[str], k: int) -> float:
    ev = set(q["evidence"])
    return len(ev & set(top[:k])) / len(ev)


def r5(rows: list[tuple[dict, list[str]]]) -> float:
    return float(np.mean([recall_at(q, top, 5) for q, top in rows]))


class Ranker:
    """One model kind fitted on questions' feature matrices (label 1 = evidence)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.scaler = StandardScaler()

    def fit(self, mats: list[tuple[np.ndarray, np.ndarray]]) -> Ranker:
        x_all = np.vstack([x for x, _ in mats])
        self.scaler.fit(x_all)
        if self.kind == "hgb":
            y_all = np.concatenate([y for _, y in mats])
            self.model = HistGradientBoostingClassifier(max_iter=100, max_leaf_nodes=7, learning_rate=0.05,
                                                        random_state=0, class_weight="balanced")
            self.model.fit(self.scaler.transform(x_all), y_all)
            return self
        diffs, labels, weights = [], [], []
        for x, y in mats:
            xs = self.scaler.transform(x)
            pos, neg = np.where(y == 1)[0], np.where(y == 0)[0]
            w = 1.0 / (len(pos) * len(neg)) if self.kind.endswith("w") else 1.0
            for i in pos:
                for j in neg:
                    diffs.append(xs[i] - xs[j])
                    labels.append(1)
                    diffs.append(xs[j] - xs[i])
                    labels.append(0)
                    weights += [w, w]
        self.model = LogisticRegression(C=float(self.kind[4:].rstrip("w")), fit_intercept=False, max_iter=2000)
        self.model.fit(np.asarray(diffs), np.asarray(labels), sample_weight=np.asarray(weights) / np.mean(weights))
        return self

    def score(self, x: np.ndarray) -> np.ndarray:
        xs = self.scaler.transform(x)
        if self.kind == "hgb":
            p = self.model.predict_proba(xs)[:, 1]
            return np.log(np.clip(p, 1e-6, 1 - 1e-6) / np.clip(1 - p, 1e-6, 1))
        return xs @ self.model.coef_[0]


def mats(rows: list, depth: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Training matrices: questions whose top `depth` holds evidence and non-evidence."""
    out = []
    for q, _ in rows:
        x, y = q["feat"][depth]
        if 0 < y.sum() < len(y):
            out.append((x, y))
    return out


def reorder(q: dict, ranker: Ranker, lam: float, depth: int) -> list[str]:
    x, _ = q["feat"][depth]
    head = q["today"][:depth]
    s = ranker.score(x)
    s = (s - s.mean()) / (s.std() or 1.0)
    s = s - lam * np.log(np.arange(1, len(head) + 1))
    order = [head[i] for i in np.argsort(-s, kind="stable")]
    return order + q["today"][depth:]


def swap(q: dict, ranker: Ranker, k: int, tau: float, depth: int) -> list[str]:
    """Today's order; up to k of places 6-10 (lowest model score first) give way to the best-scored of places
    11-depth where the incoming score beats the outgoing by more than tau (scores standardised per question)."""
    x, _ = q["feat"][depth]
    head = q["today"][:depth]
    s = ranker.score(x)
    s = (s - s.mean()) / (s.std() or 1.0)
    outs = sorted(range(5, min(10, len(head))), key=lambda i: s[i])
    ins = sorted(range(10, len(head)), key=lambda i: -s[i])
    moved_out, moved_in = [], []
    for o, i in zip(outs[:k], ins[:k], strict=False):
        if s[i] > s[o] + tau:
            moved_out.append(o)
            moved_in.append(i)
    if not moved_in:
        return q["today"]
    top = [head[i] for i in range(min(10, len(head))) if i not in moved_out] + [head[i] for i in moved_in]
    return top + [d for d in q["today"] if d not in set(top)]


def scored(rows: list, variant: tuple, train: list) -> list[tuple[dict, list[str]]]:
    if variant[0] == "list":
        inner = scored(rows, variant[1:], train)
        return [(q, o if asks_list(q["q"]) else q["today"]) for q, o in inner]
    kind, depth = variant[0], variant[-1]
    key = (kind, depth, tuple(sorted({q["conv"] for q, _ in train})))
    if key not in _FITS:
        _FITS[key] = Ranker(kind).fit(mats(train, depth))
    ranker = _FITS[key]
    if len(variant) == 5:
        return [(q, swap(q, ranker, variant[2], variant[3], depth)) for q, _ in rows]
    return [(q, reorder(q, ranker, variant[1], depth)) for q, _ in rows]


def full(rows: list[tuple[dict, list[str]]]) -> dict:
    total, cats = summary(rows)
    return {"r10": total, "cats": cats, "r5": r5(rows)}


def eligible(score: dict, base: dict) -> bool:
    return all(not score["cats"][c] < base["cats"][c] - 0.005 - 1e-9 for c in CATS)


def main() -> None:
    argv = sys.argv
    col = Path(argv[1])
    convs = [int(x) for x in argv[2:argv.index("--test")] if x.isdigit()] if "--test" in argv else \
        [int(x) for x in argv[2:] if x.isdigit()]
    rows = prepare(col, convs, DEPTHS)
    base = full([(q, q["today"]) for q, _ in rows])
    print("features:", len(NAMES), "dev today:", fmt((base["r10"], base["cats"])),
          f"R@5 {base['r5']:.3f}")
    out = argv[argv.index("--out") + 1] if "--out" in argv else None
    if "--sweep" in argv:  # after the one test score: every variant on test, a diagnostic that chooses nothing
        i = argv.index("--test")
        trows = prepare(Path(argv[i + 1]), [int(x) for x in argv[i + 2:] if x.isdigit()], DEPTHS)
        tbase = full([(q, q["today"]) for q, _ in trows])
        table = []
        for v in VARIANTS + AMENDED + GATED:
            s = full(scored(trows, v, rows))
            table.append({"variant": v, "test": s, "dev_eligible_rule": eligible(s, tbase)})
        table.sort(key=lambda t: -t["test"]["r10"])
        for t in table[:10]:
            print(t["variant"], fmt((t["test"]["r10"], t["test"]["cats"])), f"R@5 {t['test']['r5']:.3f}")
        print("variants at >= +1 point:", sum(t["test"]["r10"] >= tbase["r10"] + 0.01 for t in table), "of", len(table))
        if out:
            Path(out).write_text(json.dumps({"today": tbase, "variants": table}, indent=1))
        return
    if "--apply" in argv:
        variant = tuple(json.loads(Path(argv[argv.index("--apply") + 1]).read_text()))
        i = argv.index("--test")
        tcol = Path(argv[i + 1])
        tconvs = [int(x) for x in argv[i + 2:] if x.isdigit()]
        trows = prepare(tcol, tconvs, DEPTHS)
        tbase = full([(q, q["today"]) for q, _ in trows])
        applied_rows = scored(trows, variant, rows)
        applied = full(applied_rows)
        changed = sum(1 for q, o in applied_rows if o[:10] != q["today"][:10])
        print("test today:", fmt((tbase["r10"], tbase["cats"])), f"R@5 {tbase['r5']:.3f}")
        print("test applied", variant, fmt((applied["r10"], applied["cats"])), f"R@5 {applied['r5']:.3f}",
              "top 10 changed:", changed)
        if out:
            Path(out).write_text(json.dumps({"conversations": tconvs, "questions": len(trows), "variant": variant,
                                             "trained_on": convs, "today": tbase, "applied": applied,
                                             "top10_changed": changed}, indent=1))
        return
    variants = AMENDED if "--amended" in argv else GATED if "--gated" in argv else VARIANTS
    loco: dict[tuple, list] = {}
    for v in variants:
        res = []
        for held in convs:
            test = [r for r in rows if r[0]["conv"] == held]
            res += scored(test, v, [r for r in rows if r[0]["conv"] != held])
        loco[v] = res
        s = full(res)
        print(v, "LOCO", fmt((s["r10"], s["cats"])), f"R@5 {s['r5']:.3f}", "eligible" if eligible(s, base) else "",
              flush=True)
    scores = {v: full(loco[v]) for v in variants}
    ok = [v for v in variants if eligible(scores[v], base)]
    best = min(ok, key=lambda v: (-round(scores[v]["r10"], 9), -scores[v]["r5"], str(v))) if ok else None
    print("pick (best LOCO, eligible):", best, fmt((scores[best]["r10"], scores[best]["cats"])) if best else "")
    if out:
        Path(out).write_text(json.dumps({
            "conversations": convs, "questions": len(rows), "today": base, "pick": best,
            "variants": [{"variant": v, "loco": scores[v], "eligible": eligible(scores[v], base)}
                         for v in sorted(variants, key=lambda v: -scores[v]["r10"])]}, indent=1))
    if "--pick" in argv and best:
        Path(argv[argv.index("--pick") + 1]).write_text(json.dumps(best))


if __name__ == "__main__":
    main()
