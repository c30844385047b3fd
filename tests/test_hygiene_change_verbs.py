"""Hygiene round 24b: a role handed over, a habit stopped, a value slipped, delayed or relaxed read as a change of
the slot the old memory names (`write.end_cues`, read by `evidence.change_evidence`). Own texts, EN and ZH; each
failed on main bad4d5d (no evidence of a change, or only "value changed" without the verb)."""

from __future__ import annotations

import pytest

from hindsight.write.analysis import analyse
from hindsight.write.end_cues import end_cue
from hindsight.write.evidence import change_evidence

CHANGED = [
    ("老周是仓库的主管。", "老周调去苏州分公司了，仓库现在由小何负责。", "调去"),
    ("报销审批找财务部王姐。", "王姐上个月退休了，报销审批现在由李娜负责。", "退休"),
    ("Leo wears a knee brace when he runs.", "Leo ran five miles without the brace today - he's done with it.", "done with"),
    ("The beta launch is due 3 March.", "The beta launch slipped to 17 March.", "slipped to"),
    ("图书馆周末开放到晚上8点。", "图书馆周末开放时间延到晚上10点。", "延到"),
    ("停车场限高2.2米。", "停车场限高放宽到2.5米了。", "放宽到"),
]


@pytest.mark.parametrize(("old", "new", "verb"), CHANGED)
def test_a_change_verb_is_evidence_of_a_change(old: str, new: str, verb: str) -> None:
    evidence = change_evidence(old, new, analyse(old, new))
    assert evidence is not None and verb in evidence, evidence


@pytest.mark.parametrize(("old", "new"), [
    ("Grandpa retired in 2010.", "Grandpa retired in 2010 and took up golf."),   # the old text says it already
    ("王老师去年退休了。", "王老师退休以后每天练书法。"),
    ("The launch slipped to 17 March.", "The launch slipped to 17 March after the audit."),
])
def test_an_ending_the_old_text_states_is_no_new_cue(old: str, new: str) -> None:
    assert end_cue(old, new) is None


@pytest.mark.parametrize(("old", "new"), [
    ("Tern milestone 1 is due 15 May.", "The bakery order for the party slipped to 2 June."),
    ("刘工负责质检对接。", "楼下的张阿姨上个月退休了。"),
    ("Maya runs the design team.", "Her neighbour retired last spring."),
])
def test_a_change_verb_about_another_thing_is_no_change(old: str, new: str) -> None:
    assert change_evidence(old, new, analyse(old, new)) is None


def test_a_value_moved_needs_a_value_of_its_kind_in_the_old_memory() -> None:
    new = "Driftwood slipped to May 9."
    dated, priced = "Driftwood release is locked for March 28.", "Driftwood's price is set at $24.99."
    assert "slipped to" in (change_evidence(dated, new, analyse(dated, new)) or "")
    assert change_evidence(priced, new, analyse(priced, new)) is None


@pytest.mark.parametrize("text", ["年终奖的40%递延到明年6月发放。", "李老师退休前在中学教语文。", "爸的退休金每月 6,850 元。"])
def test_words_that_hold_a_cue_are_no_cue(text: str) -> None:
    assert end_cue("年终奖按绩效系数发，每月 3 号到账。", text) is None
