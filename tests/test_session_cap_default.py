"""The per-token MCP session cap (attack round 27) bounds memory without refusing ordinary heavy clients: a harness
that opens a session per call and never sends DELETE, or a server run without auth where every caller is one
principal, holds one session per call for the SDK's 30 idle minutes. No server, no embedder: the counter alone."""

from __future__ import annotations

import pytest

from hindsight.security import session_cap
from hindsight.security.session_cap import SessionCap


def test_a_burst_of_sessions_never_closed_is_admitted_under_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", raising=False)
    now = [0.0]
    cap = SessionCap(clock=lambda: now[0])
    for i in range(2000):  # one session per call, 2,000 calls within the idle window, none closed
        assert cap.admit("anonymous"), f"call {i} refused"
        cap.opened("anonymous", f"s{i}")
        now[0] += 0.5
    assert cap.held("anonymous") == 2000


def test_the_default_still_bounds_one_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", raising=False)
    assert 2000 < session_cap.max_sessions_per_token() <= 8192
    cap = SessionCap(limit=session_cap.max_sessions_per_token(), clock=lambda: 0.0)
    for i in range(cap.limit):
        cap.opened("t", f"s{i}")
    assert not cap.admit("t") and cap.admit("other")
