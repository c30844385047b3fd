"""Working memory: the last N turns of each live session, in process, cleared when the session ends.

Deliberately not persisted: it is the context window's overflow, read and
written every turn, so it must be fast; what deserves to outlive the session
is extracted at session end (see MemoryEngine.end_session).

Each namespace has its own quota (sessions and characters held); when it is full, that namespace's least
recently used session goes. One namespace's writer can no longer evict another's live sessions, and what one
namespace holds is bounded (attack round 5: 1,000 sessions shared by all namespaces, ~400 MB per token).

The process holds at most `MAX_SESSIONS_TOTAL` sessions and `MAX_CHARS_TOTAL` characters over every namespace
(attack round 34: a token over `*` named as many namespaces as it liked, each with its own quota, so the process
held more with every namespace named). Past either, the namespace holding the most (sessions, or characters), the
least recently used of equals, gives up its least recently used session: the namespaces a hog fills pay first, and
the turn just appended is never the one that goes.
"""

from __future__ import annotations

import heapq
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hindsight.field_rules import utcnow

#: sessions one namespace may hold at once
MAX_SESSIONS_PER_NAMESPACE = 1000
#: characters of turn text one namespace may hold at once (about 8 MB of Python strings at most)
MAX_CHARS_PER_NAMESPACE = 2_000_000
#: sessions and characters the process holds over every namespace (a few hundred MB at most)
MAX_SESSIONS_TOTAL = 20_000
MAX_CHARS_TOTAL = 40_000_000


@dataclass(frozen=True)
class Turn:
    """One message of a session."""

    role: str
    content: str
    at: datetime


class _Namespace:
    """One namespace's sessions, least recently used first, and the characters they hold."""

    def __init__(self) -> None:
        self.sessions: OrderedDict[str, deque[Turn]] = OrderedDict()
        self.chars = 0
        self.stamp = 0  # when it was last appended to: the order of `WorkingMemory._spaces`


class WorkingMemory:
    """Bounded per-(namespace, session) ring buffers; each namespace evicts its own least recently used sessions."""

    def __init__(self, turns_per_session: int = 20, max_sessions: int = MAX_SESSIONS_PER_NAMESPACE,
                 max_chars: int = MAX_CHARS_PER_NAMESPACE) -> None:
        self.turns_per_session = turns_per_session
        self.max_sessions = max_sessions
        self.max_chars = max_chars
        self.max_sessions_total, self.max_chars_total = MAX_SESSIONS_TOTAL, MAX_CHARS_TOTAL
        self._spaces: OrderedDict[str, _Namespace] = OrderedDict()  # least recently appended to first
        # running totals over every namespace, kept with each change, so the server-wide bound is read without a
        # pass over the namespaces on each append (round 35: one append cost grew with the namespaces held)
        self._sessions_total = 0
        self._chars_total = 0
        # the bound's victim, found without a pass over the namespaces: (-size, stamp, name) per measure, an entry
        # stale once its namespace's size or stamp moved on (pushed again then, dropped when met, rebuilt when long)
        self._clock = 0
        self._by_sessions: list[tuple[int, int, str]] = []
        self._by_chars: list[tuple[int, int, str]] = []
        self._lock = threading.Lock()

    def append(self, namespace: str, session_id: str, role: str, content: str, at: datetime | None = None) -> int:
        """Add a turn; returns how many turns the session now holds (at most turns_per_session)."""
        with self._lock:
            space = self._spaces.setdefault(namespace, _Namespace())
            self._spaces.move_to_end(namespace)
            self._clock += 1
            space.stamp = self._clock
            turns = space.sessions.get(session_id)
            if turns is None:
                turns = deque(maxlen=self.turns_per_session)
                space.sessions[session_id] = turns
                self._sessions_total += 1
            space.sessions.move_to_end(session_id)
            if len(turns) == turns.maxlen:
                self._add_chars(space, -len(turns[0].content))
            turns.append(Turn(role, content, at or utcnow()))
            self._add_chars(space, len(content))
            while len(space.sessions) > 1 and (len(space.sessions) > self.max_sessions or space.chars > self.max_chars):
                self._drop_oldest(namespace, space)
            self._mark(namespace, space)
            self._bound_total(space)
            return len(turns)

    def _add_chars(self, space: _Namespace, delta: int) -> None:
        space.chars += delta
        self._chars_total += delta

    def _drop_oldest(self, name: str, space: _Namespace) -> None:
        """The namespace's least recently used session goes, and the totals with it."""
        _, dropped = space.sessions.popitem(last=False)
        self._sessions_total -= 1
        self._add_chars(space, -sum(len(t.content) for t in dropped))
        self._mark(name, space)

    def _mark(self, name: str, space: _Namespace) -> None:
        """The namespace's sizes as they are now, for the bound's victim (older entries of it turn stale)."""
        if len(self._by_sessions) > 2 * len(self._spaces) + 64:  # stale entries past the live ones: rebuild
            self._by_sessions = [(-len(s.sessions), s.stamp, n) for n, s in self._spaces.items()]
            self._by_chars = [(-s.chars, s.stamp, n) for n, s in self._spaces.items()]
            heapq.heapify(self._by_sessions)
            heapq.heapify(self._by_chars)
        heapq.heappush(self._by_sessions, (-len(space.sessions), space.stamp, name))
        heapq.heappush(self._by_chars, (-space.chars, space.stamp, name))

    def _largest(self, heap: list[tuple[int, int, str]], size: Callable[[_Namespace], int],
                 current: _Namespace) -> str | None:
        """The namespace holding the most by `size`, the least recently appended to of equals (the order of
        `_spaces`), not `current` while it holds one session only; None: no such namespace."""
        kept: list[tuple[int, int, str]] = []
        found = None
        while heap:
            negative, stamp, name = heap[0]
            space = self._spaces.get(name)
            if space is None or space.stamp != stamp or size(space) != -negative:
                heapq.heappop(heap)  # stale
            elif space is current and len(space.sessions) <= 1:
                kept.append(heapq.heappop(heap))
            else:
                found = name
                break
        for entry in kept:
            heapq.heappush(heap, entry)
        return found

    def _bound_total(self, current: _Namespace) -> None:
        """Past a server-wide bound, the namespace holding the most gives up its least recently used session."""
        while True:
            if self._sessions_total > self.max_sessions_total:
                name = self._largest(self._by_sessions, lambda s: len(s.sessions), current)
            elif self._chars_total > self.max_chars_total:
                name = self._largest(self._by_chars, lambda s: s.chars, current)
            else:
                return
            # the just-appended session is the current namespace's most recent: it goes only with others left there
            if name is None:
                return
            victim = self._spaces[name]
            self._drop_oldest(name, victim)
            if not victim.sessions:
                del self._spaces[name]

    def sessions_held(self) -> int:
        with self._lock:
            return self._sessions_total

    def chars_held(self) -> int:
        with self._lock:
            return self._chars_total

    def recent(self, namespace: str, session_id: str, last_n: int | None = None) -> list[Turn]:
        """The session's turns, oldest first (the last `last_n` when given)."""
        with self._lock:
            space = self._spaces.get(namespace)
            turns = list(space.sessions.get(session_id, ())) if space is not None else []
        return turns[-last_n:] if last_n else turns

    def clear(self, namespace: str, session_id: str) -> list[Turn]:
        """Drop the session and return what it held."""
        with self._lock:
            space = self._spaces.get(namespace)
            held = space.sessions.pop(session_id, None) if space is not None else None
            dropped = list(held) if held is not None else []
            if space is not None:
                if held is not None:
                    self._sessions_total -= 1
                self._add_chars(space, -sum(len(t.content) for t in dropped))
                self._mark(namespace, space)
                if not space.sessions:
                    del self._spaces[namespace]
        return dropped
