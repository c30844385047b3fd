"""Hygiene round 30b (issue 10): among candidates read as changed, the one the change sentence names is retired
(`change_scope.scope_terms` in `supersede.retarget`, switched by `supersede.SCOPE_RANK`, shipped off), not the one
that shares more words with another sentence."""
from __future__ import annotations

import pytest

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write import supersede
from hindsight.write.change_scope import change_sentences, explicit_change, scope_terms
from hindsight.write.conflict import Verdict
from hindsight.write.supersede import NEAR, retarget


def _record(text: str) -> MemoryRecord:
    return MemoryRecord(content=text, namespace="t", type=MemoryType.semantic)


# the same shape, own wording: a note on the thing that moved, and a note that shares the follow-up sentence
PICKS = [
    ("EN",
     "The Harbour Road library reopening is planned for spring, when the roof repair is finished.",
     "Harbour Road library: the reading room repaint and new carpets are paid for by the council grant of the trust.",
     "The Harbour Road library reopening is delayed until autumn. The council grant of the trust still pays for the "
     "repaint and the new carpets of the reading room."),
    ("ZH",
     "K9样机计划明年4月上市，价格还没定。",
     "K9样机上周在杭州做了跌落测试，外壳和电池仓都没问题，老周很满意，下一步做高温和防水测试。",
     "K9上市推迟到明年9月。老周说宁可晚一点，也要把高温和防水测试做完。"),
]


@pytest.mark.parametrize(("lang", "named", "other", "new"), PICKS, ids=[p[0] for p in PICKS])
def test_the_change_sentence_picks_the_memory_it_names(lang: str, named: str, other: str, new: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supersede, "SCOPE_RANK", True)  # measured and shipped off: the reading is tested switched on
    a, b = _record(named), _record(other)
    assert scope_terms(named, change_sentences(new)) > scope_terms(other, change_sentences(new))
    # the other note shares more words with the whole new note and has the surer verdict: still the named one first
    ordered = retarget(new, [(b, Verdict("override", "p", 0.99), NEAR), (a, Verdict("override", "p", 0.93), NEAR)])
    assert [r for r, _ in ordered] == [a, b]


@pytest.mark.parametrize("new", [
    "The Harbour Road library reopening is delayed until autumn.",   # one sentence: every word is the change's
    "K9上市推迟到明年9月。",
])
def test_a_note_of_one_sentence_is_not_read_apart(new: str) -> None:
    assert change_sentences(new) == "" and scope_terms("The Harbour Road library reopens in spring.", "") == 0


def test_change_sentences_split_at_sentence_ends_not_at_versions_or_semicolons() -> None:
    text = "Firmware 2.4.1 replaced 2.4.0. It was rolled out again on every unit; the dealers were told."
    assert change_sentences(text) == ""  # both sentences say a change (replaced, again): not split apart
    assert change_sentences("Maple Street is a quiet road. The bus stop moved to the corner.") == \
        "The bus stop moved to the corner."
    assert change_sentences("小区东门是主入口。快递柜已经搬到西门了。") == "快递柜已经搬到西门了。"
    # a title or an initial ends no sentence: one statement, not read apart
    assert change_sentences("Mrs. Okafor asked to be called Ngozi from now on.") == ""
    assert change_sentences("Ask Prof. Lindqvist. From May the lab meeting moved to Fridays.") == \
        "From May the lab meeting moved to Fridays."


@pytest.mark.parametrize("text", [
    "Card reader stopped working at the north lobby? Call facilities, they answer around the clock: 555-0142.",
    "门禁卡不能用了？直接打物业电话，二十四小时有人接。",
])
def test_a_question_says_no_change(text: str) -> None:
    assert change_sentences(text) == ""


def test_explicit_change_still_reads_the_lexicons() -> None:
    assert explicit_change("会议取消了") and not explicit_change("The office printer is on floor 2.")
