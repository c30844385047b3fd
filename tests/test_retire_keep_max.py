"""The rules' change that only a change word gives, where the pair model leans to keep (issue 10, round 40b).

A later note about the same subject that uses a change word of its own attribute ("the deliveries were cancelled",
离职) is read as a change by the hand-written rules; the pair model extends those unless it is `pair_model.KEEP_VETO`
sure to keep, so an older note of another attribute was retired at p(keep) 0.2 - 0.6. `judge.RULES_CHANGE_KEEP_MAX`
links such a pair instead; it ships off (measured held out on r16 - r26: 23 kept memories saved for 16 right
retirements lost, docs/benchmarks.md "Currency, round 40b"). Texts written for these tests (none from bench/data).
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import judge
from tests.hygiene_pairs import pair

APART = [
    ("Our backup generator at the depot is a 60 kVA diesel unit; on a full tank it runs the cold room for about nine "
     "hours.",
     "The depot lost power for five hours on 3 May; the generator was fine, but the afternoon deliveries were "
     "cancelled."),
    ("新员工入职第一天由王磊开通企业微信、邮箱和代码仓库账号，生产环境的权限需要部门经理审批，一般两天内批下来。",
     "员工离职当天王磊会停掉所有账号，交接文档要提前放到共享盘。"),
]

CHANGES = [
    ("The team standup is at 9:30 every weekday.", "The team standup moved to 10:00 every weekday."),
    ("刘芳负责华东区的经销商，每个月去一次杭州和苏州，跟经销商对账。",
     "华东区经销商的月度对账改成线上做了，刘芳不用每个月都跑杭州和苏州。"),
]


def test_the_switch_ships_off() -> None:
    assert judge.RULES_CHANGE_KEEP_MAX is None


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-power-cut", "zh-leaving"])
def test_on_a_change_word_of_another_attribute_keeps_the_older_note(engine: MemoryEngine, monkeypatch, old: str,
                                                                     new: str) -> None:
    monkeypatch.setattr(judge, "RULES_CHANGE_KEEP_MAX", 0.2)
    _, status = pair(engine, old, new)
    assert status == Status.active


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-power-cut", "zh-leaving"])
def test_off_the_rules_change_retires_it_as_before(engine: MemoryEngine, old: str, new: str) -> None:
    _, status = pair(engine, old, new)
    assert status == Status.deprecated


@pytest.mark.parametrize(("old", "new"), CHANGES, ids=["en-standup", "zh-reconcile"])
def test_on_a_real_change_still_retires_the_older_one(engine: MemoryEngine, monkeypatch, old: str, new: str) -> None:
    monkeypatch.setattr(judge, "RULES_CHANGE_KEEP_MAX", 0.2)
    _, status = pair(engine, old, new)
    assert status == Status.deprecated
