"""Hygiene round 30 (issue 10): changes told by a plan called off, a thing stopped, an order to stop, a moved value.

* `end_cues.CALLED_OFF_EN` / `CALLED_OFF_ZH` (end cues, and end cues said of a thing): "the ... trip is off" (the
  clause ends there), "was cut from", 褪黑素停了 (the clause ends there), 以后别发 ... 了; not
  "off-limits", "off the table", "off sick", 停了三十分钟, 别的, 别忘了, 别弄混了, 就别 ..., nor under a condition
  ("unless the lid is off", "when the heating is off");
* `state_change._MOVED_EN`: "moves to", "is moving to", "upped ... to" with a value of the old text's kind after it.

Texts written for these tests (not from any evaluation set); each change case fails on main 3b97ce4.
"""

from __future__ import annotations

import pytest

from hindsight.write.analysis import analyse
from hindsight.write.end_cues import end_cue
from hindsight.write.evidence import change_evidence, ended_here
from hindsight.write.state_change import state_change

#: a plan or thing called off, stopped, or an order to stop: a change of the old memory
CALLED_OFF = [
    ("Weekend camping trip to the Brecon Beacons, 4-6 October.", "The Brecon Beacons camping trip is off - storm warning."),
    ("The team hackathon is planned for the last Friday of March.", "The hackathon is off; budget went to the launch."),
    ("The spring fun run is planned for 12 April.", "The fun run is off for good - the park refused the permit."),
    ("Checkout v2 includes gift-card payments.", "Gift-card payments were cut from checkout v2."),
    ("每天早上吃一粒鱼油。", "鱼油已经停了，体检指标正常。"),
    ("奶奶每周去社区做两次理疗。", "奶奶的理疗停了。"),
    ("值班表希望发在微信群里。", "值班表以后别发微信群了，直接贴在公告栏。"),
]


@pytest.mark.parametrize(("old", "new"), CALLED_OFF)
def test_a_plan_called_off_or_a_thing_stopped_is_a_change(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new))


@pytest.mark.parametrize(("old", "new"), CALLED_OFF[:6])
def test_the_thing_called_off_anchors_the_change(old: str, new: str) -> None:
    assert ended_here(old, new)


#: the same words, no news of an ending: a limit, a condition, a pause of a given length, "other", a reminder
NOT_CALLED_OFF = [
    ("x", "Cash withdrawals from the petty-cash box are off-limits for interns."),
    ("x", "Shellfish is off the table for Dana."),
    ("x", "Ravi is off sick today."),
    ("x", "Only serve the soup once the lid is off."),
    ("x", "The pump alarm sounds when the heating is off."),
    ("x", "昨晚机房停了二十分钟电。"),
    ("x", "老周调到别的部门去了。"),
    ("x", "周五下午开会，别忘了。"),
    ("x", "两张卡的账单日不一样，别弄混了。"),
    ("x", "感冒了就别去游泳了。"),
]


@pytest.mark.parametrize(("old", "new"), NOT_CALLED_OFF)
def test_the_same_words_without_an_ending_are_no_end_cue(old: str, new: str) -> None:
    assert end_cue(old, new) is None


#: a value moved by "moves to", "is moving to", "upped ... to"
MOVED = [
    ("Choir practice is Wednesdays at 7pm.", "Choir practice moves to Thursdays at 6pm from next month."),
    ("The sprint review is at 2pm on Fridays.", "Sprint review is moving to 11am starting this week."),
    ("Dad takes 50 mg of losartan every morning.", "The GP upped Dad's losartan to 100 mg."),
]


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_a_value_moved_is_a_change(old: str, new: str) -> None:
    assert state_change(old, new)
    assert change_evidence(old, new, analyse(old, new))


def test_moves_to_without_a_value_of_the_old_kind_is_no_change() -> None:
    old, new = "Choir practice is Wednesdays at 7pm.", "The choir's sheet music moves to the shared drive."
    assert state_change(old, new) is None
