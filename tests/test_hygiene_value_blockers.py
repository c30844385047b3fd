"""Hygiene round 19: the value merge blockers ("amounts differ", "numbers differ") lift only on positive evidence -
both sides state the same values once `value_forms` reads them (`write.value_read`)."""
from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.write import value_read
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import merge_blocker

#: Released restatements (round: index) main kept on "amounts differ" / "numbers differ"; merged on the branch.
LIFTED = [
    ("Emergency fund target is six months of expenses, about $24,000.",
     "Aim to keep roughly $24k — half a year of spending — in the rainy-day account."),  # r8T1:225
    ("Piano lessons are on Wednesdays at 4:30pm.", "Wed afternoons, 16:30 — piano."),  # r9:253
    ("Vendor contact for espresso machine repair: Joe at BeanTech, ext. 204.",
     "Espresso machine service → BeanTech, ask for Joe, extension two-oh-four."),  # r4:128
    ("生产环境的发布只能在工作日上午10点到下午4点之间。", "线上发版窗口：周一到周五，10:00至16:00，其他时间不允许。"),  # r8:257
]
#: Values that differ, or that one side states only before the reading: the block stays.
KEPT = [
    ("Redis cache TTL is set to 300 seconds.", "Redis connection timeout is set to 300 milliseconds."),  # r1:83
    ("Piano lessons are on Wednesdays at 4:30pm.", "Thu afternoons, 16:30 — piano."),
    ("Emergency fund target is six months of expenses, about $24,000.",
     "Aim to keep roughly $24k — a full year of spending — in the rainy-day account."),
    ("周五下午 3 点放学。", "学校要求学生周一到周五必须穿校服。"),  # r10T1:161: the weekday list leaves no value
    ("Vendor contact for espresso machine repair: Joe at BeanTech, ext. 204.",
     "Espresso machine service → BeanTech, ask for Joe, extension two-oh-five."),
]


def _blocker(old: str, new: str) -> str | None:
    o, n = written_alike(old, new)
    return merge_blocker(analyse(o, n), None, o, n)


def _value_block(blocker: str | None) -> bool:
    return (blocker or "").startswith(("amounts differ", "numbers differ"))


@pytest.mark.parametrize(("old", "new"), LIFTED, ids=["half-a-year", "wed-16-30", "spelled-extension", "zh-workweek"])
def test_the_same_values_in_other_forms_lift_the_value_blocker(old: str, new: str) -> None:
    assert not _value_block(_blocker(old, new))  # main: "amounts differ (...)"


@pytest.mark.parametrize(("old", "new"), KEPT, ids=["seconds-ms", "other-day", "other-span", "values-vanish",
                                                     "other-extension"])
def test_values_that_differ_keep_the_block(old: str, new: str) -> None:
    assert _value_block(_blocker(old, new))


def test_switched_off_nothing_is_lifted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(value_read, "LIFTS", frozenset())
    value_read.amounts_read_alike.cache_clear()
    value_read.numbers_read_alike.cache_clear()
    try:
        assert _value_block(_blocker(*LIFTED[0]))
    finally:
        value_read.amounts_read_alike.cache_clear()
        value_read.numbers_read_alike.cache_clear()


@pytest.mark.parametrize(("old", "new"), LIFTED[:2], ids=["half-a-year", "wed-16-30"])
def test_through_the_engine_the_restatement_is_merged(engine: MemoryEngine, old: str, new: str) -> None:
    a = engine.store_memory({"content": old})
    b = engine.store_memory({"content": new})
    assert b.action == "duplicate" and b.memory_id == a.memory_id  # main keeps both


def test_through_the_engine_another_amount_stays_apart(engine: MemoryEngine) -> None:
    a = engine.store_memory({"content": KEPT[0][0]})
    b = engine.store_memory({"content": KEPT[0][1]})
    assert b.memory_id != a.memory_id and b.action != "duplicate"
