"""The HTTP front door: Host/Origin allow-list (DNS rebinding) and the bearer-token decision, per request.

One ASGI middleware wraps every route of the HTTP transport (the MCP endpoint, the /review console and
anything added later), so no route can be reached before these checks (a WebSocket handshake is closed here: no
route speaks it, and one added later would otherwise be served past every check below):

0. A header these checks read (``Host``, ``Origin``, ``Authorization``, ``Sec-Fetch-Site``, ``Content-Length``)
   may come once: two of them are 400 (attack round 18: this guard read the last ``Authorization`` and the last
   ``Origin`` while the pages read the first, so a request with two tokens was judged on one and could be served
   as the other, and ``Origin: evil, Origin: good`` passed the allow-list).
1. ``Host`` must name an allowed host (default: the loopback names and the bind address), else 421;
   a browser page on ``evil.example`` that rebinds its name to 127.0.0.1 still sends ``Host: evil.example``.
2. ``Origin``, when present, must be http(s) on an allowed host, else 403 (a cross-site page cannot drive
   the server even when its Host header is right).
3. On the MCP endpoint the auth mode is decided now, not at startup: ``required``, ``off`` (loopback only), or
   ``auto`` (open until the first token is created in the database, by any process; from then on every request
   needs a live bearer token, even if the tokens are later revoked). A missing or unknown token is 401.
   The principal is put in the ASGI scope (``PRINCIPAL_KEY``) where the tool gate reads it.
4. A form post to any other route must declare a ``Content-Length`` of at most ``MAX_FORM_BYTES`` (411 / 413),
   before the page reads it (the sign-in form is read before anyone is signed in).
5. A principal holding ``HINDSIGHT_MAX_SESSIONS_PER_TOKEN`` open MCP sessions is refused a new one (429,
   ``security/session_cap.py``; attack round 27: the SDK kept every session a token opened for 30 idle minutes), and
   a session is served to the principal that opened it only (404 to another: as `serve` runs, FastMCP has no auth of
   its own, so the SDK's check of a session's owner was off and any token could use or end another's session).
   When the server holds the SDK's limit of sessions (which the SDK enforces with a 503 to everyone), a new one ends
   the least recently used session of the token holding the most (attack round 28: three tokens at the per-token
   cap starved every other token).
6. A principal with ``HINDSIGHT_MAX_CALLS_PER_TOKEN`` calls in flight (MCP requests that do work, pages it loads
   with its token or sign-in) is refused one more before it takes a worker thread: 429 with ``Retry-After`` and a
   typed ``too_many_calls`` error (``security/call_cap.py``; attack round 30: one token's slow calls held the
   shared thread pool). Only when a token names the caller: with auth off every caller is the one local owner.
7. The token check reads the store on the front door's own worker threads, never on the event loop; a store that
   fails transiently while a request is checked or served, before its answer starts (PostgreSQL down or
   restarting), is 503 ``storage_unavailable`` with ``Retry-After`` (``security/refusals.py``; attack round 43: a
   500, and each request held the whole server for the pool's 30 s wait).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
from starlette.requests import cookie_parser

from hindsight.errors import StorageError
from hindsight.security.call_cap import (
    CALL_SLOT_KEY,
    RETRY_AFTER_S,
    CallCap,
    CallSlot,
    counts_as_call,
    parsed_message,
    read_body,
)
from hindsight.security.principal import LOCAL_OWNER, Principal
from hindsight.security.refusals import refuse, refuse_rpc, retry_after, store_unavailable, transient
from hindsight.security.session_cap import SessionCap
from hindsight.security.sessions import SessionStore
from hindsight.security.tokens import TokenStore

AuthMode = Literal["auto", "required", "off"]
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
PRINCIPAL_KEY = "hindsight.principal"
#: headers a request may carry once (step 0): the checks below read them, and so do the pages and the MCP layer
SINGLE_HEADERS = (b"host", b"origin", b"authorization", b"sec-fetch-site", b"content-length")
#: The largest body a page's form (console, /review) may post; a memory edit with 20,000 CJK characters and full
#: metadata is under 300 KB encoded. The MCP endpoint has its own limit (`MAX_MCP_BYTES`).
MAX_FORM_BYTES = 1 << 20
#: The largest body `/mcp` takes: the MCP SDK's own limit (`mcp.server.transport_security`), refused here first as a
#: JSON-RPC error a client can read (attack round 20: the SDK's plain-text 413 reached clients as "Server returned
#: an error response", which the resilient client took for no answer and retried for ever, holding every later
#: write of its queue behind it).
MAX_MCP_BYTES = 4 * 1024 * 1024

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")
#: worker threads the front door's token checks may hold at once (attack round 43: off the event loop, and apart
#: from the tool calls' pool, so a flood of requests during a database outage waits here, not in the tools' threads)
FRONT_DOOR_THREADS = 8


def parse_hosts(raw: str | Iterable[str] | None) -> frozenset[str]:
    """'a.example, 10.0.0.5' -> {'a.example', '10.0.0.5'} (lower case, brackets and ports dropped)."""
    items = (raw.split(",") if isinstance(raw, str) else list(raw)) if raw else []
    return frozenset(_hostname(i.strip()) for i in items if i and i.strip())


def _hostname(authority: str) -> str:
    """The host part of 'host:port', '[::1]:8765' or 'host', lower case, without brackets."""
    value = authority.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value  # a bare IPv6 address or a plain name


def is_loopback(host: str) -> bool:
    name = _hostname(host)
    if name in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class AuthPolicy:
    """Whether a request needs a bearer token, decided when it arrives."""

    def __init__(self, tokens: TokenStore, mode: AuthMode = "auto", loopback_only: bool = True) -> None:
        self.tokens = tokens
        # off the loopback interface there is no "open" mode: auto means required
        self.mode: AuthMode = mode if loopback_only or mode == "required" else "required"

    def required(self) -> bool:
        if self.mode == "auto":
            return self.tokens.any_created()
        return self.mode == "required"

    def describe(self) -> str:
        if self.mode == "required":
            return "bearer tokens required"
        if self.mode == "off":
            return "no auth (loopback only)"
        if self.required():  # the banner said "the first token created closes it" when tokens already had
            return "auth auto: tokens required (this store has tokens; revoking them never reopens it)"
        return "auth auto, decided per request: open now (no token exists yet); the first token created closes it at once"


class HTTPGuard:
    """ASGI middleware: Host/Origin allow-list on every route, the auth decision on the MCP endpoint."""

    def __init__(self, app: ASGIApp, policy: AuthPolicy, allowed_hosts: Iterable[str],
                 mcp_path: str = "/mcp", sessions: SessionCap | None = None, calls: CallCap | None = None) -> None:
        self.app = app
        self.policy = policy
        self.allowed = frozenset(_hostname(h) for h in allowed_hosts)
        self.mcp_path = mcp_path.rstrip("/")
        self.sessions = sessions if sessions is not None else SessionCap()
        self.calls = calls if calls is not None else CallCap()
        self._sign_ins: SessionStore | None = None
        self._limiter: anyio.CapacityLimiter | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # no route speaks it, and none may be reached past these checks (attack
            await send({"type": "websocket.close", "code": 1008})  # round 32: the guard passed it on unchecked)
            return
        if scope["type"] != "http":  # lifespan
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._http(scope, receive, tracked)
        except StorageError as exc:  # attack round 43: a store outage while checking or serving was a 500
            if started or not transient(exc):
                raise
            await store_unavailable(tracked, self._is_mcp(str(scope.get("path", ""))), exc)

    def _is_mcp(self, path: str) -> bool:
        return path == self.mcp_path or path.startswith(self.mcp_path + "/")

    async def _off_loop(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on one of the front door's own worker threads: the token check reads the store, which
        may wait up to the pool's 30 s while PostgreSQL is down (attack round 43: on the event loop that wait held
        every request of the server, one after another); its own limiter, so it never takes a tool call's thread."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(FRONT_DOOR_THREADS)
        return await anyio.to_thread.run_sync(call, *args, limiter=self._limiter)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        repeated = _repeated(scope.get("headers", []))
        if repeated is not None:
            await refuse(send, 400, "invalid_request", f"the request carries more than one {repeated} header; "
                                                        "send it once")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if not host or _hostname(host) not in self.allowed:
            await refuse(send, 421, "misdirected_request", f"Host '{host[:100]}' is not an allowed host of this "
                                                            "server (see --allowed-hosts / HINDSIGHT_ALLOWED_HOSTS)")
            return
        origin = headers.get("origin")
        if origin is not None and not self._origin_ok(origin):
            await refuse(send, 403, "forbidden_origin", f"Origin '{origin[:100]}' is not allowed")
            return
        path = str(scope.get("path", ""))
        is_mcp = self._is_mcp(path)
        if not is_mcp and scope.get("method", "GET") not in ("GET", "HEAD") and not _same_origin(headers, host):
            # the pages' forms (console, /review) are same-origin only: another port on the same host is the same
            # *site* to a browser (its SameSite cookies go along), so the port is checked too
            await refuse(send, 403, "forbidden_origin", "a form may only be posted from this server's own pages")
            return
        if not is_mcp and scope.get("method", "GET") not in ("GET", "HEAD"):
            # a page's form is read into memory before any sign-in is checked (the console login itself is a
            # form): bound it here, or one unauthenticated post of 1,000 fields of 1 MB holds a GB (attack round 7)
            length = headers.get("content-length", "")
            if not length.isdigit():
                await refuse(send, 411, "length_required", "a form post must declare its Content-Length")
                return
            if int(length) > MAX_FORM_BYTES:
                await refuse(send, 413, "payload_too_large",
                              f"a form post may carry at most {MAX_FORM_BYTES} bytes (Content-Length {length[:20]})")
                return
        if is_mcp:
            required, principal = await self._off_loop(self._mcp_caller, headers.get("authorization", ""))
            if principal is None:
                await refuse(send, 401, "invalid_token", "a live bearer token is required",
                              [(b"www-authenticate", b'Bearer error="invalid_token"')])
                return
            scope[PRINCIPAL_KEY] = principal
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > MAX_MCP_BYTES:
                await refuse_rpc(send, 413, f"invalid_input: request: the body is {length[:20]} bytes; rule: an MCP "
                                             f"request carries at most {MAX_MCP_BYTES} bytes (send less content)")
                return
            if scope.get("method") == "POST" and required:
                body, receive = await read_body(receive, MAX_MCP_BYTES)
                if counts_as_call(body):
                    slot = self.calls.admit(principal.name)
                    if slot is None:
                        await self._too_many_calls(send, principal.name, body)
                        return
                    scope[CALL_SLOT_KEY] = slot  # the tool call holds it too (server/held_calls.py)
                    try:
                        await self._counted(scope, receive, send, principal.name, headers.get("mcp-session-id"))
                    finally:
                        slot.drop()
                    return
            await self._counted(scope, receive, send, principal.name, headers.get("mcp-session-id"))
            return
        caller = await self._off_loop(self._page_caller, headers, path) if not path.startswith("/console/static/") \
            else None
        page_slot: CallSlot | None = None
        if caller is not None:
            page_slot = self.calls.admit(caller)
            if page_slot is None:
                await refuse(send, 429, "too_many_calls", self.calls.refusal(caller), retry_after())
                return
        try:
            await self.app(scope, receive, send)
        finally:
            if page_slot is not None:
                page_slot.drop()

    def _page_caller(self, headers: dict[str, str], path: str) -> str | None:
        """Whom a page request counts against: its bearer token's or sign-in cookie's principal (None with auth off,
        or for a visitor not signed in, who is shown the sign-in form without a worker thread). The cookie is read
        as the page reads it (attack round 32: this took the first live session of either console's cookie while
        the page, Starlette, takes the last of its own name, so a page served to one principal counted against
        another's cap)."""
        if not self.policy.required():
            return None
        header = headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            verified = self.policy.tokens.verify(header[7:].strip())
            return verified.name if verified is not None else None
        cookies = headers.get("cookie", "")
        if "hss_" not in cookies:
            return None
        if self._sign_ins is None:
            self._sign_ins = SessionStore(self.policy.tokens.store)
        name = "hindsight_review" if path == "/review" or path.startswith("/review/") else "hindsight_console"
        session = cookie_parser(cookies).get(name, "")
        who = self._sign_ins.principal(session) if session else None
        return who.name if who is not None else None

    async def _too_many_calls(self, send: Send, who: str, body: bytes) -> None:
        """429 for a call over `who`'s cap: a JSON-RPC error with the request's id, the limit in its data."""
        message = parsed_message(body)
        request_id = message.get("id") if isinstance(message, dict) else None
        request_id = request_id if isinstance(request_id, (int, str)) and not isinstance(request_id, bool) else None
        data = {"retry_after": RETRY_AFTER_S, "limit": self.calls.limit, "in_flight": self.calls.in_flight(who)}
        await refuse_rpc(send, 429, self.calls.refusal(who), retry_after(), data, request_id)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, who: str, session_id: str | None) -> None:
        """Serve an MCP request, counting the sessions `who` holds open (security/session_cap.py, step 5)."""
        method = scope.get("method", "GET")
        owner = self.sessions.owner(session_id) if session_id is not None else None
        if owner is not None and owner != who:  # as the SDK answers it when its own auth is on (serve runs this
            await refuse_rpc(send, 404, "Session not found")  # guard instead): a session is its opener's
            return
        opening = session_id is None and method == "POST"
        if opening and not self.sessions.admit(who):
            await refuse_rpc(send, 429, f"too_many_sessions: {who} holds {self.sessions.held(who)} open MCP "
                                         "sessions, the most one token may hold (HINDSIGHT_MAX_SESSIONS_PER_TOKEN); "
                                         "reuse one (its mcp-session-id) or end one (DELETE /mcp), or wait until one "
                                         "has been idle for 30 minutes")
            return
        victim = None
        if opening and self.sessions.full():  # the SDK would refuse everyone (503): the biggest holder makes room
            victim = self.sessions.victim(who)
            if victim is None:
                await refuse_rpc(send, 429, f"too_many_sessions: the server holds its most open MCP sessions "
                                             f"({self.sessions.server_limit}) and {who} holds as many as any other "
                                             "token; reuse one (its mcp-session-id) or end one (DELETE /mcp)")
                return
        if opening:
            self.sessions.reserve(who)  # counted now: concurrent initialize calls cannot pass the cap together
        elif session_id is not None:
            self.sessions.enter(session_id)  # a request in flight (an open GET stream) keeps its session alive

        async def watched(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])
                answered = next((v.decode("latin-1") for k, v in message.get("headers", [])
                                 if k.lower() == b"mcp-session-id"), None)
                if session_id is None and answered is not None and status < 400:
                    self.sessions.opened(who, answered)
                elif (session_id is not None and self.sessions.owner(session_id) == who
                      and (status == 404 or (method == "DELETE" and status < 400))):
                    self.sessions.closed(session_id)  # ended, or the SDK no longer has it (only its owner's
                    # request says so: another token is answered 404 for a session that lives on)
                elif session_id is not None:
                    self.sessions.seen(session_id)
            await send(message)

        try:
            if victim is not None:
                await self._end_session(scope, victim)
            await self.app(scope, receive, watched)
        finally:
            if opening:
                self.sessions.release(who)
            elif session_id is not None:
                self.sessions.leave(session_id)

    async def _end_session(self, scope: Scope, session_id: str) -> None:
        """End a session in the SDK as its client would (`DELETE /mcp` with its id), answered to no one."""
        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() == b"host"]
        ending = {**scope, "method": "DELETE", "headers": [*headers, (b"mcp-session-id", session_id.encode())],
                  "query_string": b"", "state": {}}
        ending.pop(PRINCIPAL_KEY, None)

        async def nothing() -> MutableMapping[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def dropped(message: MutableMapping[str, Any]) -> None:
            return None

        await self.app(ending, nothing, dropped)

    def _origin_ok(self, origin: str) -> bool:
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and _hostname(parts.netloc) in self.allowed

    def _mcp_caller(self, header: str) -> tuple[bool, Principal | None]:
        """Whether a token is required now, and the principal of the request (None: no live token)."""
        if not self.policy.required():
            return False, LOCAL_OWNER
        if not header.lower().startswith("bearer "):
            return True, None
        return True, self.policy.tokens.verify(header[7:].strip())


def _repeated(raw: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The name of the first header of SINGLE_HEADERS the request carries twice, else None."""
    seen: set[bytes] = set()
    for key, _ in raw:
        name = key.lower()
        if name in SINGLE_HEADERS:
            if name in seen:
                return name.decode().title()
            seen.add(name)
    return None


def _same_origin(headers: dict[str, str], host: str) -> bool:
    """A browser's POST from this very origin (scheme-less: host and port), or a request no browser made."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser form post (browsers send Origin with every POST)
    return urlsplit(origin).netloc.lower() == host.lower()


def default_allowed_hosts(bind_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names, the bind address (unless it is a wildcard), plus the configured names."""
    hosts = set(LOOPBACK_HOSTS) | set(parse_hosts(extra))
    if bind_host not in ("0.0.0.0", "::", ""):
        hosts.add(_hostname(bind_host))
    return frozenset(hosts)
