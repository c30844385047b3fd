"""Write cost, round 34 (issue 14): the keep decision's ensemble reads one pair's row in plain Python.

The judge asks `keep_decision` about one pair at a time; walking 300 trees with numpy operations on arrays of one row
cost ~70% of a LoCoMo write outside the encoder (docs/benchmarks.md "Write cost, round 34"). One row now walks the
trees node by node (`TreeEnsemble.row_scores`) and adds the leaf values in the same order, in float64: the same bits
as the batch path. Counted calls, never the clock.
"""

from __future__ import annotations

import numpy as np
import pytest

from hindsight.write import keep_decision
from hindsight.write.keep_decision import FEATURES, TreeEnsemble, shipped


def _rows(ensemble: TreeEnsemble, n: int, seed: int = 0) -> np.ndarray:
    """Rows whose values sit on, just beside and away from the ensemble's split points, some missing."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, len(FEATURES))) * 2
    inner = ~ensemble.leaf
    thresholds, features = ensemble.threshold[inner], ensemble.feature[inner]
    for i in range(n):
        pick = rng.integers(len(thresholds), size=40)
        X[i, features[pick]] = thresholds[pick] + rng.choice([0.0, -1e-12, 1e-12, 0.5, -0.5], size=40)
    X[rng.random(X.shape) < 0.02] = np.nan
    return X


def test_one_row_gives_the_bits_of_the_batch_path() -> None:
    ensemble = shipped()
    assert ensemble is not None
    X = _rows(ensemble, 400)
    batch = ensemble.probabilities(np.vstack([X, X[:1]]))  # several rows: tree by tree over all rows
    for i in range(len(X)):
        assert np.array_equal(ensemble.probabilities(X[i]), batch[i : i + 1])


def test_one_row_is_walked_without_numpy_per_node(monkeypatch: pytest.MonkeyPatch) -> None:
    ensemble = shipped()
    assert ensemble is not None
    row = _rows(ensemble, 1, seed=3)[0]
    ensemble.probabilities(row)  # the node lists are read once
    calls = {"where": 0}
    where = np.where

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["where"] += 1
        return where(*args, **kwargs)

    monkeypatch.setattr(keep_decision.np, "where", counted)
    ensemble.probabilities(row)
    assert calls["where"] == 0  # main: one per tree level walked (thousands a pair)


def test_one_row_reads_as_scikit_learn_does() -> None:
    sklearn = pytest.importorskip("sklearn.ensemble")
    rs = np.random.RandomState(1)
    X = rs.randn(300, len(FEATURES))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 1).astype(int)
    fitted = sklearn.HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    X[rs.rand(*X.shape) < 0.05] = np.nan
    ensemble = TreeEnsemble.from_hgb(fitted, 0.5, 0.5)
    expected = fitted.predict_proba(X)
    for i in range(0, len(X), 7):
        assert np.allclose(ensemble.probabilities(X[i]), expected[i : i + 1])


#: two notes of several clauses each (written for this test)
OLD = "The team meets on Tuesdays at ten, and the notes go to Priya after the call."
NEW = "Our weekly sync is Tuesday 10am; afterwards the notes are sent to Priya, unless she is away."
PAIRS = [(OLD, NEW), (NEW, OLD), ("我们每周二上午十点开会，会后把纪要发给小李。", "周二10点的例会改到周三了，纪要还是发小李"),
         ("Mia's cat is named Pepper.", "mia has a cat called pepper, who is 3"), ("", "x"), ("PG 16 on db-2", "PostgreSQL 16, db-2")]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_text_diff_is_the_pairs_content_diff(old: str, new: str) -> None:
    from hindsight.write.analysis import analyse, content_diff, text_diff

    assert text_diff(old, new) == content_diff(analyse(old, new))


def test_one_sided_clauses_are_diffed_without_a_pair_analysis_each() -> None:
    from hindsight.write import one_sided
    from hindsight.write.analysis import analyse

    analyse.cache_clear()
    one_sided.features(OLD, NEW)
    assert analyse.cache_info().misses == 1  # the pair itself; main: one more per clause of either side (6)
