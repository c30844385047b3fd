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


def _small(cls: type[WorkingMemory]) -> WorkingMemory:
    memory = cls(turns_per_session=3, max_sessions=6, max_chars=400)
    memory.max_sessions_total, memory.max_chars_total = 15, 900
    return memory


def test_the_bound_evicts_exactly_as_the_summing_bound_did() -> None:
    rng = random.Random(35)
    for _ in range(20):
        kept, reference = _small(WorkingMemory), _small(_SummingReference)
        for _ in range(400):
            namespace, session = f"ns{rng.randrange(8)}", f"s{rng.randrange(10)}"
            if rng.random() < 0.1:
                assert kept.clear(namespace, session) == reference.clear(namespace, session)
            else:
                text = "x" * rng.choice((1, 5, 40, 120, 300))
                assert kept.append(namespace, session, "user", text, AT) == \
                    reference.append(namespace, session, "user", text, AT)
            assert _state(kept) == _state(reference)
            assert kept.sessions_held() == sum(len(s.sessions) for s in kept._spaces.values())
            assert kept.chars_held() == sum(s.chars for s in kept._spaces.values())
            assert kept.sessions_held() <= 15 and kept.chars_held() <= 900 + 300


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
