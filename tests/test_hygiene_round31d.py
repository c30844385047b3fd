"""Hygiene round 31d (issue 10): a plan called off or moved is a change of that plan, told without a change word
the judge knew: "has been shelved", "was axed", 不做了, 不搞了, 搁置了, 撤了 (called off), "moved up to", "brought
forward to", 挪到, 提前到 (moved), the plan's object named on both sides.

Texts written for these tests (not from any evaluation set); each case of `CALLED_OFF` and `MOVED` fails on main
965a157.
"""

from __future__ import annotations

import pytest

from hindsight.write.analysis import analyse
from hindsight.write.end_cues import end_cue, moved_value, thing_ended
from hindsight.write.evidence import change_evidence
from hindsight.write.state_change import completed

#: a plan called off
CALLED_OFF = [
    ("The mobile app redesign is planned for Q2.", "The mobile app redesign has been shelved."),
    ("We plan to open a second bakery stall at the Sunday market.", "The second bakery stall was axed."),
    ("团队计划下个月做 App 的暗黑模式。", "App 的暗黑模式不做了。"),
    ("打算年底办一场客户答谢晚宴。", "客户答谢晚宴不办了，预算不够。"),
]

#: a plan moved to another value of its kind
MOVED = [
    ("The quarterly review is on March 17.", "The quarterly review was moved up to March 3."),
    ("The audit visit is scheduled for 14 May.", "The audit visit was brought forward to 7 May."),
    ("新版官网原定 6 月 15 日上线。", "新版官网提前到 6 月 1 日上线了。"),
    ("家长会定在周五下午 3 点。", "家长会挪到周四下午 4 点。"),
]


@pytest.mark.parametrize(("old", "new"), CALLED_OFF)
def test_a_plan_called_off_is_an_ending_of_it(old: str, new: str) -> None:
    # (shelved / axed are read only as the end of a plan the old text states - `completed` -, not as end cues:
    # measured, r28:224's "has been shelved" retired a neighbour about the project's document)
    assert completed(old, new)
    assert end_cue(old, new) or old.isascii()
    assert change_evidence(old, new, analyse(old, new))


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_a_plan_moved_is_a_value_moved(old: str, new: str) -> None:
    assert moved_value(old, new)


def test_shelved_is_not_read_as_said_of_a_thing() -> None:
    # measured (r28:224): read of the thing, "has been shelved" retired a neighbour about the project's document
    assert thing_ended("Project Kite is in discovery.", "Project Kite has been shelved.") is None


#: the cue, but no move of the old text's value or no new ending
NOT_MOVED = [
    ("The quarterly review is on March 17.", "Priya moved up to team lead."),  # no value of the old kind after it
    ("周会定在周一上午十点。", "跟货代的会推到下周四下午了。"),  # 推到 is not read (measured: r25T41:267)
    ("The mobile app redesign was shelved in May.", "The mobile app redesign has been shelved."),  # said already
]


@pytest.mark.parametrize(("old", "new"), NOT_MOVED)
def test_no_plan_moved_or_ended_without_its_value_or_news(old: str, new: str) -> None:
    assert moved_value(old, new) is None
    assert end_cue(old, new, None) is None or "shelved" not in (end_cue(old, new) or "")
