"""Hygiene round 31b (issue 10): a state completed or reversed on one subject, told without a change word.

`state_pairs.PAIRS` (read by `state_change.reversed_state`): the old text holds one side of a pair of states, the new
text the other side, the subject shared - a payment still to come -> received (还没到账 / 到账了, "outstanding" /
"paid"), a machine down -> running (跳闸停机 / 恢复运行, "down for repairs" / "back online"), barred from an action ->
cleared to do it again (the same action on both sides), on leave -> back at work, an issue open -> closed, injured ->
fit. Not another thing of the kind ("another nurse", 第 7 / 第 8 张), another action ("can't drive" / "can now swim"),
a side negated, planned or a target ("should be back online by Friday", "hasn't been paid").

Texts written for these tests (not from any evaluation set); each change case fails on main bbd2fcc.
"""

from __future__ import annotations

import pytest

from hindsight.write import state_pairs
from hindsight.write.analysis import analyse
from hindsight.write.evidence import change_evidence
from hindsight.write.state_change import reversed_state, state_change

#: the old state completed or turned round: a change of the old memory
TURNED = [
    ("设计费 3,200 元还没到账。", "那 3,200 元设计费昨天到账了。"),
    ("Invoice #88 to Acme Tools is still outstanding.", "Acme Tools paid invoice #88 on Friday."),
    ("3 号线的空压机跳闸，已经停机。", "3 号线的空压机修好了，已经恢复运行。"),
    ("The office laser printer is down for repairs.", "The office laser printer is back online."),
    ("Mara can't drive after the knee surgery.", "The surgeon cleared Mara to drive again."),
    ("Jonas is on parental leave until March.", "Jonas is back at work as of Monday."),
    ("The warehouse scanner bug is still open.", "The warehouse scanner bug was fixed in build 212."),
    ("Nina is out injured with a calf strain.", "Nina is fully fit and training again."),
    ("还欠装修队 2 万尾款没结。", "装修队的尾款上周结清了。"),
    ("绿洲项目已暂停，等预算。", "绿洲项目重启了，下周一开会。"),
]

#: one side of a pair, but not the old memory's state turning: no reversal
NOT_TURNED = [
    ("Mara can't drive at night.", "Mara can now swim twice a week."),  # another action
    ("实习生不能申请年假。", "实习生可以申请病假，需要证明。"),  # another action (年假 / 病假)
    ("Dana is on sick leave this week.", "Another nurse is back at work on ward 4."),  # another of the kind
    ("第 7 批货款还没到账。", "第 8 批货款已经到账。"),  # numbered apart
    ("The pump is down for repairs.", "The pump should be back online by Friday."),  # still to come
    ("The invoice to Acme Tools is still unpaid.", "The invoice to Acme Tools hasn't been paid yet."),  # negated
    ("The lift is down for repairs.", "The lift was repaired in May and is down again."),  # the first side again
]


@pytest.mark.parametrize(("old", "new"), TURNED)
def test_a_state_completed_or_reversed_is_a_change(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new))
    assert state_change(old, new)


@pytest.mark.parametrize(("old", "new"), NOT_TURNED)
def test_no_reversal_without_the_same_state_of_the_same_thing(old: str, new: str) -> None:
    assert reversed_state(old, new) is None


def test_the_switch_turns_the_reading_off(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = TURNED[3]
    assert reversed_state(old, new)
    monkeypatch.setattr(state_pairs, "REVERSED_STATES", False)
    assert reversed_state(old, new) is None
