"""Round 47: a redacted contact value of one slot written again with another value (`write/contact_slot.py`)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

import hindsight.write.contact_slot as cs
from hindsight.engine import MemoryEngine
from hindsight.write.conflict import Verdict

KEY = "k1"


def _rec(content: str, *values: tuple[str, str], key: str = KEY) -> SimpleNamespace:
    digests = {"k": key, "v": [list(v) for v in values]} if values else None
    return SimpleNamespace(content=content, value_digests=digests)


KEPT = Verdict("unrelated", "another redacted value (keyed digest; judge: restates the existing memory)")
BLOCKED = Verdict("supplement", "kept and linked, not a restatement: one slot filled differently (副主任 / 换号新)")


@pytest.fixture()
def on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "ON", True)


def test_off_leaves_every_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "ON", False)
    old = _rec("Dr. Rao's after-hours mobile is [REDACTED:phone].", ("phone", "aa"))
    new = _rec("Dr. Rao's after-hours mobile: [REDACTED:phone].", ("phone", "bb"))
    assert cs.rewritten(KEPT, old, new) is KEPT


def test_same_words_but_links_and_a_changed_number_is_a_change(on: None) -> None:
    old = _rec("Dr. Rao's after-hours mobile is [REDACTED:phone].", ("phone", "aa"))
    new = _rec("Dr. Rao's after-hours mobile: [REDACTED:phone].", ("phone", "bb"))
    assert cs.rewritten(KEPT, old, new).label == "override"


def test_zh_same_words_but_links(on: None) -> None:
    old = _rec("安全科值班电话是[REDACTED:phone]。", ("phone", "aa"))
    new = _rec("安全科值班电话：[REDACTED:phone]", ("phone", "bb"))
    assert cs.rewritten(KEPT, old, new).label == "override"


def test_other_words_stay_kept(on: None) -> None:
    old = _rec("Dr. Rao's after-hours mobile is [REDACTED:phone].", ("phone", "aa"))
    new = _rec("Dr. Rao's pager for the ward is [REDACTED:phone].", ("phone", "bb"))
    assert cs.rewritten(KEPT, old, new) is KEPT


def test_equal_values_are_not_a_change(on: None) -> None:
    old = _rec("Dr. Rao's after-hours mobile is [REDACTED:phone].", ("phone", "aa"))
    new = _rec("Dr. Rao's after-hours mobile: [REDACTED:phone].", ("phone", "aa"))
    assert cs.rewritten(KEPT, old, new) is KEPT


def test_digests_under_another_key_are_not_read(on: None) -> None:
    old = _rec("Dr. Rao's after-hours mobile is [REDACTED:phone].", ("phone", "aa"))
    new = _rec("Dr. Rao's after-hours mobile: [REDACTED:phone].", ("phone", "bb"), key="k2")
    assert cs.rewritten(KEPT, old, new) is KEPT


def test_one_slot_blocker_with_a_change_word_is_a_change(on: None) -> None:
    old = _rec("李敏副主任手机 [REDACTED:phone]。", ("phone", "aa"))
    new = _rec("李敏换号了，新手机 [REDACTED:phone]。", ("phone", "bb"))
    assert cs.rewritten(BLOCKED, old, new).label == "override"


def test_one_slot_blocker_without_a_change_word_stays_kept(on: None) -> None:
    old = _rec("李敏副主任手机 [REDACTED:phone]。", ("phone", "aa"))
    new = _rec("李敏办公室座机 [REDACTED:phone]。", ("phone", "bb"))
    assert cs.rewritten(BLOCKED, old, new) is BLOCKED


def test_another_person_blocker_is_left_alone(on: None) -> None:
    other = Verdict("supplement", "kept and linked, not a restatement: another person (弟弟)")
    old = _rec("李敏手机 [REDACTED:phone]。", ("phone", "aa"))
    new = _rec("李敏弟弟换号了，新手机 [REDACTED:phone]。", ("phone", "bb"))
    assert cs.rewritten(other, old, new) is other


def test_without_digests_nothing_moves(on: None) -> None:
    old, new = _rec("Dr. Rao's after-hours mobile is 4417."), _rec("Dr. Rao's after-hours mobile: 4418.")
    assert cs.rewritten(KEPT, old, new) is KEPT


def test_links_only_texts_do_not_match() -> None:
    assert not cs.same_but_links("is [REDACTED:phone]", "[REDACTED:phone]")


def _write(engine: MemoryEngine, old: str, new: str) -> tuple[str, str]:
    a = engine.store_memory({"content": old, "namespace": "c", "type": "semantic"})
    b = engine.store_memory({"content": new, "namespace": "c", "type": "semantic"})
    return b.action, engine.get(a.memory_id, "c", record_access=False).status.value


@pytest.mark.parametrize(("old", "new"), [
    ("The plumber's mobile is 07700 900123.", "The plumber's mobile: 07700 900456."),  # arm A: "is" / ":"
    ("周师傅的手机号是135 6666 2211。", "周师傅换号了，新号138 7777 3322。"),  # arm B: 换号, one slot filled differently
])
def test_engine_supersedes_the_older_number(engine: MemoryEngine, on: None, old: str, new: str) -> None:
    """Through the write path (redaction, digests, the judge, hygiene) with the real embedder; with `ON` False (the
    behaviour before round 47) both older numbers stayed active beside the new one."""
    assert _write(engine, old, new) == ("superseded", "deprecated")


def test_engine_keeps_a_second_number_of_another_kind(engine: MemoryEngine, on: None) -> None:
    action, status = _write(engine, "The plumber's mobile is 07700 900123.",
                            "The plumber's office landline, for invoices only, is 0161 496 0000.")
    assert status == "active" and action != "superseded"


def test_the_shipped_setting_is_on() -> None:
    import importlib

    assert importlib.reload(cs).ON is True
