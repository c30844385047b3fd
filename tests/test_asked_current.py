"""The question-led currency reading (`retrieval/asked_current.py`, issue 10 round 26): a question about the present
names the slot two hits state. Examples written for this test, not from any blind set."""

from __future__ import annotations

import pytest
from currency_hits import hit, unit

from hindsight.retrieval.asked_current import AskedRule, asks_current, mark_asked_current

ON = AskedRule(on=True)


@pytest.mark.parametrize("question", [
    "What's Dana's extension now?", "Which hotel do we use these days?", "Is the pool still closed on Mondays?",
    "When did the launch finally happen?", "Which vendor did they end up picking?", "Dana现在的分机号是多少?",
    "会议最后改到哪天?", "目前用的是哪家快递?",
])
def test_a_question_about_the_present(question: str) -> None:
    assert asks_current(question)


@pytest.mark.parametrize("question", ["What's Dana's extension?", "Who set up the VPN in March?", "分机号是多少?"])
def test_a_plain_question(question: str) -> None:
    assert not asks_current(question)


def _pair(old_text: str, new_text: str) -> tuple[list, dict]:
    hits = [hit("old", old_text, 0), hit("new", new_text, 100), hit("far", "Lunch is at noon in the canteen.", 50)]
    vectors = {"old": unit(1, 0.2, 0), "new": unit(1, 0, 0.2), "far": unit(0, 0, 1)}
    return hits, vectors


def test_the_older_answer_to_a_present_question_is_flagged_below_the_newer() -> None:
    hits, vectors = _pair("Dana's desk phone is extension 4417.", "Dana moved desks: her extension is 4452 now.")
    out = mark_asked_current("What's Dana's extension now?", hits, lambda ids: vectors, ON)
    old = next(h for h in out if h.memory.id == "old")
    assert not old.current and old.why.outdated_by == "new" and "outdated" in old.flags
    assert [h.memory.id for h in out].index("new") < [h.memory.id for h in out].index("old")


def test_no_flag_without_a_present_question_or_when_off() -> None:
    for question, rule in (("What's Dana's extension?", ON), ("What's Dana's extension now?", AskedRule())):
        hits, vectors = _pair("Dana's desk phone is extension 4417.", "Dana moved desks: her extension is 4452 now.")
        out = mark_asked_current(question, hits, lambda ids, v=vectors: v, rule)
        assert all(h.current for h in out) and [h.memory.id for h in out] == ["old", "new", "far"]


def test_two_owners_or_no_shared_word_with_the_question_are_two_slots() -> None:
    hits, vectors = _pair("Dana's extension is 4417.", "Omar's extension is 4452 now, he moved desks.")
    assert all(h.current for h in mark_asked_current("Which extension is it now?", hits, lambda ids: vectors, ON))
    hits, vectors = _pair("Dana's desk phone is extension 4417.", "Dana moved desks: her extension is 4452 now.")
    assert all(h.current for h in mark_asked_current("Where is lunch now?", hits, lambda ids: vectors, ON))


def test_a_newer_text_without_a_change_needs_the_rule_that_allows_it() -> None:
    old, new = "The gym opens at 7am on weekdays.", "The gym opens at 6am on weekdays from October."
    hits, vectors = _pair(old, new)
    loose = AskedRule(on=True, need_change=False)
    assert not next(h for h in mark_asked_current("When does the gym open now?", hits, lambda ids: vectors, loose)
                    if h.memory.id == "old").current


def test_the_store_wide_nearest_check_when_asked_for() -> None:
    hits, vectors = _pair("Dana's desk phone is extension 4417.", "Dana moved desks: her extension is 4452 now.")
    rival = [("rival", "Dana's mobile is 0400 111 222.", 0.999)]  # a closer stored memory of the same script

    def neighbours(vector, depth, floor):  # type: ignore[no-untyped-def]
        return rival
    strict = AskedRule(on=True, store_nearest=True)
    assert all(h.current for h in mark_asked_current("What's Dana's extension now?", hits, lambda ids: vectors, strict,
                                                     neighbours))
    assert not all(h.current for h in mark_asked_current("What's Dana's extension now?", hits, lambda ids: vectors,
                                                         ON, neighbours))
