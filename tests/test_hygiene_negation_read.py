"""Hygiene round 25: a negation said the other way round where the values agree (`write.negation_read`) - the value
gate opens on a rule told both ways, and stays shut where the flip says more than wording. Own texts."""

from __future__ import annotations

import pytest

import hindsight.write.value_gate as value_gate
from hindsight.write.negation_read import restated_negation
from hindsight.write.value_gate import gate_reason

#: one rule or fact, its negation words differing in parity: the gate opens
OPEN = [
    ("Need to be at the port by 11am for boarding.", "Boarding: arrive at the port no later than 11:00."),
    ("每月餐饮预算控制在3000元以内。", "每个月吃饭的开销不超过三千块。"),
    ("上传文件大小限制为 20MB。", "单个上传文件不能超过 20 兆。"),
    ("Deploys to prod are blocked on Fridays after 3pm.", "No production releases Friday afternoons from 15:00 on."),
    ("我每天晚上11点前上床睡觉。", "一般不到十一点我就已经躺下了。"),
]

#: the flip says more than wording: the gate stays shut
SHUT = [
    ("报销款 3200 元还没到账。", "那笔 3200 元的报销款昨天到账了。"),                       # not yet -> done
    ("Pickup at the station with Omar at 7pm.", "Omar can't make it, so Lina picks us up at the station at 7pm."),
    ("At lunch on Monday, Priya said she loves oysters.", "At lunch on Monday, Priya said she can't stand olives."),
    ("The pool is open on Sunday.", "The pool is not open on Sunday."),              # one text denies the other
]


@pytest.mark.parametrize(("old", "new"), OPEN)
def test_a_rule_told_both_ways_opens_the_gate(old: str, new: str) -> None:
    assert restated_negation(old, new)
    assert gate_reason(old, new) is None


@pytest.mark.parametrize(("old", "new"), SHUT)
def test_a_flip_that_says_more_stays_shut(old: str, new: str) -> None:
    assert not restated_negation(old, new)
    assert gate_reason(old, new) is not None


def test_the_switch_restores_round_22s_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = OPEN[2]
    monkeypatch.setattr(value_gate, "NEGATION_READ", False)
    gate_reason.cache_clear()
    try:
        assert gate_reason(old, new) == "negation or antonym"
    finally:
        monkeypatch.undo()
        gate_reason.cache_clear()
