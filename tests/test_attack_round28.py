"""Attack round 28 (docs/security.md "Attack round 28"): an outside attacker on the HTTP transport's session cap.

- The MCP SDK also caps the sessions of the whole server (10,000) and answers every new one past it 503, for every
  token: three tokens at the per-token cap (3 x 4096) starved all the others for half an hour. Now a new session on
  a full server ends the least recently used session of the token holding the most.
- `initialize` calls sent at once were all admitted (a session was counted only when its answer started), so one
  token could pass its cap by as many calls as it kept in flight.
- A session with an open GET stream was forgotten by the cap after 30 minutes, while the SDK keeps a session with a
  request in flight for as long as the stream lasts: one token could hold the cap again every half hour.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from asgi_call import asgi_call
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
BASE = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _bearer(token: str, session: str | None = None) -> dict[str, str]:
    return {**BASE, "authorization": f"Bearer {token}", **({"mcp-session-id": session} if session else {})}


def test_three_tokens_at_their_cap_cannot_starve_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Live shape, scaled down: per-token cap 3, the SDK's server-wide limit 6 (4096 and 10,000 as shipped). Two
    tokens at their cap filled the server; on main a third token's `initialize` was answered 503 "Too many open
    sessions". Now it is served, and the session ended to make room is the least recently used of the biggest
    holder; a newcomer never takes more than the others hold (then it is refused, not they)."""
    from fastmcp.server.http import FastMCPStreamableHTTPSessionManager
    from mcp.server import streamable_http_manager
    from starlette.middleware import Middleware
    from starlette.testclient import TestClient

    from hindsight.security.http_guard import AuthPolicy, HTTPGuard, default_allowed_hosts
    from hindsight.security.tokens import TokenStore
    from hindsight.server.mcp_server import build_server

    sdk_init = FastMCPStreamableHTTPSessionManager.__init__

    def small_server(self: Any, *args: Any, **kwargs: Any) -> None:
        sdk_init(self, *args, **kwargs)
        self.max_sessions = 6

    monkeypatch.setattr(FastMCPStreamableHTTPSessionManager, "__init__", small_server)
    monkeypatch.setattr(streamable_http_manager, "DEFAULT_MAX_SESSIONS", 6)
    monkeypatch.setenv("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", "3")
    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    tokens = TokenStore.open(tmp_path / "m.db")
    hog1, hog2, agent = (tokens.create(name, ["read"], ["ops"])[0] for name in ("hog1", "hog2", "agent"))
    policy = AuthPolicy(tokens)
    guard = Middleware(HTTPGuard, policy=policy, allowed_hosts=default_allowed_hosts("127.0.0.1"))
    app = build_server(engine, policy=policy).http_app(middleware=[guard])
    try:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            held = {t: [client.post("/mcp", json=INIT, headers=_bearer(t)).headers["mcp-session-id"]
                        for _ in range(3)] for t in (hog1, hog2)}
            for session in held[hog2]:  # hog2's sessions used since: hog1's first is the least recently used
                assert client.post("/mcp", json=PING, headers=_bearer(hog2, session)).status_code == 200
            first = client.post("/mcp", json=INIT, headers=_bearer(agent))
            assert first.status_code == 200, first.text  # main: 503 "Too many open sessions"
            ping = client.post("/mcp", json=PING, headers=_bearer(agent, first.headers["mcp-session-id"]))
            assert ping.status_code == 200
            assert client.post("/mcp", json=PING, headers=_bearer(hog1, held[hog1][0])).status_code == 404
            for session in (*held[hog1][1:], *held[hog2]):
                assert client.post("/mcp", json=PING, headers=_bearer(hog1 if session in held[hog1] else hog2,
                                                                      session)).status_code == 200
            assert client.post("/mcp", json=INIT, headers=_bearer(agent)).status_code == 200  # hog2 had 3 > 1
            refused = client.post("/mcp", json=INIT, headers=_bearer(agent))  # 2 / 2 / 2: it would be the hog
            assert refused.status_code == 429 and "too_many_sessions" in refused.json()["error"]["message"]
    finally:
        tokens.close()
        engine.close()


class _NoTokens:
    """An auth policy's token store with no token created: every request is the local owner."""

    def any_created(self) -> bool:
        return False


def _fake_mcp(release: asyncio.Event) -> Any:
    """An MCP endpoint that answers a new session's POST, and a GET stream, only once `release` is set."""

    async def app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        await release.wait()
        headers = [(b"content-type", b"application/json")]
        if scope["method"] == "POST" and not any(k == b"mcp-session-id" for k, _ in scope["headers"]):
            headers.append((b"mcp-session-id", uuid.uuid4().hex.encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


def _call(guard: Any, method: str, session: str | None = None) -> Any:
    return asgi_call(guard, method, session)


def _guard(release: asyncio.Event, clock: Any = None, limit: int = 2) -> Any:
    from hindsight.security.http_guard import AuthPolicy, HTTPGuard
    from hindsight.security.session_cap import SessionCap

    cap = SessionCap(limit=limit, clock=clock) if clock is not None else SessionCap(limit=limit)
    return HTTPGuard(_fake_mcp(release), AuthPolicy(_NoTokens(), "auto"), ["127.0.0.1"], sessions=cap)  # type: ignore[arg-type]


def test_initialize_calls_sent_at_once_cannot_pass_the_cap_together() -> None:
    """On main ten `initialize` calls in flight at once were all admitted (each counted only when its answer
    started): a token at cap 2 held 10 sessions. Now a session is counted from its admission."""

    async def scenario() -> list[int]:
        release = asyncio.Event()
        guard = _guard(release)
        calls = [asyncio.ensure_future(_call(guard, "POST")) for _ in range(10)]
        await asyncio.sleep(0.01)
        release.set()
        return sorted(a["status"] for a in await asyncio.gather(*calls))

    assert asyncio.run(scenario()) == [200, 200] + [429] * 8  # main: [200] * 10


def test_a_session_with_an_open_stream_stays_counted_past_the_idle_timeout() -> None:
    """The SDK never reaps a session while one of its requests is in flight (a GET stream); on main the cap forgot
    it after 30 minutes of no new request, so a token holding streams opened its cap again every half hour."""
    from hindsight.security.session_cap import SESSION_IDLE_S

    now = [0.0]

    async def scenario() -> tuple[int, int]:
        release, stream = asyncio.Event(), asyncio.Event()
        guard = _guard(release, clock=lambda: now[0], limit=1)
        release.set()
        opened = await _call(guard, "POST")
        guard.app = _fake_mcp(stream)  # the session's GET stream stays open until `stream` is set
        open_stream = asyncio.ensure_future(_call(guard, "GET", opened["session"]))
        await asyncio.sleep(0.01)
        now[0] = SESSION_IDLE_S + 60.0
        guard.app = _fake_mcp(release)
        during = (await _call(guard, "POST"))["status"]
        stream.set()
        await open_stream
        now[0] = 2 * SESSION_IDLE_S + 120.0  # the stream ended long ago: idle, forgotten
        after = (await _call(guard, "POST"))["status"]
        return during, after

    assert asyncio.run(scenario()) == (429, 200)  # main: (200, 200)


def test_a_different_request_under_a_key_in_flight_is_refused_not_told_created(bag_engine: MemoryEngine) -> None:
    """Two requests under one idempotency key at once (two servers, two threads): the second arrived after the
    first's memory was written and before its result was recorded. On main the second was told `created` for the
    first's memory (its own text stored nowhere: a lost acknowledged write), and the first, whose memory was stored,
    was told `idempotency_conflict` "nothing was stored". Now the key is claimed before the write: the second is the
    conflict, and nothing of it is stored."""
    from hindsight.errors import IdempotencyConflictError
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    service = ReviewService(bag_engine, ReviewQueue(bag_engine.store))
    store_many, answers = bag_engine.store_many, []

    def second_arrives(*args: Any, **kwargs: Any) -> Any:
        written = store_many(*args, **kwargs)
        if not answers:
            answers.append("second")
            try:
                answers.append(service.store({"content": "The deploy port of billing is 7000"}, "local",
                                             idempotency_key="k-1"))
            except IdempotencyConflictError as exc:
                answers.append(exc)
        return written

    bag_engine.store_many = second_arrives  # type: ignore[method-assign]
    first = service.store({"content": "The office wifi password rotates monthly"}, "local", idempotency_key="k-1")
    bag_engine.store_many = store_many  # type: ignore[method-assign]
    assert first["action"] == "created"  # main: IdempotencyConflictError, though its memory was stored
    assert isinstance(answers[1], IdempotencyConflictError)  # main: {"action": "created", ...} for the first's memory
    memory = bag_engine.get(first["memory_id"], "default")
    assert memory.content == "The office wifi password rotates monthly"
    assert [m.content for m in bag_engine.list(namespace="default")[0]] == [memory.content]
    again = service.store({"content": "The office wifi password rotates monthly"}, "local", idempotency_key="k-1")
    assert again["replayed"] and again["memory_id"] == first["memory_id"]


def test_a_keyed_write_that_fails_leaves_its_key_free(bag_engine: MemoryEngine) -> None:
    """A claimed key whose write fails (here a private memory on a store without a key) is released: the client may
    send a corrected request under the same key."""
    from hindsight.errors import EncryptionUnavailableError
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    service = ReviewService(bag_engine, ReviewQueue(bag_engine.store))
    with pytest.raises(EncryptionUnavailableError):
        service.store({"content": "The lab result came back fine", "private": True}, "local", idempotency_key="k-2")
    stored = service.store({"content": "The lab result came back fine"}, "local", idempotency_key="k-2")
    assert stored["action"] == "created" and not stored.get("replayed")
