"""Working memory: the last N turns of each live session, in process, cleared when the session ends.

Deliberately not persisted: it is the context window's overflow, read and
written every turn, so it must be fast; what deserves to outlive the session
is extracted at session end (see MemoryEngine.end_session).
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import datetime

from hindsight.model import utcnow


@dataclass(frozen=True)
class Turn:
    """One message of a session."""

    role: str
    content: str
    at: datetime


class WorkingMemory:
    """Bounded per-(namespace, session) ring buffers; the least recently used sessions are evicted."""

    def __init__(self, turns_per_session: int = 20, max_sessions: int = 1000) -> None:
        self.turns_per_session = turns_per_session
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[tuple[str, str], deque[Turn]] = OrderedDict()
        self._lock = threading.Lock()

    def append(self, namespace: str, session_id: str, role: str, content: str, at: datetime | None = None) -> int:
        """Add a turn; returns how many turns the session now holds (at most turns_per_session)."""
        key = (namespace, session_id)
        with self._lock:
            turns = self._sessions.get(key)
            if turns is None:
                turns = deque(maxlen=self.turns_per_session)
                self._sessions[key] = turns
                if len(self._sessions) > self.max_sessions:
                    self._sessions.popitem(last=False)
            self._sessions.move_to_end(key)
            turns.append(Turn(role, content, at or utcnow()))
            return len(turns)

    def recent(self, namespace: str, session_id: str, last_n: int | None = None) -> list[Turn]:
        """The session's turns, oldest first (the last `last_n` when given)."""
        with self._lock:
            turns = list(self._sessions.get((namespace, session_id), ()))
        return turns[-last_n:] if last_n else turns

    def clear(self, namespace: str, session_id: str) -> list[Turn]:
        """Drop the session and return what it held."""
        with self._lock:
            return list(self._sessions.pop((namespace, session_id), ()))
