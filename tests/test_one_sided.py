"""One-sided content read both ways (`write.one_sided`, hygiene round 33, issue 10): lexical, no model.

Texts written for these tests (not from any evaluation set).
"""

from __future__ import annotations

import numpy as np
import pytest

from hindsight.write.one_sided import FEATURES, features


def _read(old: str, new: str) -> dict[str, float]:
    row = features(old, new)
    assert row.shape == (len(FEATURES),) and np.isfinite(row).all()
    return dict(zip(FEATURES, row.tolist(), strict=True))


def test_a_second_number_on_one_side() -> None:
    got = _read("The staging cluster has 3 nodes.", "The staging cluster has 3 nodes and the test cluster has 5.")
    assert got["os_new_number"] >= 1 and got["os_old_number"] == 0
    assert got["os_new_clauses_alone"] >= 0 and got["os_new_share"] > got["os_old_share"]


def test_another_person_on_one_side() -> None:
    got = _read("Priya is allergic to peanuts.", "Priya's brother is allergic to peanuts.")
    assert got["os_new_person"] == 1 and got["os_person_apart"] == 1 and got["os_person_one_side"] == 1


def test_a_different_day_on_each_side() -> None:
    got = _read("Team sync is on Monday mornings.", "Team retro is on Friday afternoons.")
    assert got["os_swap_date"] == 1 and got["os_both_sides"] == 1


def test_an_extra_condition_on_one_side() -> None:
    got = _read("Guests may use the pool.", "Guests may use the pool only if an adult is present.")
    assert got["os_new_condition"] >= 1 and got["os_old_condition"] == 0


def test_two_numbered_things() -> None:
    assert _read("Ticket #41 is assigned to Dana.", "Ticket #42 is assigned to Dana.")["os_labelled_apart"] == 1


@pytest.mark.parametrize(("old", "new"), [
    ("Interns may not push directly to the main branch.",
     "Direct pushes to the main branch are off-limits for interns."),
    ("访客进实验室之前必须先签安全须知。", "访客必须先签安全须知，才能进实验室。"),
], ids=["en", "zh"])
def test_a_restatement_carries_no_value_person_or_day_of_its_own(old: str, new: str) -> None:
    got = _read(old, new)
    for kind in ("number", "name", "date", "person"):
        assert got[f"os_old_{kind}"] == 0 and got[f"os_new_{kind}"] == 0, kind
    assert got["os_person_apart"] == 0 and got["os_labelled_apart"] == 0


def test_the_same_text_has_nothing_one_sided() -> None:
    got = _read("诺拉每周二上游泳课。", "诺拉每周二上游泳课。")
    assert got["os_old_share"] == got["os_new_share"] == 0 and got["os_both_sides"] == 0


def test_empty_content_reads_zero() -> None:
    assert not features("", "").any()
