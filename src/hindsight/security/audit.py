"""Audit log: denied access and security decisions, with the principal.

Every content change is already in the append-only `history` table with its
actor; this log adds what history cannot show: who was refused, and when.
`AuditLog.entries` merges both into one timeline.

Denials are coalesced (attack round 32: a token that kept being refused added a row per call, ~50 rows a second per
connection, without bound): the same denial (principal, action, namespace, memory, detail) again within
`DENIAL_WINDOW_S` of its row's first is counted on that row (its detail starts "[N times, the last at TIME]"); a
principal adds at most `DENIAL_ROWS_PER_WINDOW` distinct denial rows per window, and what it is refused beyond them
(ids or namespaces varied per call) is counted on one row per window (`action` `DENIED_MORE`). Every refusal is still
counted; what is bounded is the rows: at most `DENIAL_ROWS_PER_WINDOW + 1` per principal per window. Anything that is
not a denial (an allowed export, every change in `history`) keeps one row each.

A repeat costs no store write (attack round 33; round 32 rewrote the row's count on every refused call, so a flood
still cost one write transaction per call): the count is kept in memory and written to its row once per
`DENIAL_FLUSH_EVERY` repeats, when its window ends (a timer, so an idle server writes it too), before `entries` reads,
and on `flush` / `close` (the server's shutdown). A process killed with SIGKILL loses at most the repeats since the
last write of each row (under `DENIAL_FLUSH_EVERY`, within one window); the row itself, written at the first
denial, is never lost. Another process reading the store (`hindsight audit`) sees a count at most one window old.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime

from hindsight.security.crypto import PREFIX
from hindsight.storage.base import MemoryStore
from hindsight.storage.client import StoreClient

#: Seconds over which repeated denials are one row (and a principal's distinct denial rows are counted).
DENIAL_WINDOW_S = 60.0
#: Distinct denial rows one principal may add per window; the rest are counted on one `DENIED_MORE` row.
DENIAL_ROWS_PER_WINDOW = 20
#: The action of the row that counts a principal's denials past `DENIAL_ROWS_PER_WINDOW` in one window.
DENIED_MORE = "denied (more)"
_ACTIONS_NAMED = 5  # how many of the counted actions the `DENIED_MORE` row names
#: The most of each caller-given field a row keeps (a memory id and a namespace: what the tools accept).
MAX_ACTION_CHARS, MAX_DETAIL_CHARS, MAX_NAMESPACE_CHARS, MAX_ID_CHARS = 200, 1000, 128, 100
#: A repeated denial's count is written to its row once per this many repeats (besides its window's end).
DENIAL_FLUSH_EVERY = 500

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AuditEntry:
    at: float
    principal: str
    action: str
    namespace: str | None
    memory_id: str | None
    outcome: str
    detail: str


@dataclass
class _Row:
    """A denial row this process wrote and still counts on: its `at`, principal and action name it in the store;
    `count` is what it has counted, `written` what its stored detail says, `last` the latest denial's time."""
    at: float
    principal: str
    action: str
    detail: str
    count: int = 1
    written: int = 1
    last: float = 0.0

    def repeat(self, now: float) -> None:
        self.count, self.last = self.count + 1, now

    @property
    def pending(self) -> bool:
        return self.count > self.written


@dataclass
class _Window:
    """One principal's denials in the window that started at `start`."""
    start: float
    rows: int = 0
    more: _Row | None = None
    actions: Counter[str] = field(default_factory=Counter)


def _clock_text(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def counted(detail: str, count: int, last: float) -> str:
    """A coalesced row's detail: how many times and when the last one was (first, so `hindsight audit`'s cut of a
    long detail keeps it), then the denial's own detail."""
    return f"[{count} times, the last at {_clock_text(last)}] {detail}" if count > 1 else detail


class AuditLog(StoreClient):
    """Appends to the `audit` table of the memory store (every backend); the store stays its caller's to close."""

    def __init__(self, store: MemoryStore) -> None:
        super().__init__(store)
        self.clock = time.time
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str, str | None, str | None, str], _Row] = {}
        self._windows: dict[str, _Window] = {}
        self._last_at = 0.0  # each denial row's `at` is this process's own (it names the row a count rewrites)
        self._timer: threading.Timer | None = None  # writes the pending counts at the end of a window

    def record(self, principal: str, action: str, outcome: str, namespace: str | None = None,
               memory_id: str | None = None, detail: str = "") -> None:
        # a refused caller's own words are cut to a row's size (a console path or `ns` parameter came whole: a
        # 16 KB request line made a 32 KB row)
        action, detail = action[:MAX_ACTION_CHARS], detail[:MAX_DETAIL_CHARS]
        namespace = namespace[:MAX_NAMESPACE_CHARS] if namespace is not None else None
        memory_id = memory_id[:MAX_ID_CHARS] if memory_id is not None else None
        if outcome == "denied":
            self._denied(principal, action, namespace, memory_id, detail)
            return
        self._store.audit_add(self.clock(), principal, action, outcome, namespace, memory_id, detail)

    def _denied(self, principal: str, action: str, namespace: str | None, memory_id: str | None, detail: str) -> None:
        key = (principal, action, namespace, memory_id, detail)
        with self._lock:
            now = self._last_at = max(self.clock(), self._last_at + 1e-6)
            self._forget_before(now - DENIAL_WINDOW_S)
            row = self._rows.get(key)
            if row is not None:  # the same denial again within the window: counted on its row, in memory
                self._repeat(row, now)
                return
            window = self._windows.setdefault(principal, _Window(now))
            if window.rows < DENIAL_ROWS_PER_WINDOW:
                window.rows += 1
                self._rows[key] = _Row(now, principal, action, detail, last=now)
                self._store.audit_add(now, principal, action, "denied", namespace, memory_id, detail)
                return
            window.actions[action if action in window.actions or len(window.actions) < 100 else "others"] += 1
            named = ", ".join(f"{name} x{n}" for name, n in window.actions.most_common(_ACTIONS_NAMED))
            others = len(window.actions) - _ACTIONS_NAMED
            text = (f"denials past {DENIAL_ROWS_PER_WINDOW} distinct ones in {DENIAL_WINDOW_S:.0f} s, counted here, "
                    f"not one row each: {named}{f' and {others} other actions' if others > 0 else ''}")[:1000]
            if window.more is None:
                window.more = _Row(now, principal, DENIED_MORE, text, last=now)
                self._store.audit_add(now, principal, DENIED_MORE, "denied", None, None, counted(text, 1, now))
                return
            window.more.detail = text
            self._repeat(window.more, now)

    def _repeat(self, row: _Row, now: float) -> None:
        """One more of a row's denial: written at once every `DENIAL_FLUSH_EVERY`, else at the window's end."""
        row.repeat(now)
        if row.count - row.written >= DENIAL_FLUSH_EVERY:
            self._write(row)
        elif self._timer is None:
            self._timer = threading.Timer(DENIAL_WINDOW_S, self._on_timer)
            self._timer.daemon = True
            self._timer.start()

    def _write(self, row: _Row) -> None:
        self._store.audit_count(row.at, row.principal, row.action, counted(row.detail, row.count, row.last))
        row.written = row.count

    def _pending(self) -> list[_Row]:
        rows = [*self._rows.values(), *(w.more for w in self._windows.values() if w.more is not None)]
        return [row for row in rows if row.pending]

    def _on_timer(self) -> None:
        with self._lock:
            self._timer = None
            try:
                for row in self._pending():
                    self._write(row)
            except Exception as exc:  # a store closed under a forgotten log: nothing to write to
                log.warning("audit: the pending denial counts were not written: %s", type(exc).__name__)

    def flush(self) -> None:
        """Write every count still held in memory to its row (the server calls it on shutdown)."""
        with self._lock:
            for row in self._pending():
                self._write(row)

    def close(self) -> None:
        """Flush, stop the window timer, and close the store when `open` opened it."""
        self.flush()
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        super().close()

    def _forget_before(self, start: float) -> None:
        """Drop the windows and rows that began before `start` (their counts written first): their next denial
        opens a new row."""
        for principal in [p for p, w in self._windows.items() if w.start <= start]:
            more = self._windows.pop(principal).more
            if more is not None and more.pending:
                self._write(more)
        for key in [k for k, row in self._rows.items() if row.at <= start]:
            row = self._rows.pop(key)
            if row.pending:
                self._write(row)

    def entries(self, limit: int = 100) -> list[AuditEntry]:
        """Newest first: denials and security events, plus every change from `history` (actor = principal)."""
        self.flush()
        entries = []
        for at, principal, action, namespace, memory_id, outcome, detail in self._store.audit_rows(limit):
            shown = "[private]" if str(detail or "").startswith(PREFIX) else detail  # a private memory's sealed note
            entries.append(AuditEntry(at, principal, action, namespace, memory_id, outcome, shown))
        return entries
