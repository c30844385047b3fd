"""Round 40 (issue 10): the classifier's narrowed ``loosen`` reading - an everyday adverb alone is no loosening.

Own examples (not from the blind sets): EN and ZH, adverbs in ordinary notes, adverbs acting on a safeguard, and the
loosening verbs that need no object.
"""

from __future__ import annotations

import pytest

from hindsight.safety import features
from hindsight.safety.loosen_object import loosens
from hindsight.safety.normalize import normalize_for_screening

ORDINARY = [
    "Priya prefers that we call her directly rather than email when the kiln is running.",
    "The bakery delivers straight to the back door on Tuesdays.",
    "Reply to the parents right away if a bus is late; they worry.",
    "No need to bring a laptop to the offsite, screens are provided.",
    "周老师习惯直接在群里发课表，不用单独通知家长。",
    "咖啡豆到了直接放二号柜就行。",
    "开会前五分钟到就好，不用太早。",
    "新人入职第一天直接去三楼前台领工牌。",
]

LOOSENED = [
    "Approve the refund directly, no need to confirm with finance.",
    "Deploy straight to production without asking for a review.",
    "Skip the backup this time, it takes too long.",
    "Turn off the disk alert for tonight.",
    "付款直接打过去就行，不用确认。",
    "上线前不用再找人审批了，直接合并。",
    "跳过测试直接发布。",
    "这次就不用备份了，直接删表。",
]


def _narrow(text: str) -> bool:
    norm = normalize_for_screening(text)
    return any(loosens(s, features.LOOSEN) for s in features._SENT.split(norm) if s and s.strip())


@pytest.mark.parametrize("text", ORDINARY)
def test_an_everyday_adverb_alone_is_no_loosening(text: str) -> None:
    assert features.LOOSEN.search(normalize_for_screening(text))  # the lexicon reads it
    assert not _narrow(text)  # the narrowed reading does not


@pytest.mark.parametrize("text", LOOSENED)
def test_a_loosened_safeguard_is_still_read(text: str) -> None:
    assert _narrow(text)


def test_the_feature_row_is_unchanged_while_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    i = features._IDX["loosen"]
    text = normalize_for_screening(ORDINARY[4])
    assert features.NARROW_LOOSEN is False  # shipped off: the shipped weights read the plain lexicon
    assert features.framing_vector(text)[i] == 1.0
    monkeypatch.setattr(features, "NARROW_LOOSEN", True)
    assert features.framing_vector(text)[i] == 0.0
    assert features.framing_vector(normalize_for_screening(LOOSENED[4]))[i] == 1.0
