"""change46 (issue 10): a redacted secret of the same slot written again is a newer version of it, whatever the
values (`secret_slot`, switch `ON`). Passwords, keys and codes get no keyed digest (docs/security.md), so two notes
that differ only in a secret read as one text and the judge merges them (blind r40:113, r39:119). Own texts; the
unit tests read the stored (redacted) texts, no embedder; the engine test writes through the real one."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import hindsight.write.secret_slot as secret_slot
from hindsight.engine import MemoryEngine
from hindsight.safety.redact import redact
from hindsight.write.conflict import Verdict

MERGED = Verdict("duplicate", "same normalised text", 0.97)
#: the same slot, the secret written again (EN and ZH; the values are never compared)
AGAIN = [
    ("The lab Wi-Fi password is granite77.", "Lab Wi-Fi password: basalt2025"),
    ("The lab Wi-Fi password is granite77.", "The lab Wi-Fi password is now basalt2025."),
    ("实验室的 Wi-Fi 密码是 granite77。", "实验室 Wi-Fi 密码现在是 Basalt@2025。"),
    ("仓库门禁密码是 lotus8841。", "仓库门禁的密码：orchid5520"),
]


@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secret_slot, "ON", True)
    monkeypatch.setattr(secret_slot, "SIGNAL_ONLY", False)


def _stored(raw: str) -> SimpleNamespace:
    return SimpleNamespace(content=redact(raw).text)


@pytest.mark.parametrize(("old", "new"), AGAIN)
def test_the_texts_carry_a_password_placeholder(old: str, new: str) -> None:
    assert secret_slot.secret_kinds(_stored(old).content) == {"password"}
    assert secret_slot.secret_kinds(_stored(new).content) == {"password"}


@pytest.mark.parametrize(("old", "new"), AGAIN)
def test_a_merged_secret_written_again_is_a_change(on: None, old: str, new: str) -> None:
    verdict = secret_slot.rewritten(MERGED, _stored(old), _stored(new))
    assert verdict.label == "override"
    assert "redacted secret" in verdict.reason


def test_off_leaves_the_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secret_slot, "ON", False)
    old, new = AGAIN[0]
    assert secret_slot.rewritten(MERGED, _stored(old), _stored(new)) is MERGED


@pytest.mark.parametrize(("old", "new"), [
    ("The lab Wi-Fi password is granite77.", "The lab Wi-Fi has no password any more."),  # no secret on one side
    ("Lab door code: 4471 (OTP is 889213).", "Lab Wi-Fi password: basalt2025"),  # other kinds: not one slot
    ("Call the lab on 0755-86223311.", "The lab phone is 0755-86223399."),  # a contact: the keyed digests' job
])
def test_other_pairs_are_left_to_the_judge(on: None, old: str, new: str) -> None:
    assert secret_slot.rewritten(MERGED, _stored(old), _stored(new)) is MERGED


@pytest.mark.parametrize("label", ["supplement", "unrelated", "override"])
def test_only_a_merge_is_read(on: None, label: str) -> None:
    old, new = AGAIN[0]
    verdict = Verdict(label, "kept", 0.5)  # type: ignore[arg-type]
    assert secret_slot.rewritten(verdict, _stored(old), _stored(new)) is verdict


def test_arm_b_wants_a_change_word_or_the_same_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secret_slot, "ON", True)
    monkeypatch.setattr(secret_slot, "SIGNAL_ONLY", True)
    plain = secret_slot.rewritten(MERGED, _stored(AGAIN[0][0]), _stored(AGAIN[0][1]))
    assert plain is MERGED
    told = secret_slot.rewritten(MERGED, _stored(AGAIN[1][0]), _stored(AGAIN[1][1]))
    assert told.label == "override"


def test_the_answer_does_not_depend_on_the_value(on: None) -> None:
    """No oracle: a right and a wrong guess of the stored secret get one verdict."""
    old = _stored("The lab Wi-Fi password is granite77.")
    right = secret_slot.rewritten(MERGED, old, _stored("The lab Wi-Fi password is granite77."))
    wrong = secret_slot.rewritten(MERGED, old, _stored("The lab Wi-Fi password is granite78."))
    assert right.label == wrong.label == "override"


def test_the_shipped_setting_is_arm_b() -> None:
    """Its rule (bench/results/change46/ship_rule.md) held for arm B only: held out changes +2, nothing else moved."""
    import importlib

    mod = importlib.reload(secret_slot)
    assert mod.ON is True and mod.SIGNAL_ONLY is True


def _write(engine: MemoryEngine, old: str, new: str) -> tuple[str, str, str]:
    a = engine.store_memory({"content": old, "namespace": "s", "type": "semantic"})
    b = engine.store_memory({"content": new, "namespace": "s", "type": "semantic"})
    return (b.action, engine.get(a.memory_id, "s", record_access=False).status.value,
            engine.get(b.memory_id, "s", record_access=False).status.value)


@pytest.mark.parametrize(("old", "new"), [
    ("实验室的 Wi-Fi 密码是 granite77。", "实验室 Wi-Fi 密码现在是 Basalt@2025。"),  # a change word (现在)
    ("Lab Wi-Fi password: granite77", "Lab Wi-Fi password: basalt2025"),  # the same words around the secret
])
def test_engine_supersedes_the_older_secret_note(engine: MemoryEngine, old: str, new: str) -> None:
    """Through the write path (redaction, the judge, hygiene) with the real embedder and the shipped setting; on
    main the new note merged into the old one ("duplicate") and the older secret's note stayed the active one."""
    assert _write(engine, old, new) == ("superseded", "deprecated", "active")


def test_engine_still_merges_a_secret_note_worded_otherwise(engine: MemoryEngine) -> None:
    """No change word and other words: a restatement and a change read alike (r40:113's kind); arm B leaves the
    judge's merge (arm A retired a restatement held out, r29:277)."""
    action, old_status, _ = _write(engine, "The lab Wi-Fi password is granite77.", "Lab Wi-Fi password: basalt2025")
    assert (action, old_status) == ("duplicate", "active")
