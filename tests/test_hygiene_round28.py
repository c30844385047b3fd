"""Hygiene round 28 (issue 10): changes the engine's existing readings did not reach.

* `evidence.ended_here` reads the end cues said of a thing ("the ... is cancelled", "has been decommissioned", 取消,
  停用: `end_cues.thing_ended`) as it reads the ending family: what was ended, named by the old text, anchors the
  change even where the old text opens with words the new one does not repeat; not a schedule ("closed Mondays",
  11 点以后关闭) nor one of two numbered things ("Stage 1" / "Stage 2");
* a value moved by 砍到 / 减到 (the Chinese of "cut to", which `end_cues._MOVED` has) and "put X's Y up to" (an
  owner's apostrophe inside the stretch);
* the switch cue 搬来 (beside 搬到 / 搬去).

Texts written for these tests (not from any evaluation set); each change case fails on main 161c3d9.
"""

from __future__ import annotations

import pytest

from hindsight.write.analysis import analyse
from hindsight.write.evidence import change_evidence, ended_here

#: an end cue said of the thing the old memory names
ENDED = [
    ("Allotment society seed swap: 300 packets on the village green.", "Rain forecast all weekend, so the village green seed swap is cancelled."),
    ("Staging mirror: mirror2.lab.example.net on 10.1.4.7.", "The staging mirror has been decommissioned; nothing points at it now."),
    ("社区每周四晚上七点在活动中心放电影。", "活动中心放电影取消了，场地要装修。"),
    ("食堂二楼的自助咖啡机放在窗边。", "自助咖啡机已经停用，等厂家来换新的。"),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_an_end_cue_said_of_the_named_thing_anchors_the_change(old: str, new: str) -> None:
    assert ended_here(old, new)
    assert change_evidence(old, new, analyse(old, new))


#: an end cue said of something the old memory does not name, a rule, or a person's ending: no anchor
NOT_ENDED_HERE = [
    ("Allotment society seed swap: 300 packets on the village green.", "The pub quiz on Friday is cancelled."),
    ("社区每周四晚上七点在活动中心放电影。", "周末的羽毛球课取消了。"),
    ("The library opens at 9 on weekdays.", "Overdue reminders must be cancelled when a book is returned."),
    ("Dr Lee's physio clinic is on Elm Street.", "Dr Lee retired last month."),  # a person's ending, not a thing's
    ("The corner bakery sells sourdough on Fridays.", "The corner bakery is closed Mondays."),  # a schedule
    ("小区北门早上六点开。", "小区北门晚上 11 点以后关闭。"),  # a schedule
    ("Stage 1 of the garden rebuild finished in May.", "Stage 2 is cancelled - the grant fell through."),  # numbered
]


@pytest.mark.parametrize(("old", "new"), NOT_ENDED_HERE)
def test_an_end_cue_of_another_thing_is_no_anchor(old: str, new: str) -> None:
    assert not ended_here(old, new)


#: a value moved by a verb the cue lists lacked, or said with an owner in the stretch
MOVED = [
    ("Nan takes 25 mg of sertraline at night.", "The GP has put Nan's sertraline up to 50 mg."),
    ("社区团购订了 60 箱橙子。", "团购那边把订单砍到 40 箱了。"),
    ("老人院每月探视名额 12 个。", "老人院把探视名额减到 8 个了。"),
]


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_a_moved_value_is_evidence(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new))


#: a new place said with 搬来
SWITCHED = [
    ("外婆住在安庆。", "外婆前阵子搬来南京了，住我们楼下。"),
]


@pytest.mark.parametrize(("old", "new"), SWITCHED)
def test_a_new_place_is_evidence(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new))


#: the same verbs with no value of the old text's kind after them, or a new thing beside the old one
KEPT = [
    ("社区团购订了 60 箱橙子。", "团购群把广告都砍到最少了。"),
    ("老周是业委会主任。", "业委会的新办公室是三号楼一楼。"),
    ("Harbour ferry: 40 crossings a day.", "The other ferry company cut its staff."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_no_change_without_the_old_value_or_holder(old: str, new: str) -> None:
    assert not change_evidence(old, new, analyse(old, new))
