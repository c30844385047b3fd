"""A semantic memory's text written again as an episode is a duplicate (ux33's finding 15, round 34).

An exact restatement stored as `episodic` (the default) of a `semantic` memory answered `supplemented` with the
reason "restates the existing memory": a second copy, and an action that disagreed with its own reason. README
documents a restatement as `duplicate` (the existing memory refreshed, its id answered); such a copy is now that.
The reverse - an episode's text written again as semantic - stays a memory of its own, linked
(`test_hygiene.py::test_restatement_in_another_type_is_linked_not_swallowed`), and its reason now says why. A
semantic memory in other words than an episode, warnings and a session's turns are unchanged."""

from __future__ import annotations

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import MAX_CREDIBILITY_DROP, _separate_events
from hindsight.write.verdict_fold import fold

TEXT = "The billing service deploys every Tuesday at 10am."


def _fold(old: MemoryRecord, new: MemoryRecord) -> tuple[HygieneDecision, list[str]]:
    decision, reasons = HygieneDecision(), []
    fold(decision, reasons, old, new, Verdict("duplicate", "restates the existing memory"), _separate_events,
         MAX_CREDIBILITY_DROP)
    return decision, reasons


def _record(content: str, kind: MemoryType) -> MemoryRecord:
    return MemoryRecord(content=content, type=kind)


def test_a_facts_text_written_as_an_episode_folds_into_the_fact() -> None:
    """Failed on main: the copy was a supplement link whose reason said it restates the memory."""
    old = _record(TEXT, MemoryType.semantic)
    decision, reasons = _fold(old, _record("  The billing service deploys every Tuesday\nat 10am. ", MemoryType.episodic))
    assert decision.duplicate_of == old.id and decision.supplements == [] and not decision.adopt_text
    assert reasons == [f"duplicate of {old.id}: the same text, kept as semantic (written as episodic)"]


def test_an_episodes_text_written_as_a_fact_is_linked_and_says_why() -> None:
    """Failed on main (the reason): "restates the existing memory" beside `supplemented`."""
    old = _record(TEXT, MemoryType.episodic)
    decision, reasons = _fold(old, _record(TEXT, MemoryType.semantic))
    assert decision.duplicate_of is None and decision.supplements == [old.id]
    assert "kept as a semantic memory of its own and linked" in reasons[0]


def test_other_words_warnings_and_turns_stay_apart() -> None:
    old = _record(TEXT, MemoryType.semantic)
    reworded, _ = _fold(old, _record("Billing deploys on Tuesdays at 10am.", MemoryType.episodic))
    assert reworded.duplicate_of is None and reworded.supplements == [old.id]  # a generalisation is not swallowed
    warning, _ = _fold(old, _record(TEXT, MemoryType.warning))
    assert warning.duplicate_of is None and warning.supplements == [old.id]  # a warning meets only warnings
    turn = MemoryRecord(content=TEXT, type=MemoryType.episodic, session_id="s1")
    said, _ = _fold(old, turn)
    assert said.duplicate_of is None and said.supplements == [old.id]  # a dialogue's turn stays in its place


def test_the_engine_answers_duplicate_with_the_existing_id(engine: MemoryEngine) -> None:
    """ux33's walk: a semantic memory, then the same text stored with the default type (episodic). Failed on main."""
    first = engine.store_memory({"content": "The user prefers pnpm over npm for JavaScript projects.",
                                 "type": "semantic"})
    again = engine.store_memory({"content": "The user prefers pnpm over npm for JavaScript projects."})
    assert (again.action, again.memory_id) == ("duplicate", first.memory_id), again.reason
    stored = engine.get(first.memory_id, "default", record_access=False)
    assert stored.type == MemoryType.semantic and stored.metadata["restated_count"] == 1
