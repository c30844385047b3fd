"""The pair read the other way round is computed only where it can change the keep decision (issue 14, write cost
round 37: `keep_decision.BACK_WHERE_IT_COUNTS`).

`keep_decision.decide` read `both_ways.back_merge_p` (a second pair-model row of the pair, ~20% of a LoCoMo write
outside the encoder) for every pair the judge keeps. Its value enters the ensemble's row in two columns (`p_back`,
`p_both`); where the ensemble, those two columns left free, cannot reach an operating point, every value of it gives
the same None, so it is skipped. Nothing is kept between calls: the switches and operating points are read at each
call. Counted calls, never the clock.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from hindsight.write import keep_decision
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.judge import classify
from hindsight.write.keep_decision import FEATURES, TreeEnsemble, decision_features, shipped, with_back
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_model import shipped_model

ROOT = Path(__file__).resolve().parent.parent
BACK, BOTH, MERGE = FEATURES.index("p_back"), FEATURES.index("p_both"), FEATURES.index("p_merge")
#: Kept pairs the ensemble keeps whatever the pair read back says (two turns of one talk, one note and another).
UNRELATED = [
    ("Caroline went to the LGBTQ support group yesterday.", "Melanie painted a lake sunrise last year."),
    ("The staging database runs PostgreSQL 14.", "The team lunch moved to the Thai place on Fifth."),
    ("用户每天早上七点跑步。", "用户的女儿下个月上小学。"),
]


def _ensemble() -> TreeEnsemble:
    ensemble = shipped()
    assert ensemble is not None
    return ensemble


def _rows(name: str, limit: int) -> list[dict[str, object]]:
    path = ROOT / "bench" / "data" / "blind" / name / "hygiene" / "set.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:limit]]


def _pairs(name: str, limit: int) -> list[tuple[str, str]]:
    pairs = []
    for row in _rows(name, limit):
        old, new = str(row["existing"]), str(row["new"])
        others = row.get("others") or []
        pairs += [(old, new), (new, old)] + ([(str(others[0]), new)] if others else [])  # type: ignore[index]
    return pairs


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    real = keep_decision.back_merge_p

    def counted(model, old, new, similarity, query_similarity):  # type: ignore[no-untyped-def]
        seen.append((old, new))
        return real(model, old, new, similarity, query_similarity)

    monkeypatch.setattr(keep_decision, "back_merge_p", counted)
    return seen


def test_the_bounds_hold_for_every_value_the_two_columns_take() -> None:
    """For rows of every kind (values on, beside and away from split points, some missing), the raw class scores
    of the row with any `p_back` (two decimals) lie within `score_bounds` of the row with the columns free."""
    ensemble = _ensemble()
    rng = np.random.default_rng(37)
    inner = ~ensemble.leaf
    thresholds, features = ensemble.threshold[inner], ensemble.feature[inner]
    checked = 0
    for _ in range(30):
        x = rng.normal(size=len(FEATURES)) * 2
        pick = rng.integers(len(thresholds), size=60)
        x[features[pick]] = thresholds[pick] + rng.choice([0.0, -1e-12, 1e-12, 0.3, -0.3], size=60)
        x[rng.random(x.shape) < 0.02] = np.nan
        x[MERGE] = round(float(rng.random()), 2)
        low, high = ensemble.score_bounds(x, {BACK: (0.0, 1.0), BOTH: (0.0, float(x[MERGE]))})
        for pb in np.linspace(0.0, 1.0, 101):
            scores = ensemble.row_scores(with_back(x, float(pb)))
            assert all(lo <= s <= hi for lo, s, hi in zip(low, scores, high, strict=True))
            checked += 1
    assert checked == 30 * 101


def test_a_row_with_the_pair_read_back_is_the_row_built_with_it() -> None:
    model = shipped_model()
    assert model is not None
    old, new = "The staging database runs PostgreSQL 14.", "The staging database now runs PostgreSQL 16."
    row = pair_features(old, new, 0.93, 0.93)
    p = model.probabilities(row)[0]
    rules = Verdict("supplement", f"{SHARES_SUBJECT} (cosine 0.930)")
    for p_back in (0.0, 0.004, 0.005, 0.31, 0.5049, 0.9999, 1.0):
        built = decision_features(old, new, row, rules, p, p_back)
        filled = with_back(decision_features(old, new, row, rules, p, 0.0), p_back)
        assert built.tobytes() == filled.tobytes()


@pytest.mark.parametrize(("old", "new"), UNRELATED)
def test_a_pair_the_ensemble_keeps_whatever_is_not_read_back(old: str, new: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge keeps the pair and so does the decision; on main the pair was read back once all the same."""
    seen = _counting(monkeypatch)
    verdict = classify(old, new, 0.93, query_similarity=0.93)
    assert verdict.label in ("supplement", "unrelated")
    assert seen == []
    monkeypatch.setattr(keep_decision, "BACK_WHERE_IT_COUNTS", False)  # the switch off: read as before
    assert tuple(classify(old, new, 0.93, query_similarity=0.93)) == tuple(verdict)
    assert len(seen) == 1


def test_a_switch_or_operating_point_turned_between_two_calls_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound reads `SLOT_CHANGES`, `SLOT_T`, `CHANGES` and the ensemble's operating points at each call: with
    any of them opened the same pair is read back again (for the slot side whatever the rules' keep: a bound that
    never reads which keeps `slot_change` accepts cannot fall behind them)."""
    old, new = UNRELATED[1]
    model = shipped_model()
    assert model is not None
    row = pair_features(old, new, 0.93, 0.93)
    p = model.probabilities(row)[0]
    shares = Verdict("supplement", f"{SHARES_SUBJECT} (cosine 0.930)")
    seen = _counting(monkeypatch)

    def ask(rules: Verdict = shares) -> Verdict | None:
        return keep_decision.decide(model, (old, new), old, new, row, rules, p, 0.93, 0.93)

    assert ask() is None and seen == []
    monkeypatch.setattr(keep_decision, "SLOT_CHANGES", True)
    monkeypatch.setattr(keep_decision, "SLOT_T", 0.0)
    ask()
    assert len(seen) == 1  # a slot change is possible at SLOT_T 0
    ask(Verdict("supplement", "kept and linked, not a restatement: one slot ... (cosine 0.930)"))
    assert len(seen) == 2  # whatever keep of the rules the slot side reads (hyg37's `SLOT_BLOCKERS`)
    monkeypatch.setattr(keep_decision, "SLOT_CHANGES", False)
    monkeypatch.setattr(keep_decision, "CHANGES", True)
    monkeypatch.setattr(keep_decision, "shipped", lambda: dataclasses.replace(_ensemble(), t_change=0.0))
    ask()
    assert len(seen) == 3  # a change is possible at t_change 0
    monkeypatch.setattr(keep_decision, "CHANGES", False)
    monkeypatch.setattr(keep_decision, "shipped", lambda: dataclasses.replace(_ensemble(), t_merge=0.0))
    verdict = ask()
    assert len(seen) == 4 and verdict is not None and verdict.label == "duplicate"  # a merge at t_merge 0


@pytest.mark.parametrize("name", ["r34", "r35"])
def test_the_judge_answers_as_it_did_reading_every_pair_back(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the first rows of a released blind hygiene set, both ways round and with an `other`, every verdict with
    the skip equals the verdict with every kept pair read back, and some pairs were not read back."""
    pairs = _pairs(name, 30)
    seen = _counting(monkeypatch)
    skipping = [tuple(classify(old, new, 0.92, query_similarity=0.92)) for old, new in pairs]
    read_with_skip = len(seen)
    monkeypatch.setattr(keep_decision, "BACK_WHERE_IT_COUNTS", False)
    every = [tuple(classify(old, new, 0.92, query_similarity=0.92)) for old, new in pairs]
    assert skipping == every
    assert read_with_skip < len(seen) - read_with_skip
