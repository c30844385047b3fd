"""Hygiene round 33 (issue 10): the keep decision, merges only, with one-sided content read both ways.

    PYTHONPATH=src:bench python bench/keepmerge33.py loro FEAT.npz OUT.json [base|full] [SETS]   # leave one set out
    PYTHONPATH=src:bench python bench/keepmerge33.py insample FEAT.npz OUT.json [base|full]
    PYTHONPATH=src:bench python bench/keepmerge33.py export_fold FEAT.npz DIR SETS|all [base|full]

The rows and features are `hygdecide32.features` (on this branch they end with `one_sided.FEATURES`); `base` reads
round 32's columns only (the reference arm), `full` all of them (the candidate). The model is round 32's; the
operating point is merges only (`bench/results/keepmerge33_rule.md`): merge where p(merge) >= t_merge, t_merge of
least summed cost on out-of-fold probabilities of the fold's training sets (a distinct or supplement pair merged 20,
a change merged 4, a restatement kept 1). Output files have the shape of `hygdecide32.loro`'s (t_change 1.01: off),
so `hygdecide32.report` reads them, and exported folds serve `hygiene_funnel.py --keep-decision-dir`.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hygdecide32 import GRID, INNER, _load_features, fit

#: COST[true class][action], actions keep 0 / merge 1 (true class keep = a distinct or supplement pair).
COST = ((0.0, 20.0), (1.0, 0.0), (0.0, 4.0))
OFF = 1.01


def _columns(X: Any, arm: str) -> Any:
    from hindsight.write.keep_decision import FEATURES
    from hindsight.write.one_sided import FEATURES as ONE_SIDED

    if X.shape[1] != len(FEATURES):
        raise SystemExit(f"features: {X.shape[1]} columns, keep_decision.FEATURES has {len(FEATURES)}")
    if arm not in ("base", "full"):
        raise SystemExit(f"arm: must be 'base' or 'full', got {arm!r}")
    return X[:, : len(FEATURES) - len(ONE_SIDED)] if arm == "base" else X


def merge_point(P: Any, y: Any) -> tuple[float, float]:
    """(t_merge, cost) of least summed cost on the grid (merges only)."""
    import numpy as np

    cost = np.asarray(COST)
    best = (OFF, float(cost[y, 0].sum()))
    for t in GRID:
        c = float(cost[y, (P[:, 1] >= t).astype(int)].sum())
        if c < best[1] - 1e-9:
            best = (t, c)
    return best


def inner_point(X: Any, y: Any, sets: Any) -> tuple[float, float]:
    import numpy as np

    names = sorted(set(sets))
    group = {s: k % INNER for k, s in enumerate(names)}
    g = np.asarray([group[s] for s in sets])
    P = np.zeros((len(y), 3))
    for k in range(INNER):
        test = g == k
        P[test] = fit(X[~test], y[~test]).predict_proba(X[test])
    return merge_point(P, y)


def _fold(X: Any, y: Any, sets: Any, train: Any) -> tuple[Any, float, float]:
    t, c = inner_point(X[train], y[train], sets[train])
    return fit(X[train], y[train]), t, c


def loro(feature_file: str, out: str, arm: str = "full", only: str = "") -> None:
    import numpy as np

    X, y, meta, sets = _load_features(feature_file)
    X = _columns(X, arm)
    found: dict[str, Any] = json.loads(Path(out).read_text(encoding="utf-8")) if Path(out).exists() else {}
    for rnd in (only.split(",") if only else sorted(set(sets))):
        if rnd in found:
            continue
        test = sets == rnd
        model, t, c = _fold(X, y, sets, ~test)
        P = model.predict_proba(X[test])
        act = (P[:, 1] >= t).astype(int)
        found[rnd] = {"t_merge": t, "t_change": OFF, "inner_cost": c,
                      "rows": {meta[i]["key"]: [int(a), round(float(P[j, 1]), 4), round(float(P[j, 2]), 4)]
                               for j, (i, a) in enumerate(zip(np.flatnonzero(test), act))}}
        Path(out).write_text(json.dumps(found, indent=0), encoding="utf-8")
        print(rnd, t, {"merge": int(act.sum())}, flush=True)


def insample(feature_file: str, out: str, arm: str = "full") -> None:
    import numpy as np

    X, y, meta, sets = _load_features(feature_file)
    X = _columns(X, arm)
    model, t, c = _fold(X, y, sets, np.ones(len(y), dtype=bool))
    P = model.predict_proba(X)
    act = (P[:, 1] >= t).astype(int)
    rows = {m["key"]: [int(a), round(float(P[j, 1]), 4), round(float(P[j, 2]), 4)] for j, (m, a) in enumerate(zip(meta, act))}
    Path(out).write_text(json.dumps({"all": {"t_merge": t, "t_change": OFF, "inner_cost": c, "rows": rows}}, indent=0),
                         encoding="utf-8")
    print(t, {"merge": int(act.sum())})


def export_fold(feature_file: str, out_dir: str, rounds: str, arm: str = "full") -> None:
    """keep_without_<round>.npz per round (the fold fitted without it; `all`: keep_all.npz, every set)."""
    from hindsight.write.keep_decision import TreeEnsemble

    X, y, meta, sets = _load_features(feature_file)
    if arm != "full":
        raise SystemExit("arm: only the full arm exports (the shipped FEATURES)")
    X = _columns(X, arm)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    for rnd in rounds.split(","):
        model, t, c = _fold(X, y, sets, sets != rnd)
        name = f"keep_without_{rnd}.npz" if rnd != "all" else "keep_all.npz"
        TreeEnsemble.from_hgb(model, t, OFF).save(Path(out_dir) / name)
        print(rnd, t, c, flush=True)


if __name__ == "__main__":
    {"loro": loro, "insample": insample, "export_fold": export_fold}[sys.argv[1]](*sys.argv[2:])
