"""correct47: another speaker's turn does not retire a fact about the user (write/speaker_bound.py, relev46's
finding: "Alice: I switched my editor to light mode yesterday ..." superseded "The user now prefers light mode in the
editor", p(change) 0.92)."""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import speaker_bound
from hindsight.write.retire_veto import veto

FACT = "The user now prefers light mode in the editor"
TURNS = ["Alice: I switched my editor to light mode yesterday, dark was hurting my eyes",
         "Bob: nice, which font do you use?", "Alice: JetBrains Mono, size 14"]


@pytest.mark.parametrize("old,new,fires", [
    (FACT, TURNS[0], True),
    ("User: I prefer dark mode in the editor", "Alice: I use light mode now", True),
    ("用户喜欢深色主题", "Alice: I moved to the light theme", True),
    (FACT, "Alice: the user asked for light mode", False),        # Alice reports on the user: not about herself
    (FACT, "Note: light mode now", False),                         # a label, no first person: not a speaker's turn
    (FACT, "User: I switched to dark mode", False),                # the user's own turn (a role, not another speaker)
    (FACT, "I switched my editor to dark mode", False),            # no label
    ("Alice prefers light mode", "Bob: I switched to dark mode", False),  # not a fact about the user
    ("Users table has 2M rows", "Alice: I cleaned up our users table", False),
])
def test_the_reading(old: str, new: str, fires: bool) -> None:
    assert bool(speaker_bound.other_speaker(old, new)) is fires
    if fires:
        assert veto(old, new).startswith("another speaker")  # every stage's change passes `retire_veto.veto`


@pytest.mark.parametrize("on", [True, False], ids=["on", "off"])
def test_another_speakers_turn_links_the_users_fact(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch,
                                                    on: bool) -> None:
    """Through the engine with the shipped model: relev46's mixed store. Off (main), the first turn retires the fact."""
    monkeypatch.setattr(speaker_bound, "ON", on)
    fact = engine.store_memory({"content": FACT}).memory_id
    outcomes = engine.store_many([{"content": t, "session_id": "chat_1"} for t in TURNS])
    assert (engine.get(fact).status == Status.active) is on
    assert any(fact in o.supersedes for o in outcomes) is not on
