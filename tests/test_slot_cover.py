"""Every content slot of each side covered by the other, token by token (`write.slot_cover`, round 46; off)."""

from __future__ import annotations

import numpy as np
import pytest
from test_token_align import _side  # unit-norm states of given pieces, weight 1 each

from hindsight.write import judge, slot_cover
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.slot_cover import _coverage


def test_a_reworded_side_is_covered_both_ways() -> None:
    old = _side(["▁grandma", "▁house", "."], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    new = _side(["▁granny", "'s", "▁home"], [[0.95, 0.05, 0], [0.9, 0.1, 0], [0.05, 0.95, 0]])
    weakest, swaps = _coverage(old, new)
    assert weakest >= slot_cover.COVER and swaps == 0


def test_an_added_slot_is_not_covered() -> None:
    old = _side(["▁grandma", "▁house"], [[1, 0, 0], [0, 1, 0]])
    new = _side(["▁grandma", "▁house", "▁tuesday"], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert _coverage(old, new)[0] < slot_cover.COVER
    assert _coverage(new, old)[0] < slot_cover.COVER  # lost either way round: mutual


def test_an_aligned_value_of_another_surface_is_a_swap() -> None:
    old = _side(["▁Leo", "▁peanut"], [[1, 0], [0, 1]])
    new = _side(["▁Sam", "▁peanut"], [[0.99, 0.1], [0, 1]])
    assert _coverage(old, new)[1] == 1


def test_empty_sides_cover_nothing() -> None:
    assert _coverage(([], np.zeros((0, 2)), np.zeros(0)), _side(["▁a"], [[1, 0]])) == (0.0, 0)


def test_real_states_keep_another_person_and_another_number_apart() -> None:
    assert slot_cover.covered("Mira is allergic to shellfish.", "Tomas is allergic to shellfish.") is None
    assert slot_cover.covered("The backup runs at 02:00.", "The backup runs at 03:00.") is None


def test_the_judge_merges_a_covered_pair_only_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = Verdict("supplement", f"{SHARES_SUBJECT} (x)")
    monkeypatch.setattr(judge, "classify_rules", lambda *a, **k: kept)
    monkeypatch.setattr(slot_cover, "covered", lambda old, new: 0.9)
    old, new = "Mira spends the autumn festival at her grandma's.", "Mira spends the autumn festival at granny's."
    off = judge.classify(old, new, 0.93, query_similarity=0.9)
    monkeypatch.setattr(slot_cover, "ON", True)
    on = judge.classify(old, new, 0.93, query_similarity=0.9)
    assert on.label == "duplicate" and "every slot covered" in on.reason
    assert off.label != "duplicate" or "every slot covered" not in off.reason


@pytest.mark.parametrize(("blocker", "lifted"), [("one slot filled differently (开 / 谈)", True),
                                                 ("several slots filled differently (a / b; c / d)", True),
                                                 ("another person (儿子, 女儿)", False),
                                                 ("one side negates the other", False),
                                                 ("words of each side missing from the other (宝 / 行云)", False)])
def test_v2_lifts_only_the_wording_blockers(monkeypatch: pytest.MonkeyPatch, blocker: str, lifted: bool) -> None:
    monkeypatch.setattr(slot_cover, "coverage", lambda old, new: (0.9, 0))
    monkeypatch.setattr(slot_cover, "merge_blocker", lambda *a, **k: blocker)
    assert slot_cover.covered("甲", "乙") is None  # v1: every blocker keeps the pair
    monkeypatch.setattr(slot_cover, "LIFT_WORDING", True)
    assert (slot_cover.covered("甲", "乙") is not None) is lifted
