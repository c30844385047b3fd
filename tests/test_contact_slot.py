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


RAO, RAO2 = "Dr. Rao's after-hours mobile is [REDACTED:phone].", "Dr. Rao's after-hours mobile: [REDACTED:phone]."
LI, LI_NEW = "李敏副主任手机 [REDACTED:phone]。", "李敏换号了，新手机 [REDACTED:phone]。"


@pytest.mark.parametrize(("verdict", "old", "new", "new_digest", "key"), [
    (KEPT, RAO, RAO2, "bb", KEY),  # arm A: the same words but "is" / ":"
    (KEPT, "安全科值班电话是[REDACTED:phone]。", "安全科值班电话：[REDACTED:phone]", "bb", KEY),  # arm A, ZH
    (BLOCKED, LI, LI_NEW, "bb", KEY),  # arm B: one slot filled differently and 换号
])
def test_a_changed_number_of_one_slot_is_a_change(on: None, verdict: Verdict, old: str, new: str, new_digest: str,
                                                  key: str) -> None:
    result = cs.rewritten(verdict, _rec(old, ("phone", "aa")), _rec(new, ("phone", new_digest), key=key))
    assert result.label == "override"


@pytest.mark.parametrize(("verdict", "old", "new", "new_digest", "key"), [
    (KEPT, RAO, "Dr. Rao's pager for the ward is [REDACTED:phone].", "bb", KEY),  # other words
    (KEPT, RAO, RAO2, "aa", KEY),  # the same value
    (KEPT, RAO, RAO2, "bb", "k2"),  # digests under another key
    (BLOCKED, LI, "李敏办公室座机 [REDACTED:phone]。", "bb", KEY),  # the blocker and no change word
])
def test_other_pairs_stay_kept(on: None, verdict: Verdict, old: str, new: str, new_digest: str, key: str) -> None:
    assert cs.rewritten(verdict, _rec(old, ("phone", "aa")), _rec(new, ("phone", new_digest), key=key)) is verdict


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
