"""Write cost round 38 (issue 14): `slot_change.overrides` may ask its refusals before the tiers that read the most
(`REFUSALS_FIRST`, measured and OFF).

A kept nearest neighbour that is closer to another memory (or a dated episode not replanned) is never retired, whatever
a tier reads; on LoCoMo turns 367 of 378 such pairs were, and the value tier alone read ~1.6 ms a pair. The answer must
be the one of the tiers-first order (`REFUSALS_FIRST` False), the older memory's nearest other cosine looked up once at
most. Texts written for this file, EN and ZH.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write import slot_change
from hindsight.write.slot_change import overrides

PAIRS = [
    ("Visitor parking at the Birch Lane lot is $180 per quarter.", "Visitor parking at the Birch Lane lot is $215 per quarter."),
    ("Piano lessons are at 4pm.", "Piano lessons move to 5:15pm starting next month."),
    ("Preferred courier: DHL", "Preferred courier: FedEx"),
    ("The team offsite is booked for May 3.", "The team offsite moved to May 17."),
    ("Our staging cluster runs Postgres 14.", "We switched the staging cluster to Postgres 16."),
    ("The reading group meets on Thursdays.", "The reading group also does a book swap every spring."),
    ("车库月租是每月 400 元。", "车库月租从下个月起涨到每月 460 元。"),
    ("常用快递是顺丰。", "常用快递是京东。"),
    ("周会定在上午十点。", "周会改到下午两点了。"),
    ("I went hiking with my sister yesterday.", "My sister and I are planning a trip to the coast."),
]
COSINES = [0.80, 0.86, 0.90, 0.93, 0.96]
NEAREST = [0.0, 0.84, 0.92, 0.99]
DATED = datetime(2026, 3, 14, tzinfo=UTC)


def _records(old: str, new: str, episodic: bool) -> tuple[MemoryRecord, MemoryRecord]:
    kind = MemoryType.episodic if episodic else MemoryType.semantic
    return (MemoryRecord(content=f"On March 14: {old}" if episodic else old, type=kind),
            MemoryRecord(content=new, type=kind, created_at=DATED))


def _answers(monkeypatch: pytest.MonkeyPatch, first: bool) -> tuple[list[str], int]:
    monkeypatch.setattr(slot_change, "REFUSALS_FIRST", first)
    out, asked = [], 0
    for old, new in PAIRS:
        for episodic in (False, True):
            older, newer = _records(old, new, episodic)
            for cosine in COSINES:
                for nearest in NEAREST:
                    calls: list[float] = []

                    def lookup(value: float = nearest, calls: list[float] = calls) -> float:
                        calls.append(value)
                        return value

                    out.append(overrides(older, newer, cosine, lookup))
                    assert len(calls) <= 1  # the vector lookup: once at most
                    asked += len(calls)
    return out, asked


def test_the_answer_is_the_tiers_first_order(monkeypatch: pytest.MonkeyPatch) -> None:
    after, _ = _answers(monkeypatch, True)
    before, _ = _answers(monkeypatch, False)
    assert after == before
    assert 0 < sum(bool(why) for why in after) < len(after)  # changes read and refused alike


def test_a_neighbour_closer_to_another_memory_reads_no_value_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the switch on (OFF as shipped); failed on main: the value tier read the pair (1 call) before the lookup
    refused it."""
    monkeypatch.setattr(slot_change, "REFUSALS_FIRST", True)
    read: list[tuple[str, str]] = []
    original = slot_change.value_change

    def counted(old: str, new: str) -> str | None:
        read.append((old, new))
        return original(old, new)

    monkeypatch.setattr(slot_change, "value_change", counted)
    old, new = (MemoryRecord(content=text) for text in PAIRS[0])
    assert overrides(old, new, 0.96, lambda: 0.99) == ""
    assert read == []
    assert "a new value of the same attribute" in overrides(old, new, 0.96, lambda: 0.80)
    assert len(read) == 1
