"""Working memory keeps running totals over every namespace (issue 14, round 35).

The server-wide bound (attack round 34) summed every namespace's sessions and characters on each append, so one
append cost grew with the namespaces held. The totals are now kept with each change; the bound holds exactly as it
did: a reference that sums on each append (main's `_bound_total`, verbatim) evicts the same sessions in the same
order over random appends and clears.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

import pytest

from hindsight.working import WorkingMemory, _Namespace

AT = datetime(2026, 12, 7, tzinfo=UTC)


class _SummingReference(WorkingMemory):
    """Main's server-wide bound: every namespace's totals summed on each pass (the behaviour to keep)."""

    def _bound_total(self, current: _Namespace) -> None:
        while True:
            sessions = sum(len(s.sessions) for s in self._spaces.values())
            if sessions > self.max_sessions_total:
                size = lambda s: len(s.sessions)  # noqa: E731
            elif sum(s.chars for s in self._spaces.values()) > self.max_chars_total:
                size = lambda s: s.chars  # noqa: E731
            else:
                return
            candidates = [(name, s) for name, s in self._spaces.items() if s is not current or len(s.sessions) > 1]
            if not candidates:
                return
            name, victim = max(candidates, key=lambda item: size(item[1]))
            _, dropped = victim.sessions.popitem(last=False)
            victim.chars -= sum(len(t.content) for t in dropped)
            if not victim.sessions:
                del self._spaces[name]


def _state(memory: WorkingMemory) -> list[tuple[str, int, list[tuple[str, list[str]]]]]:
    return [(name, space.chars, [(sid, [t.content for t in turns]) for sid, turns in space.sessions.items()])
            for name, space in memory._spaces.items()]


def _small(cls: type[WorkingMemory], sessions: int = 15, chars: int = 900) -> WorkingMemory:
    memory = cls(turns_per_session=3, max_sessions=6, max_chars=400)
    memory.max_sessions_total, memory.max_chars_total = sessions, chars
    return memory


@pytest.mark.parametrize(("spaces", "sessions", "chars"), [(8, 15, 900), (30, 12, 100_000), (4, 1_000, 500),
                                                            (60, 40, 3_000)])
def test_the_bound_evicts_exactly_as_the_summing_bound_did(spaces: int, sessions: int, chars: int) -> None:
    """Random appends and clears under small bounds (the session bound, the character bound, both): the same
    sessions go in the same order as under main's summing bound (`_SummingReference`)."""
    rng = random.Random(35 + spaces)
    for _ in range(12):
        kept, reference = _small(WorkingMemory, sessions, chars), _small(_SummingReference, sessions, chars)
        for _ in range(400):
            namespace, session = f"ns{rng.randrange(spaces)}", f"s{rng.randrange(10)}"
            if rng.random() < 0.1:
                assert kept.clear(namespace, session) == reference.clear(namespace, session)
            else:
                text = "x" * rng.choice((1, 5, 40, 120, 300))
                assert kept.append(namespace, session, "user", text, AT) == \
                    reference.append(namespace, session, "user", text, AT)
            assert _state(kept) == _state(reference)
            assert kept.sessions_held() == sum(len(s.sessions) for s in kept._spaces.values())
            assert kept.chars_held() == sum(s.chars for s in kept._spaces.values())
            assert kept.sessions_held() <= sessions and kept.chars_held() <= chars + 300


class _CountingSpaces(OrderedDict[str, Any]):
    """An OrderedDict that counts passes over its namespaces."""

    passes = 0

    def values(self) -> Any:
        type(self).passes += 1
        return super().values()

    def items(self) -> Any:
        type(self).passes += 1
        return super().items()


def test_an_append_below_the_bound_makes_no_pass_over_the_namespaces() -> None:
    """On main each append summed every namespace twice (2,000 passes over 1,000 namespaces here)."""
    memory = WorkingMemory()
    memory._spaces = _CountingSpaces()
    for i in range(1000):
        memory.append(f"ns{i}", "s", "user", "a turn", AT)
    assert _CountingSpaces.passes == 0
    assert memory.sessions_held() == 1000 and memory.chars_held() == 6000


def test_an_append_at_the_bound_finds_its_victim_without_a_pass_over_the_namespaces() -> None:
    """At the server-wide session bound each new namespace's session makes one go: the victim (the namespace
    holding the most, least recently used of equals) was found by a pass over every namespace (main: 1,000 passes
    for 500 appends here); it is now the top of a heap kept with each change."""
    memory = WorkingMemory()
    memory.max_sessions_total = 500
    for i in range(500):
        memory.append(f"ns{i}", "s", "user", "a turn", AT)
    memory._spaces = _CountingSpaces(memory._spaces)
    _CountingSpaces.passes = 0
    for i in range(500):
        memory.append(f"new{i}", "s", "user", "a turn", AT)
    assert memory.sessions_held() == 500
    assert _CountingSpaces.passes <= 5  # the heap's rebuilds when stale entries pile up, not one pass per append
    assert memory.recent("ns0", "s") == [] and memory.recent("new499", "s")
