"""The web console under /console: sign-in, sessions, CSRF, language, layout and static files.

Same tokens as the MCP endpoint. A person signs in once with a token (read scope browses, write edits, admin
decides queues); the sign-in opens a server-side session (security/sessions.py) whose opaque id, never the token,
is kept in an HttpOnly, SameSite=Strict cookie scoped to /console; sign-out ends it on every server; every form
carries a per-session CSRF token (an HMAC of the session under the store's console secret, kept once per store
so every server behind one load balancer accepts the others' forms), so a cross-site page can neither send the
cookie nor forge the field. Over https the cookie is also Secure (cookies.py). Without tokens (auth off, loopback
only) the visitor is the local owner, and forms still need the CSRF field. Every stored text is escaped; the CSP forbids inline script and style
and any outside origin, so the pages load nothing but /console/static.

Pages live in pages_browse.py (search, memory page), pages_queues.py and pages_health.py; each is a thin layer
over the engine and the review service.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import parse_qs, quote, urlencode

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from hindsight.console.cookies import csrf_matches, over_https, set_session_cookie
from hindsight.console.i18n import LANGS, t, word
from hindsight.console.safe import shown, visible
from hindsight.security.audit import AuditLog
from hindsight.security.principal import LOCAL_OWNER, Principal, Scope
from hindsight.security.sessions import SessionStore
from hindsight.security.tokens import TokenStore


def _run_apart(handler: Callable[[Request, Ctx], Awaitable[Response]], request: Request, ctx: Ctx) -> Response:
    """Run a page handler to its end on an event loop of this worker thread (its awaits read no more input)."""
    async def run() -> Response:
        return await handler(request, ctx)

    return asyncio.run(run())


R = TypeVar("R", bound=Response)
COOKIE = "hindsight_console"
LANG_COOKIE = "hindsight_lang"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
# an inline icon: without one every first page load logs a 404 for /favicon.ico in the browser's console
FAVICON = "data:,"
STATIC = {"console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8"}


@dataclass
class Ctx:
    """Who is looking, in which language, and the CSRF token their forms must carry."""

    who: Principal
    lang: str
    csrf: str
    path: str = "/console"
    notes: list[str] = field(default_factory=list)

    def t(self, key: str) -> str:
        return t(self.lang, key)

    def word(self, value: str) -> str:
        """A stored value (status, type, source, history action) in the page's language; unknown ones as they are."""
        return word(self.lang, value)

    def can(self, scope: Scope, namespace: str | None) -> bool:
        return self.who.allows(scope, namespace)

    def form(self, action: str, inner: str, css: str = "") -> str:
        """A POST form with the CSRF field."""
        return (f"<form method='post' action='{escape(action)}'{f' class={css!r}' if css else ''}>"
                f"<input type='hidden' name='csrf' value='{self.csrf}'>{inner}</form>")


def memory_href(memory_id: str, namespace: str) -> str:
    return f"/console/memory/{quote(memory_id, safe='')}?{urlencode({'ns': namespace})}"


class ConsoleApp:
    """Holds what the pages share; `route` registers a handler on the FastMCP HTTP app (same middleware as /mcp)."""

    def __init__(self, mcp: Any, tokens: TokenStore | None, required: Callable[[], bool] | None = None,
                 audit: AuditLog | None = None, secret: bytes | None = None) -> None:
        self.mcp = mcp
        self.tokens = tokens
        # sign-ins are server-side sessions: the cookie holds an opaque id, never the token (security/sessions.py)
        self.sessions = SessionStore(tokens.store) if tokens is not None else None
        self.audit = audit  # every refusal (403) is recorded, as the MCP gate records its denials
        self._required = required  # decided per request (auth auto: from the first token on), else always
        # shared by every server of one store (mount_web_console passes the store's kept secret); else per process
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    # ------------------------------------------------------------------ session
    def _token(self, request: Request) -> str:
        """The bearer token of the Authorization header, else the cookie's opaque session id (never a token)."""
        header = request.headers.get("authorization", "")
        return header[7:].strip() if header.lower().startswith("bearer ") else request.cookies.get(COOKIE, "")

    def auth_on(self) -> bool:
        return self.tokens is not None and (self._required is None or self._required())

    def principal(self, request: Request) -> Principal | None:
        if not self.auth_on() or self.tokens is None:
            return LOCAL_OWNER
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return self.tokens.verify(header[7:].strip())
        session = request.cookies.get(COOKIE, "")
        return self.sessions.principal(session) if session and self.sessions is not None else None

    def csrf_for(self, request: Request) -> str:
        session = self._token(request) if self.auth_on() else "local"
        return hmac.new(self._secret, session.encode(), hashlib.sha256).hexdigest()[:40]

    def lang(self, request: Request) -> str:
        wanted = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE, "")
        if wanted in LANGS:
            return wanted
        return "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"

    def remember_lang(self, request: Request, response: R) -> R:
        """A page asked for with ?lang=zh keeps that language on the pages after it (ux round 45: the sign-in
        page and every form's redirect fell back to English), as the toggle does."""
        wanted = request.query_params.get("lang", "")
        if wanted in LANGS and request.cookies.get(LANG_COOKIE) != wanted:
            response.set_cookie(LANG_COOKIE, wanted, samesite="strict", path="/console", max_age=365 * 86400,
                                secure=over_https(request))
        return response

    def ctx(self, request: Request) -> Ctx | None:
        who = self.principal(request)
        if who is None:
            return None
        kept = urlencode([(k, v) for k, v in request.query_params.multi_items() if k not in ("done", "proposed", "lang")])
        return Ctx(who, self.lang(request), self.csrf_for(request), request.url.path + (f"?{kept}" if kept else ""))

    async def checked_form(self, request: Request, ctx: Ctx) -> dict[str, str] | None:
        """The posted fields, or None when the CSRF field is missing or wrong."""
        form = await request.form()
        fields = {k: str(v) for k, v in form.items()}
        if not csrf_matches(fields.get("csrf", ""), ctx.csrf):
            return None
        return fields

    # ------------------------------------------------------------------ layout
    def page(self, ctx: Ctx, title: str, body: str, status: int = 200) -> HTMLResponse:
        other = "zh" if ctx.lang == "en" else "en"
        toggle = f"/console/lang?{urlencode({'to': other, 'next': ctx.path})}"
        nav = "".join(f"<a href='{href}' accesskey='{key}'>{ctx.t(label)}</a>" for href, key, label in (
            ("/console", "b", "nav_browse"), ("/console/queues", "q", "nav_queues"),
            ("/console/health", "h", "nav_health")))
        sign_out = ("" if not self.auth_on() else ctx.form("/console/logout", f"<button>{ctx.t('sign_out')}</button>"))
        notes = "".join(f"<div class='flash'>{escape(n)}</div>" for n in ctx.notes)
        html = (f"<!doctype html><html lang='{'zh-CN' if ctx.lang == 'zh' else 'en'}'><head><meta charset='utf-8'>"
                f"<meta name='viewport' content='width=device-width,initial-scale=1'><title>{escape(visible(title))} · "
                f"{ctx.t('title')}</title><link rel='icon' href='{FAVICON}'><link rel='stylesheet' href='/console/static/console.css'>"
                "</head><body>"
                f"<header><span class='brand'>{ctx.t('title')}</span><nav>{nav}</nav><span class='right'>"
                f"{ctx.t('signed_in_as')} <b>{escape(ctx.who.name)}</b> · <a href='{escape(toggle)}' id='lang'>"
                f"{ctx.t('lang_other')}</a></span>{sign_out}</header><main><h1>{escape(visible(title))}</h1>{notes}{body}"
                f"<p class='kbd'>{ctx.t('keys')}</p></main><script src='/console/static/console.js'></script>"
                "</body></html>")
        return HTMLResponse(html, status_code=status, headers=response_headers())

    def login_page(self, request: Request, message_key: str = "sign_in_help", status: int = 401) -> HTMLResponse:
        lang = self.lang(request)
        html = (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><meta name='viewport' "
                f"content='width=device-width,initial-scale=1'><title>{t(lang, 'sign_in')}</title><link rel='icon' href='{FAVICON}'>"
                "<link rel='stylesheet' href='/console/static/console.css'></head><body><main>"
                f"<h1>{t(lang, 'title')}</h1><p>{t(lang, message_key)}</p>"
                "<form method='post' action='/console/login'><input type='password' name='token' id='token' "
                "autocomplete='off' placeholder='hs_...' size='48' autofocus> "
                f"<button class='primary'>{t(lang, 'sign_in')}</button></form></main></body></html>")
        return self.remember_lang(request, HTMLResponse(html, status_code=status, headers=response_headers()))

    def error(self, ctx: Ctx, message: str, status: int) -> HTMLResponse:
        if status == 403 and self.audit is not None:
            path, _, query = ctx.path.partition("?")
            namespace = parse_qs(query).get("ns", [None])[0]
            self.audit.record(ctx.who.name, f"console {path}", "denied", namespace, None, message[:500])
        return self.page(ctx, ctx.t("title"), f"<div class='error'>{shown(message)}</div>"
                                              f"<p><a href='/console'>{ctx.t('back')}</a></p>", status)

    # ------------------------------------------------------------------ routing
    def route(self, path: str, methods: list[str],
              handler: Callable[[Request, Ctx], Awaitable[Response]]) -> None:
        """Register a page: unauthenticated visitors get the sign-in form; POSTs must carry the CSRF field."""

        async def endpoint(request: Request) -> Response:
            ctx = self.ctx(request)
            if ctx is None:
                return self.login_page(request)
            if "done" in request.query_params:
                ctx.notes.append(ctx.t("done"))
            if "proposed" in request.query_params:
                ctx.notes.append(ctx.t("proposed_note"))
            if request.method == "POST":
                await request.form()  # read here, on the server's loop; Starlette keeps it for the handler
            # the page's engine work (a search, a history of diffs) runs on a worker thread: on the server's event
            # loop a slow page held every other request of the process, /mcp included (attack round 19)
            return self.remember_lang(request, await anyio.to_thread.run_sync(_run_apart, handler, request, ctx))

        self.mcp.custom_route(path, methods=methods, include_in_schema=False)(endpoint)

    def post(self, path: str, handler: Callable[[Request, Ctx, dict[str, str]], Awaitable[Response]]) -> None:
        """Register a form action: refused with 403 unless the CSRF field matches the session."""

        async def checked(request: Request, ctx: Ctx) -> Response:
            fields = await self.checked_form(request, ctx)
            if fields is None:
                return self.error(ctx, ctx.t("bad_form"), 403)
            return await handler(request, ctx, fields)

        self.route(path, ["POST"], checked)

    def mount_basics(self) -> None:
        """Sign-in, sign-out, the language toggle and the two static files."""
        mcp = self.mcp

        @mcp.custom_route("/console/login", methods=["POST"], include_in_schema=False)
        async def login(request: Request) -> Response:
            token = str((await request.form()).get("token", "")).strip()
            if not self.auth_on() or self.tokens is None:
                return RedirectResponse("/console", status_code=303)
            if not token or self.tokens.verify(token) is None:
                return self.login_page(request, "bad_token", 403)
            response = RedirectResponse("/console", status_code=303)
            if self.sessions is not None:
                set_session_cookie(response, request, COOKIE, self.sessions.start(token), "/console")
            return response

        async def logout(request: Request, ctx: Ctx, fields: dict[str, str]) -> Response:
            if self.sessions is not None:  # the session ends on every server, whatever the browser keeps
                self.sessions.end(request.cookies.get(COOKIE, ""))
            response = RedirectResponse("/console", status_code=303)
            response.delete_cookie(COOKIE, path="/console", secure=over_https(request), httponly=True, samesite="strict")
            return response

        self.post("/console/logout", logout)

        @mcp.custom_route("/console/lang", methods=["GET"], include_in_schema=False)
        async def language(request: Request) -> Response:
            lang = request.query_params.get("to", "en")
            target = request.query_params.get("next", "/console")
            if not target.startswith("/console") or "//" in target or "\\" in target:
                target = "/console"
            response = RedirectResponse(target, status_code=303)
            if lang in LANGS:
                response.set_cookie(LANG_COOKIE, lang, samesite="strict", path="/console", max_age=365 * 86400,
                                    secure=over_https(request))
            return response

        @mcp.custom_route("/console/static/{name}", methods=["GET"], include_in_schema=False)
        async def static(request: Request) -> Response:
            name = request.path_params["name"]
            if name not in STATIC:
                return Response("not found", status_code=404)
            body = resources.files("hindsight.console").joinpath("static", name).read_bytes()
            return Response(body, media_type=STATIC[name], headers={"Cache-Control": "max-age=300",
                                                                     "X-Content-Type-Options": "nosniff"})


def response_headers() -> dict[str, str]:
    """The headers every console page carries (no caching, no framing, the CSP)."""
    return {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}
