"""The same text written again under the other type is a duplicate (ux33's finding 15, round 34).

An exact restatement stored as `episodic` (the default) of a `semantic` memory answered `supplemented` with the
reason "restates the existing memory": a second copy, and an action that disagreed with its own reason. README
documents a restatement as `duplicate` (the existing memory refreshed, its id answered); the same text is now that
across episodic and semantic. A semantic memory in other words than an episode, and warnings, are unchanged."""

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


def test_an_exact_copy_under_the_other_type_folds_into_the_existing_memory() -> None:
    """Failed on main: the copy was a supplement link."""
    for old_type, new_type in ((MemoryType.semantic, MemoryType.episodic), (MemoryType.episodic, MemoryType.semantic)):
        old = _record(TEXT, old_type)
        decision, reasons = _fold(old, _record("  The billing service deploys every Tuesday\nat 10am. ", new_type))
        assert decision.duplicate_of == old.id and decision.supplements == [] and not decision.adopt_text
        assert reasons == [f"duplicate of {old.id}: the same text, kept as {old_type.value} "
                           f"(written as {new_type.value})"]


def test_other_words_and_warnings_stay_apart() -> None:
    old = _record(TEXT, MemoryType.semantic)
    reworded, _ = _fold(old, _record("Billing deploys on Tuesdays at 10am.", MemoryType.episodic))
    assert reworded.duplicate_of is None and reworded.supplements == [old.id]  # a generalisation is not swallowed
    warning, _ = _fold(old, _record(TEXT, MemoryType.warning))
    assert warning.duplicate_of is None and warning.supplements == [old.id]  # a warning meets only warnings


def test_the_engine_answers_duplicate_with_the_existing_id(engine: MemoryEngine) -> None:
    """ux33's walk: a semantic memory, then the same text stored with the default type (episodic). Failed on main."""
    first = engine.store_memory({"content": "The user prefers pnpm over npm for JavaScript projects.",
                                 "type": "semantic"})
    again = engine.store_memory({"content": "The user prefers pnpm over npm for JavaScript projects."})
    assert (again.action, again.memory_id) == ("duplicate", first.memory_id), again.reason
    stored = engine.get(first.memory_id, "default", record_access=False)
    assert stored.type == MemoryType.semantic and stored.metadata["restated_count"] == 1
