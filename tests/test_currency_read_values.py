"""Issue 10, currency round 19, read side: a newer hit that gives the older hit's figure another value outdates it
without a change word (`retrieval.currency.SlotRule.values`).

Texts written for these tests (not from any evaluation set). "The loaner fleet for the clinics: 14 wheelchairs in
total." / "Marta got approval to bring the clinics' loaner fleet up to 20 wheelchairs." state one figure of one thing
(wheelchairs) with another value and no word of `CHANGE_CUE`: main kept both current. The same vectors with a figure of
another thing ("24 hours before") or with the older figure kept stay current. Fixed vectors (no model).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from currency_hits import VECTORS
from currency_hits import hit as _hit

import hindsight.retrieval.currency as currency
from hindsight.read_model import SearchHit
from hindsight.retrieval.currency import OUTDATED, mark_outdated


def _search(old: str, new: str) -> dict[str, SearchHit]:
    texts = {"old": old, "new": new, "far": "The clinic's fax number is 555-0100."}

    def embeddings(ids: list[str]) -> dict[str, np.ndarray]:
        return {m: VECTORS[m] for m in ids}

    def neighbours(vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        return sorted(((m, texts[m], float(v @ vector)) for m, v in VECTORS.items()), key=lambda x: -x[2])[:depth]
    # the older hit ranks first, as a stale memory does when it answers the question's words better
    hits = mark_outdated([_hit("old", old, 0), _hit("far", texts["far"], 1), _hit("new", new, 5)], 5, embeddings,
                         neighbours)
    return {h.memory.id: h for h in hits} | {"_first": hits[0]}


NEW_FIGURES = [
    ("The loaner fleet for the clinics: 14 wheelchairs in total, kept in the Elm Street store room.",
     "Marta got approval to bring the clinics' loaner fleet up to 20 wheelchairs for the winter."),
    ("诊所的轮椅借用车队一共 14 台，放在榆树街的仓库。", "玛尔塔批下来了，诊所的轮椅借用车队扩充到 20 台，冬天用。"),
    ("Clinic van rental is 180 dollars per day with the Elm Street depot.",
     "The clinic van rental with the Elm Street depot is 210 dollars per day this season."),
]


@pytest.mark.parametrize(("old", "new"), NEW_FIGURES)
def test_a_new_figure_of_the_same_thing_outdates_the_older_hit(old: str, new: str) -> None:
    """Fails on main: no change word, so the pair was never read (both current, the older one first)."""
    got = _search(old, new)
    assert not got["old"].current and OUTDATED in got["old"].flags and got["old"].why.outdated_by == "new"
    assert got["_first"].memory.id == "new"  # the newer value ranks first


@pytest.mark.parametrize(("old", "new"), [
    # a figure of another thing about the same topic
    ("The loaner fleet for the clinics: 14 wheelchairs in total, kept in the Elm Street store room.",
     "Marta wants the loaner fleet requests for the clinics at least 24 hours before pickup."),
    # the older figure still stated: no value replaced
    ("The loaner fleet for the clinics: 14 wheelchairs in total, kept in the Elm Street store room.",
     "The clinics' loaner fleet of 14 wheelchairs sits beside 3 walkers in the Elm Street store room."),
])
def test_another_figure_or_the_same_one_stays_current(old: str, new: str) -> None:
    got = _search(old, new)
    assert got["old"].current


def test_the_reading_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(currency, "RULE", dataclasses.replace(currency.SlotRule(), values=False))
    assert _search(*NEW_FIGURES[0])["old"].current
