"""A multiclass gradient-boosted tree ensemble as flat node arrays, evaluated with numpy (issue 10, hygiene round
32; `write.keep_decision`, split out in round 38): no scikit-learn at run time. `from_hgb` exports a fitted
scikit-learn `HistGradientBoostingClassifier`; `save` / `load` keep it as an `.npz` whose `names` must equal
`keep_features.FEATURES`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.linear import softmax
from hindsight.write.keep_features import FEATURES


@dataclass(frozen=True)
class TreeEnsemble:
    """A multiclass gradient-boosted ensemble as flat node arrays (exported from scikit-learn's
    HistGradientBoostingClassifier): class k's raw score is `baseline[k]` plus the leaf values of its trees."""

    feature: np.ndarray  # (nodes,) int
    threshold: np.ndarray  # (nodes,) float: x <= threshold goes left
    left: np.ndarray  # (nodes,) int, global node index
    right: np.ndarray  # (nodes,) int
    leaf: np.ndarray  # (nodes,) bool
    missing_left: np.ndarray  # (nodes,) bool: NaN goes left
    value: np.ndarray  # (nodes,) float
    roots: np.ndarray  # (trees,) int
    tree_class: np.ndarray  # (trees,) int
    baseline: np.ndarray  # (classes,)
    t_merge: float
    t_change: float

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """(n, 3) probabilities of keep, merge, change. One row (the judge's case) is walked node by node in plain
        Python (`row_scores`); several rows tree by tree over all rows at once. Both add the leaf values to the
        baseline in tree order in float64, so they give the same bits."""
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        n = X.shape[0]
        if n == 1:
            return softmax(np.asarray([self.row_scores(X[0])], dtype=np.float64))
        raw = np.tile(self.baseline, (n, 1)).astype(np.float64)
        rows = np.arange(n)
        for root, k in zip(self.roots, self.tree_class, strict=True):
            node = np.full(n, root)
            while True:
                inner = ~self.leaf[node]
                if not inner.any():
                    break
                x = X[rows, self.feature[node]]
                go_left = np.where(np.isnan(x), self.missing_left[node], x <= self.threshold[node])
                node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)
            raw[:, k] += self.value[node]
        return softmax(raw)

    @cached_property
    def _nodes(self) -> tuple[list[int], list[float], list[int], list[int], list[bool], list[bool], list[float],
                              list[tuple[int, int]], list[float]]:
        """The node arrays as Python lists (read once; a frozen dataclass still takes a cached property)."""
        return (self.feature.tolist(), self.threshold.tolist(), self.left.tolist(), self.right.tolist(),
                self.leaf.tolist(), self.missing_left.tolist(), self.value.tolist(),
                list(zip(self.roots.tolist(), self.tree_class.tolist(), strict=True)),
                np.asarray(self.baseline, dtype=np.float64).tolist())

    def row_scores(self, x: np.ndarray) -> list[float]:
        """The raw class scores of one feature row: each tree walked from its root to a leaf (NaN follows
        `missing_left`, else x <= threshold goes left) and its leaf value added to its class, in tree order."""
        feature, threshold, left, right, leaf, missing_left, value, trees, baseline = self._nodes
        row = np.asarray(x, dtype=np.float64).tolist()
        raw = list(baseline)
        for node, k in trees:
            while not leaf[node]:
                v = row[feature[node]]
                go_left = missing_left[node] if v != v else v <= threshold[node]
                node = left[node] if go_left else right[node]
            raw[k] += value[node]
        return raw

    def score_bounds(self, x: np.ndarray, free: dict[int, tuple[float, float]]) -> tuple[list[float], list[float]]:
        """The least and the greatest raw class scores of the row `x` over every value of the `free` columns within
        their closed (low, high) ranges: each tree's least and greatest reachable leaf value, added to its class in
        tree order as `row_scores` adds them (rounding is monotone, so `row_scores` of any such row lies between).
        Each column is read as a range, a point for the others (a missing value follows `missing_left`)."""
        feature, threshold, left, right, leaf, missing_left, value, trees, baseline = self._nodes
        low_x = np.asarray(x, dtype=np.float64).tolist()
        high_x = list(low_x)
        for column, (a, b) in free.items():
            low_x[column], high_x[column] = a, b
        low, high = list(baseline), list(baseline)
        for node, k in trees:
            pending: list[int] = []
            least, greatest = math.inf, -math.inf
            while True:
                while not leaf[node]:
                    f, t = feature[node], threshold[node]
                    if high_x[f] <= t:
                        node = left[node]
                    elif low_x[f] > t:
                        node = right[node]
                    elif high_x[f] != high_x[f]:  # missing
                        node = left[node] if missing_left[node] else right[node]
                    else:  # a free column's range spans the split: both sides reachable
                        pending.append(right[node])
                        node = left[node]
                v = value[node]
                if v < least:
                    least = v
                if v > greatest:
                    greatest = v
                if not pending:
                    break
                node = pending.pop()
            low[k] += least
            high[k] += greatest
        return low, high

    def decide(self, row: np.ndarray, changes: bool = True) -> tuple[str, np.ndarray]:
        """'change' from `t_change` (only with `changes`), else 'merge' from `t_merge`, else 'keep'; and the
        probabilities."""
        q = self.probabilities(row)[0]
        if changes and q[2] >= self.t_change:
            return "change", q
        if q[1] >= self.t_merge:
            return "merge", q
        return "keep", q

    def save(self, path: Path) -> None:
        np.savez_compressed(path, feature=self.feature, threshold=self.threshold, left=self.left, right=self.right,
                            leaf=self.leaf, missing_left=self.missing_left, value=self.value, roots=self.roots,
                            tree_class=self.tree_class, baseline=self.baseline,
                            t=np.asarray([self.t_merge, self.t_change]), names=np.asarray(FEATURES))

    @classmethod
    def from_hgb(cls, model: Any, t_merge: float, t_change: float) -> TreeEnsemble:
        """A fitted scikit-learn `HistGradientBoostingClassifier` (numeric splits only) as flat node arrays."""
        parts: dict[str, list[np.ndarray]] = {k: [] for k in ("feature", "threshold", "left", "right", "leaf",
                                                                "missing", "value")}
        roots, classes, offset = [], [], 0
        for trees in model._predictors:
            for k, tree in enumerate(trees):
                nodes = tree.nodes
                if nodes["is_categorical"].any():
                    raise ValueError("model: categorical splits are not supported (numeric features only)")
                roots.append(offset)
                classes.append(k)
                parts["feature"].append(nodes["feature_idx"].astype(np.int64))
                parts["threshold"].append(nodes["num_threshold"].astype(np.float64))
                parts["left"].append(nodes["left"].astype(np.int64) + offset)
                parts["right"].append(nodes["right"].astype(np.int64) + offset)
                parts["leaf"].append(nodes["is_leaf"].astype(bool))
                parts["missing"].append(nodes["missing_go_to_left"].astype(bool))
                parts["value"].append(nodes["value"].astype(np.float64))
                offset += len(nodes)
        cat = {k: np.concatenate(v) for k, v in parts.items()}
        return cls(cat["feature"], cat["threshold"], cat["left"], cat["right"], cat["leaf"], cat["missing"],
                   cat["value"], np.asarray(roots, dtype=np.int64), np.asarray(classes, dtype=np.int64),
                   np.asarray(model._baseline_prediction, dtype=np.float64).ravel(), t_merge, t_change)

    @classmethod
    def load(cls, path: Path) -> TreeEnsemble | None:
        if not path.exists():
            return None
        with np.load(path, allow_pickle=False) as z:
            if tuple(str(n) for n in z["names"]) != FEATURES:
                raise ValueError(f"{path.name}: field 'names' must equal keep_decision.FEATURES (refit the ensemble)")
            return cls(z["feature"].astype(np.int64), z["threshold"].astype(np.float64), z["left"].astype(np.int64),
                       z["right"].astype(np.int64), z["leaf"].astype(bool), z["missing_left"].astype(bool),
                       z["value"].astype(np.float64), z["roots"].astype(np.int64), z["tree_class"].astype(np.int64),
                       z["baseline"].astype(np.float64), float(z["t"][0]), float(z["t"][1]))
