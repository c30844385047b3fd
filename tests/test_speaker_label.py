"""attack47: the speaker bound's wider label reading (write/speaker_label.py). Through the HTTP server
(bench/attack47_probe.py) six spellings of another person's turn retired the user's fact, and a heading word read as
a speaker vetoed the user's own correction ("Correction: I now use ..."). The heading narrowing ships ON
(`NO_HEADINGS`); the wider labels were measured and are OFF (`WIDE_LABELS`: a held-out row, r2:6, read "用户要求：" as
another speaker) - their tests switch them on."""

from __future__ import annotations

import pytest

from hindsight.write import speaker_bound
from hindsight.write.speaker_label import other_label

FACT, FACT_ZH = "The user now prefers light mode in the editor.", "用户现在喜欢编辑器用浅色主题。"
ALICE = "I switched my editor to dark mode yesterday, light was hurting my eyes"
DODGES = [(FACT, f"Alice said: {ALICE}"), (FACT, f"ALICE: {ALICE}"), (FACT, f"Alice (PM): {ALICE}"),
          (FACT, f"Mary Jane Watson: {ALICE}"), (FACT, f"[Alice] {ALICE}"), (FACT, f"Alice：{ALICE}"),
          (FACT_ZH, "小李：我昨天把编辑器换成深色主题了，浅色太刺眼")]
OWN = [(FACT, "Correction: I now use dark mode in the editor."), (FACT, "Update: I switched to dark mode."),
       ("用户喜欢深色主题。", "更正：我现在用浅色主题了。"), ("用户喜欢深色主题。", "不对：我现在用浅色主题了。"),
       (FACT, "USER: I switched to dark mode."), (FACT, "AI: I switched you to dark mode."),
       ("用户喜欢深色主题。", "用户：我现在用浅色主题了。"), ("用户喜欢深色主题。", "我的想法：我现在用浅色主题了。")]


@pytest.mark.parametrize("old,new", DODGES)
def test_another_persons_turn_is_read_however_it_is_labelled(old: str, new: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert speaker_bound.other_speaker(old, new) == ""  # shipped (WIDE_LABELS off): the dodge stands, reported
    monkeypatch.setattr(speaker_bound, "WIDE_LABELS", True)
    assert speaker_bound.other_speaker(old, new).startswith("another speaker")


@pytest.mark.parametrize("wide", [False, True], ids=["shipped", "wide"])
@pytest.mark.parametrize("old,new", OWN)
def test_a_heading_a_role_or_the_users_own_words_are_no_other_speaker(old: str, new: str, wide: bool,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speaker_bound, "WIDE_LABELS", wide)
    assert speaker_bound.other_speaker(old, new) == ""


def test_the_correct47_reading_read_a_heading_as_a_speaker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speaker_bound, "NO_HEADINGS", False)
    assert speaker_bound.other_speaker(*OWN[0]).startswith("another speaker: Correction")


def test_other_label_names_the_speaker() -> None:
    found = other_label("Mary Jane Watson: I moved")
    assert found is not None and found.group(1) == "Mary Jane Watson"
    assert other_label("Note: I moved") is None and other_label("I moved") is None
    assert other_label("[Alice] I moved", wide=False) is None
