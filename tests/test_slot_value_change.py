"""Hygiene round 36: inside the rules' "shares the subject, adds or changes" keep, a new value of the same slot is
told from an addition (a second entity, attribute, document, child or account), EN and ZH (`write.slot_value_change`);
the keep decision reads a change there only with that reading (`keep_decision.SLOT_CHANGES`)."""
from __future__ import annotations

import numpy as np
import pytest

from hindsight.write import keep_decision
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.slot_value_change import addition, same_slot_change, value_swapped

CHANGES = [
    ("The team standup is at 9:30 every morning.", "The standup moved from 9:30 to 10:00 starting next week."),
    ("Our office router is a Netgear Nighthawk.", "Swapped the Netgear for an Eero mesh; the old router is gone."),
    ("Check-out at the lodge is noon.", "Check-out at the lodge is 10:30."),
    ("Helen takes 5 mg of amlodipine every morning.", "Helen's doctor took her off amlodipine last month."),
    ("团队站会每天早上九点半开。", "站会改到十点了，从下周一开始。"),
    ("我爸住在城西的老房子里。", "我爸已经搬到我们小区来住了，老房子租出去了。"),
    ("仓库管理员是老孙。", "仓库管理员是小何。"),
    ("王阿姨的手机号是 139 5550 0123。", "王阿姨换号了，新号 139 5550 8870，旧的停机了。"),
]

ADDITIONS = [
    ("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs, so no omelettes for him."),
    ("Priya's passport expires in March 2027.", "Priya's visa for Japan expires in June now that it was renewed."),
    ("Our account rep at Brightline is Carla Mendes.", "Brightline also gave us a second contact, Omar, for customs."),
    ("The front end of the portal is built with React.", "The back end of the portal now runs on Go."),
    ("大宝吃面喜欢加醋。", "二宝现在吃面不能放葱。"),
    ("老张的手机是 555-0140。", "老张办公室座机 555-0141，上班时间打座机更容易找到他。"),
    ("林伯家那棵黑松有六十多年了。", "林伯最近又收了一棵五针松，还在养坯。"),
    ("陈医生在村里开兽医站快二十年了。", "陈医生的儿子也学了兽医，现在在县畜牧局上班。"),
    ("港澳通行证还剩两次签注。", "台湾通行证已经过期了。"),
    ("Ana's Irish passport is valid until 2031.", "Ana's British passport has now expired."),
    # another attribute of the same subject: only the subject is kept (v3)
    ("新房预算二十万。", "新房进度：水电已经做完了。"),
    ("The book club meets for two hours at most.", "Book club moved to Thursdays from now on."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_new_value_of_the_same_slot_is_read(old: str, new: str) -> None:
    assert same_slot_change(old, new) is not None


@pytest.mark.parametrize(("old", "new"), ADDITIONS)
def test_an_addition_keeps_both(old: str, new: str) -> None:
    assert same_slot_change(old, new) is None


def test_the_addition_names_why() -> None:
    assert addition("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs.") == \
        "another of one kind (daughter / son)"
    assert addition("团队站会每天早上九点半开。", "站会改到十点了。") is None


def test_the_value_after_the_attribute_is_the_slot() -> None:
    assert value_swapped("Check-out at the lodge is noon.", "Check-out at the lodge is 10:30.") == ("noon", "10 : 30")
    assert value_swapped("仓库管理员是老孙。", "仓库管理员是小何。") == ("老孙", "小何")
    # the subject swapped, the value kept: another person's fact, not a new value
    assert value_swapped("Anna's seat is 14C.", "Ben's seat is 14C.") is None
    assert value_swapped("The seat is 14C.", "The seat is 14C, an aisle.") is None  # an addition, not a swap


class _Ensemble:
    def __init__(self, p_change: float) -> None:
        self.q = np.asarray([1.0 - p_change, 0.0, p_change])

    def decide(self, row: np.ndarray, changes: bool = True) -> tuple[str, np.ndarray]:
        return "keep", self.q


@pytest.fixture()
def stub_decision(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(keep_decision, "back_merge_p", lambda *a, **k: 0.0)
    monkeypatch.setattr(keep_decision, "decision_features", lambda *a, **k: np.zeros(3))
    monkeypatch.setattr(keep_decision, "ON", True)

    def run(old: str, new: str, reason: str, p_change: float, on: bool) -> Verdict | None:
        monkeypatch.setattr(keep_decision, "shipped", lambda: _Ensemble(p_change))
        monkeypatch.setattr(keep_decision, "SLOT_CHANGES", on)
        rules = Verdict("supplement", reason)
        return keep_decision.decide(None, (old, new), old, new, np.zeros(3), rules,  # type: ignore[arg-type]
                                    np.asarray([0.5, 0.2, 0.3]), 0.9, None)
    return run


def test_the_keep_decision_reads_the_slot_change_only_inside_that_keep(stub_decision) -> None:  # type: ignore[no-untyped-def]
    old, new = "团队站会每天早上九点半开。", "站会改到十点了，从下周一开始。"
    shares = f"{SHARES_SUBJECT} (10) (cosine 0.910)"
    assert stub_decision(old, new, shares, 0.995, on=False) is None  # off: main's keep stands
    verdict = stub_decision(old, new, shares, 0.995, on=True)
    assert verdict is not None and verdict.label == "override" and "same slot" in verdict.reason
    assert stub_decision(old, new, shares, keep_decision.SLOT_T - 0.01, on=True) is None  # the model not sure enough
    assert stub_decision(old, new, "adds detail (10) (cosine 0.910)", 0.995, on=True) is None  # another keep
    sister = ("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs now.")
    assert stub_decision(*sister, shares, 0.999, on=True) is None  # an addition: both kept
