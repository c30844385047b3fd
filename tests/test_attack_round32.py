"""Attack round 32 (docs/security.md "Attack round 32"): an outside attacker with the README and docs/security.md
against `hindsight serve --transport http` with a token of each scope.

- **The denial audit grew without bound** (left by round 31): every scope denial was one `audit` row, so a token that
  kept being refused added ~50 rows a second per connection for as long as it kept calling. Denials are now coalesced
  in the audit middleware (`security/audit.py`): the same denial within a window is one row with a count, and a
  principal adds at most a bounded number of distinct denial rows per window (the rest are counted on one row).
- **One reviewed namespace's writer hid another's proposals from its reviewers**: `/review` and `/console/queues` read
  the store's oldest 200 pending proposals and kept those the reviewer administers, so a writer of `rev2` who queued
  200 proposals pushed every later proposal of `rev` off both pages (MCP `memory_review_list` still listed it).
- **A refused caller's own words reached `hindsight audit` as markup and terminal codes**: the audit view printed a
  denial's memory id and action (a console path) raw, so a `read` token's `memory_forget(memory_id="[/bold]")` made
  the command fail for every later run that lists the row (Rich markup), `[link=...]` rewrote what it showed, and an
  ESC sequence reached the operator's terminal (clear the screen, recolour, hide rows).
- **The front door passed every non-HTTP scope on unchecked**: a WebSocket handshake reached the app with no Host,
  Origin or token check (today no route speaks WebSocket, so Starlette refused it; a route added later would have been
  served past every check). The guard now closes the handshake itself.
- **The call cap read the sign-in cookie another way than the pages**: with two sessions in one `Cookie` header the
  front door charged the first live one of either console's cookie, while the page (Starlette) served the last of its
  own name: a page served to one principal counted against another's cap (round 18's class: two readers of one
  header).
- **`/review` recorded no refusal**: a reviewer deciding a proposal of a namespace it does not administer (or posting
  a stale form) was refused with no audit row; `/console` and the MCP gate record theirs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.audit import AuditLog
from hindsight.security.tokens import TokenStore

BOUND_S = 60.0  # a liveness bound for waits on the server (never asserted on)
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
BASE = {"accept": "application/json, text/event-stream", "content-type": "application/json",
        "mcp-protocol-version": "2025-06-18"}


class FakeClock:
    """The audit log's clock, moved by the test (a window is then a fact of the test, not of the machine's speed)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Server:
    """The app as `serve` builds it (guard, tools, pages, the audit log) on a real uvicorn server in a thread."""

    def __init__(self, tmp_path: Path, reviewed: str = "") -> None:
        from starlette.middleware import Middleware

        from hindsight.security.call_cap import CallCap
        from hindsight.security.http_guard import AuthPolicy, HTTPGuard, default_allowed_hosts
        from hindsight.server.mcp_server import build_server

        settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False, guard="off", reviewed_namespaces=reviewed)
        self.engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
        self.db = tmp_path / "m.db"
        self.tokens = TokenStore.open(tmp_path / "m.db")
        self.writer = self.tokens.create("w", ["write"], ["ops"])[0]
        self.reader = self.tokens.create("r", ["read"], ["ops"])[0]
        self.admin = self.tokens.create("a", ["admin"], ["ops"])[0]
        self.audit = AuditLog(self.engine.store)
        self.clock = FakeClock()
        self.audit.clock = self.clock
        policy = AuthPolicy(self.tokens)
        guard = Middleware(HTTPGuard, policy=policy, allowed_hosts=default_allowed_hosts("127.0.0.1"),
                           calls=CallCap(8))
        app = build_server(self.engine, audit=self.audit, policy=policy).http_app(middleware=[guard])

        import uvicorn

        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + BOUND_S
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.url = f"{self.base}/mcp"

    def session(self, token: str) -> dict[str, str]:
        headers = {**BASE, "authorization": f"Bearer {token}"}
        opened = httpx.post(self.url, headers=headers, json=INIT, timeout=BOUND_S)
        assert opened.status_code == 200
        headers["mcp-session-id"] = opened.headers["mcp-session-id"]
        httpx.post(self.url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                   timeout=BOUND_S)
        return headers

    def call(self, headers: dict[str, str], tool: str, arguments: dict[str, object]) -> str:
        answer = httpx.post(self.url, headers=headers, timeout=BOUND_S, json={
            "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
        assert answer.status_code == 200, answer.text[:300]
        return answer.text

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(BOUND_S)
        self.tokens.close()
        self.engine.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.close()


def _denials(server: Server, principal: str) -> list[str]:
    return [e.detail for e in server.audit.entries(10_000) if e.principal == principal and e.outcome == "denied"]


# ------------------------------------------------------------------ 0. the denial audit is bounded


def test_a_token_refused_again_and_again_adds_one_row_with_a_count(server: Server) -> None:
    """A `read` token calling `memory_forget` 60 times: on main 60 rows; now one row that says 60 times."""
    headers = server.session(server.reader)
    for _ in range(60):
        assert "permission_denied" in server.call(headers, "memory_forget", {"memory_id": "mem_x", "namespace": "ops"})
    rows = _denials(server, "token:r")
    assert len(rows) == 1, rows[:3]
    assert rows[0].startswith("[60 times, the last at ") and rows[0].endswith("] needs 'write' on namespace 'ops'")


def test_denials_varied_per_call_are_bounded_per_principal_and_every_one_is_counted(server: Server) -> None:
    """Another id or namespace per call escapes a per-kind count: a principal adds at most DENIAL_ROWS_PER_WINDOW
    rows and one row counting the rest, per window; a new window starts new rows."""
    from hindsight.security.audit import DENIAL_ROWS_PER_WINDOW, DENIAL_WINDOW_S, DENIED_MORE

    headers = server.session(server.reader)
    for n in range(DENIAL_ROWS_PER_WINDOW + 30):
        server.call(headers, "memory_forget", {"memory_id": f"mem_{n}", "namespace": "ops"})
    entries = [e for e in server.audit.entries(10_000) if e.principal == "token:r"]
    assert len(entries) == DENIAL_ROWS_PER_WINDOW + 1  # main: 50
    more = [e for e in entries if e.action == DENIED_MORE]
    assert len(more) == 1 and "forget x30" in more[0].detail and more[0].detail.startswith("[30 times, the last at")
    server.clock.now += DENIAL_WINDOW_S + 1  # the next window: the same denial is a row of its own again
    server.call(headers, "memory_forget", {"memory_id": "mem_0", "namespace": "ops"})
    assert len([e for e in server.audit.entries(10_000) if e.principal == "token:r"]) == DENIAL_ROWS_PER_WINDOW + 2


def test_another_principals_denials_and_allowed_exports_keep_their_rows(server: Server) -> None:
    """One token's flood takes nothing from another's record, and an allowed, audited action is one row each time."""
    reader, writer = server.session(server.reader), server.session(server.writer)
    for _ in range(30):
        server.call(reader, "memory_forget", {"memory_id": "mem_x", "namespace": "ops"})
    server.call(writer, "memory_delete", {"memory_id": "mem_x", "namespace": "ops", "confirm": True})
    assert len(_denials(server, "token:w")) == 1
    for _ in range(3):
        page = httpx.get(f"{server.base}/console/export", params={"ns": "ops"}, timeout=BOUND_S,
                         headers={"authorization": f"Bearer {server.admin}"})
        assert page.status_code == 200
    exports = [e for e in server.audit.entries(10_000) if e.principal == "token:a" and e.outcome == "ok"]
    assert len(exports) == 3


def test_the_count_is_kept_on_the_row_it_belongs_to(tmp_path: Path) -> None:
    """Two kinds of denial of one principal and action at one instant of the clock: each row keeps its own count."""
    from hindsight.storage.factory import open_store

    store = open_store(tmp_path / "m.db")
    try:
        audit = AuditLog(store)
        audit.clock = FakeClock()
        for _ in range(3):
            audit.record("token:r", "memory_get", "denied", "ops", "mem_a", "needs 'read'")
        audit.record("token:r", "memory_get", "denied", "ops", "mem_b", "needs 'read'")
        rows = sorted((e.memory_id, e.detail) for e in audit.entries(100))
        assert rows[0][0] == "mem_a" and rows[0][1].startswith("[3 times")
        assert rows[1] == ("mem_b", "needs 'read'")
    finally:
        store.close()


# ------------------------------------------------------------------ 1. the review queues, namespace by namespace


@pytest.fixture
def reviewed(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, reviewed="rev,rev2")
    try:
        yield running
    finally:
        running.close()


def _propose(server: Server, namespace: str, content: str) -> str:
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService
    from hindsight.security.principal import Actor, Principal, Scope

    review = ReviewService(server.engine, ReviewQueue(server.engine.store), server.engine.settings.reviewed_namespaces)
    writer = Actor(Principal(f"token:w-{namespace}", frozenset({Scope.write}), frozenset({namespace})))
    return str(review.store({"content": content, "namespace": namespace}, writer)["proposal_id"])


def test_another_namespaces_flood_of_proposals_hides_nothing_from_a_reviewer(reviewed: Server) -> None:
    """200 proposals queued in `rev2`, then one in `rev`: on main neither `/review` nor `/console/queues` showed the
    `rev` proposal to `rev`'s admin (the pages read the store's oldest 200 and filtered them); MCP listed it."""
    for n in range(200):
        _propose(reviewed, "rev2", f"Runner {n} of the second team uses build image img-{n}.")
    proposal = _propose(reviewed, "rev", "The release train now leaves every Thursday.")
    admin = reviewed.tokens.create("rv", ["admin"], ["rev"])[0]
    bearer = {"authorization": f"Bearer {admin}"}
    for page in ("/review", "/console/queues"):
        answer = httpx.get(reviewed.base + page, headers=bearer, timeout=BOUND_S)
        assert answer.status_code == 200
        assert proposal in answer.text, page  # main: not on either page
        assert "Runner 1 of the second team" not in answer.text
    listed = reviewed.call(reviewed.session(admin), "memory_review_list", {"namespace": "rev"})
    assert proposal in listed


def test_a_review_decision_outside_the_reviewers_namespaces_is_audited(reviewed: Server) -> None:
    """`rev`'s admin posting an approval of a `rev2` proposal on `/review`: refused (403) on main too, but with no
    audit row; now one, naming the principal, the decision and the namespace. Nothing is applied."""
    import re

    proposal = _propose(reviewed, "rev2", "Runner 7 of the second team uses build image img-7.")
    admin = reviewed.tokens.create("rv", ["admin"], ["rev"])[0]
    bearer = {"authorization": f"Bearer {admin}"}
    page = httpx.get(reviewed.base + "/review", headers=bearer, timeout=BOUND_S).text
    csrf = re.search(r"name='csrf' value='([0-9a-f]+)'", page)
    assert csrf
    answer = httpx.post(f"{reviewed.base}/review/{proposal}/approve", headers={**bearer, "origin": reviewed.base},
                        data={"csrf": csrf.group(1)}, timeout=BOUND_S)
    assert answer.status_code in (403, 409) and "approved" not in answer.text  # refused (how: the next test)
    rows = [e for e in reviewed.audit.entries(100) if e.principal == "token:rv" and e.outcome == "denied"]
    assert len(rows) == 1, rows  # main: none
    assert rows[0].action == "review approve" and rows[0].namespace == "rev2" and proposal in rows[0].detail
    assert reviewed.engine.list("rev2", None, limit=10)[1] == 0
    signed = httpx.post(f"{reviewed.base}/review/login", data={"token": reviewed.reader}, timeout=BOUND_S,
                        headers={"origin": reviewed.base})
    assert signed.status_code == 403
    assert [e.action for e in reviewed.audit.entries(100) if e.principal == "token:r"] == ["review sign-in"]


# ------------------------------------------------------------------ 2. the audit view prints a refused caller's words


def test_the_audit_view_prints_a_refused_callers_words_as_text(server: Server) -> None:
    """A `read` token's refused calls with hostile ids and a refused console path, then `hindsight audit`: on main the
    command failed on the markup (MarkupError) and wrote the ESC sequence raw; now every row shows them as text."""
    from typer.testing import CliRunner

    from hindsight.cli import app

    headers = server.session(server.reader)
    hostile = ["[/bold]", "[link=https://evil.example]mem_ok[/link]"]
    for memory_id in hostile:
        assert "permission_denied" in server.call(headers, "memory_forget", {"memory_id": memory_id, "namespace": "ops"})
    # attack round 38: an id holding a control character is refused by the schema first, naming the field, and never
    # reaches the audit (the ESC sequence still reaches it below, through a refused console path)
    refused = server.call(headers, "memory_forget", {"memory_id": "mem_\x1b[2J\x1b[31mHIDDEN", "namespace": "ops"})
    assert "invalid_input: memory_id" in refused and "HIDDEN" not in refused
    page = httpx.get(f"{server.base}/console/memory/%1b%5b2Jmem%5bred%5d", params={"ns": "bob"}, timeout=BOUND_S,
                     headers={"authorization": f"Bearer {server.reader}"})
    assert page.status_code == 403
    result = CliRunner().invoke(app, ["audit", "--db", str(server.db), "--limit", "20"],
                                env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output[-400:]  # main: MarkupError
    assert "\x1b" not in result.output  # main: the ESC sequence raw
    assert "\\x1b[2Jmem[red]" in result.output and "HIDDEN" not in result.output
    assert "[/bold]" in result.output and "[link=https://evil.example]" in result.output


# ------------------------------------------------------------------ 3. the front door closes WebSocket handshakes


def test_a_websocket_handshake_is_closed_by_the_front_door_before_any_route() -> None:
    """An app with a WebSocket route behind HTTPGuard, a handshake from a rebinding page with no token: on main the
    guard passed the scope on and the route accepted it; now the guard closes it (1008) and the route never runs."""
    import asyncio

    from hindsight.security.http_guard import AuthPolicy, HTTPGuard

    reached: list[str] = []

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        reached.append(str(scope["type"]))
        await send({"type": "websocket.accept"})  # type: ignore[operator]

    class Tokens:
        def verify(self, token: str) -> None:
            return None

    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    guard = HTTPGuard(app, policy=AuthPolicy(Tokens(), mode="required"), allowed_hosts=["127.0.0.1"])  # type: ignore[arg-type]
    scope = {"type": "websocket", "path": "/mcp", "headers": [(b"host", b"evil.example"),
                                                              (b"origin", b"http://evil.example")]}
    asyncio.run(guard(scope, receive, send))  # type: ignore[arg-type]
    assert reached == []  # main: ["websocket"]
    assert sent == [{"type": "websocket.close", "code": 1008}]


# ------------------------------------------------------------------ 4. the call cap reads the cookie as the page does


@pytest.mark.parametrize("cookie", ["hindsight_console={w}; hindsight_console={r}",
                                    "hindsight_review={w}; hindsight_console={r}"])
def test_a_page_counts_against_the_principal_it_is_served_to(tmp_path: Path, cookie: str) -> None:
    """Sessions of `w` and `r` in one Cookie header on a /console page: the page (Starlette) is `r`'s, so the call is
    counted against `r`; on main against `w` (the first live session of either cookie name)."""
    import asyncio

    from starlette.requests import Request

    from hindsight.security.call_cap import CallCap
    from hindsight.security.http_guard import AuthPolicy, HTTPGuard
    from hindsight.security.sessions import SessionStore

    tokens = TokenStore.open(tmp_path / "m.db")
    try:
        w, r = tokens.create("w", ["write"], ["ops"])[0], tokens.create("r", ["read"], ["ops"])[0]
        sessions = SessionStore(tokens.store)
        header = cookie.format(w=sessions.start(w), r=sessions.start(r))
        calls = CallCap(8)
        seen: dict[str, object] = {}

        async def page(scope: dict[str, object], receive: object, send: object) -> None:
            request = Request(scope)  # type: ignore[arg-type]
            seen["served"] = getattr(sessions.principal(request.cookies.get("hindsight_console", "")), "name", None)
            seen["counted"] = {who: calls.in_flight(who) for who in ("token:w", "token:r")}
            await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
            await send({"type": "http.response.body", "body": b""})  # type: ignore[operator]

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b""}

        async def send(message: dict[str, object]) -> None:
            pass

        guard = HTTPGuard(page, policy=AuthPolicy(tokens, mode="required"), allowed_hosts=["127.0.0.1"], calls=calls)
        scope = {"type": "http", "method": "GET", "path": "/console", "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1"), (b"cookie", header.encode())]}
        asyncio.run(guard(scope, receive, send))  # type: ignore[arg-type]
        assert seen["served"] == "token:r"
        assert seen["counted"] == {"token:w": 0, "token:r": 1}  # main: {"token:w": 1, "token:r": 0}
    finally:
        tokens.close()


def test_a_refused_console_path_is_cut_to_a_rows_size(server: Server) -> None:
    """A signed-in reader's refused page with a 12 KB path and `ns`: on main the row kept both whole (24 KB)."""
    page = httpx.get(f"{server.base}/console/memory/{'m' * 6000}", params={"ns": "b" * 6000}, timeout=BOUND_S,
                     headers={"authorization": f"Bearer {server.reader}"})
    assert page.status_code == 403
    row = next(e for e in server.audit.entries(10) if e.principal == "token:r")
    assert len(row.action) <= 200 and len(row.namespace or "") <= 128  # main: 6,023 and 6,000


def test_a_proposal_outside_the_reviewers_namespaces_is_answered_as_a_missing_one(reviewed: Server) -> None:
    """A keyed proposal's id derives from its namespace and idempotency key, so an admin of any namespace can compute
    it: on main `/review` and `/console/queue` answered 403 for a proposal of another namespace and 409 `not_found` for
    none, telling whether `rev2`'s writer used a key. Now both are the same `not_found`; the refusal is still audited."""
    import re

    from hindsight.review.queue import ReviewQueue, keyed_proposal_id
    from hindsight.review.service import ReviewService
    from hindsight.security.principal import Actor, Principal, Scope
    from hindsight.write.idempotency import memory_id_for

    review = ReviewService(reviewed.engine, ReviewQueue(reviewed.engine.store), "rev,rev2")
    writer = Actor(Principal("token:w2", frozenset({Scope.write}), frozenset({"rev2"})))
    review.store({"content": "Runner 9 of the second team uses build image img-9.", "namespace": "rev2"}, writer,
                 idempotency_key="deploy-2026-12-06")
    guessed, missing = (keyed_proposal_id(memory_id_for("rev2", key)) for key in ("deploy-2026-12-06", "deploy-x"))
    assert review.queue.get(guessed).namespace == "rev2"
    admin = reviewed.tokens.create("rv", ["admin"], ["rev"])[0]
    bearer = {"authorization": f"Bearer {admin}", "origin": reviewed.base}
    answers = {}
    for page, action in (("/review", "/review/{}/reject"), ("/console/queues", "/console/queue/{}/reject")):
        csrf = re.search(r"name='csrf' value='([0-9a-f]+)'",
                         httpx.get(reviewed.base + page, headers=bearer, timeout=BOUND_S).text)
        assert csrf
        for name, pid in (("exists", guessed), ("missing", missing)):
            answer = httpx.post(reviewed.base + action.format(pid), headers=bearer, data={"csrf": csrf.group(1)},
                                timeout=BOUND_S)
            answers[page, name] = (answer.status_code, answer.text.replace(pid, "<id>"))
        assert answers[page, "exists"] == answers[page, "missing"], page  # main: 403 against 409
        assert answers[page, "exists"][0] == 409 and "not_found" in answers[page, "exists"][1]
    assert review.queue.get(guessed).status == "pending"
    denied = [e for e in reviewed.audit.entries(100) if e.principal == "token:rv" and e.outcome == "denied"]
    assert len(denied) == 2 and {e.namespace for e in denied} == {"rev2"}
