"""The review web console: one server-rendered page where a person approves or rejects agent changes.

Served by the MCP server's HTTP transport next to /mcp (FastMCP custom routes):

* ``GET /review``: the pending queue (oldest first) of every namespace the
  reviewer administers, each proposal next to the memory it would change, plus
  the latest decisions;
* ``POST /review/<proposal_id>/approve`` or ``/reject`` (form fields ``note``, ``csrf`` and, for an approval,
  ``version``: the memory's version the page showed, so an edit made since is a ``version_conflict``):
  decide, then back to the list;
* ``POST /review/logout`` (field ``csrf``): ends the session on every server of the store;
* ``POST /review/login`` (form field ``token``): when the server requires bearer
  tokens, a reviewer signs in with an admin token once; it opens a server-side
  session whose opaque id (never the token) is kept in an HttpOnly, SameSite=Strict cookie (a cross-site form cannot carry it), Secure
  when the request came over https. An
  ``Authorization: Bearer`` header works too.

Without tokens (loopback, auth off) the reviewer is the local owner. Everything
shown is escaped; the page needs no JavaScript. It speaks English or Chinese (``?lang=zh``, remembered in a
cookie for /review, else the browser's Accept-Language), with the words of the main console (console/i18n.py).
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from hindsight.console.cookies import csrf_matches, over_https, set_session_cookie
from hindsight.console.i18n import LANGS, t, word
from hindsight.console.safe import shown
from hindsight.errors import HindsightError
from hindsight.review.queue import Proposal, ProposalNotFoundError
from hindsight.review.separation import console_reviewer, may_approve
from hindsight.review.service import ReviewService
from hindsight.security.audit import AuditLog
from hindsight.security.principal import LOCAL_OWNER, Principal, Scope
from hindsight.security.sessions import SessionStore
from hindsight.security.tokens import TokenStore

COOKIE = "hindsight_review"
LANG_COOKIE = "hindsight_review_lang"

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}.muted{color:#666;font-size:.9rem}
.card{border:1px solid #ccc;border-radius:6px;padding:.8rem 1rem;margin:.8rem 0}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1rem}pre{white-space:pre-wrap;margin:.3rem 0;
background:#f6f6f6;padding:.5rem;border-radius:4px}.approve{background:#1a7f37;color:#fff}
.reject{background:#b42318;color:#fff}button{border:0;border-radius:4px;padding:.35rem .9rem;cursor:pointer}
input[type=text]{width:60%}.tag{font-size:.8rem;border:1px solid #999;border-radius:3px;padding:0 .3rem}
"""


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d %H:%M UTC") if ts else ""

#: what every /review page carries (attack round 18: only no-store and X-Frame-Options, no CSP): the page runs no
#: script at all and its style is inline, so the policy allows inline style only; forms post to this origin only
REVIEW_HEADERS = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
                  "Referrer-Policy": "same-origin",
                  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                                             "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"}


def _pre(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2, default=str)
    return f"<pre>{shown(text)}</pre>"


def _page(title: str, body: str, status: int = 200, lang: str = "en") -> HTMLResponse:
    other = "zh" if lang == "en" else "en"
    toggle = f"<p class='muted'><a href='/review?lang={other}' id='lang'>{t(lang, 'lang_other')}</a></p>"
    return HTMLResponse(
        f"<!doctype html><html lang='{'zh-CN' if lang == 'zh' else 'en'}'><head><meta charset='utf-8'><title>"
        f"{html.escape(title)}</title><link rel='icon' href='data:,'><style>{_STYLE}</style></head><body>{toggle}{body}</body></html>",
        status_code=status, headers=REVIEW_HEADERS)


def _login(key: str, status: int, lang: str = "en") -> HTMLResponse:
    return _page(t(lang, "rv_sign_in_title"), (
        f"<h1>{t(lang, 'rv_title')}</h1><p>{t(lang, key)}</p>"
        "<form method='post' action='/review/login'><input type='password' name='token' "
        f"placeholder='{t(lang, 'rv_token_hint')}' size='48'> <button>{t(lang, 'sign_in')}</button></form>"
    ), status, lang)


def review_lang(request: Request) -> str:
    """?lang=, else the /review language cookie, else the browser's Accept-Language (as on /console)."""
    wanted = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE, "")
    if wanted in LANGS:
        return wanted
    return "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"


def _csrf_field(csrf: str) -> str:
    return f"<input type='hidden' name='csrf' value='{html.escape(csrf)}'>"


def _proposal_card(view: dict[str, Any], csrf: str = "", own: bool = False, lang: str = "en") -> str:
    p = view
    proposed = p["payload"]
    if p["action"] == "store":
        change = _pre(proposed.get("content", "")) + _pre({k: v for k, v in proposed.items()
                                                          if k in ("type", "tags", "context", "importance", "source")})
    elif p["action"] == "update":
        change = _pre(proposed)
    elif p["action"] == "consolidate":
        change = f"<p>{t(lang, 'rv_consolidate')}</p>"
    else:
        change = (f"<p>{t(lang, 'rv_forget')}: "
                  f"{shown(str(proposed.get('reason', '')) or t(lang, 'rv_no_reason'))}</p>")
    current = ""
    if p["action"] in ("update", "forget"):
        memory = p.get("current")
        current = (f"<div><b>{t(lang, 'rv_now')}</b>" + (
            _pre(memory["content"]) + f"<span class='muted'>{html.escape(word(lang, memory['type']))}"
            f" · {html.escape(word(lang, memory['status']))}</span>" if memory else
            f"<p>{t(lang, 'rv_gone')}</p>") + "</div>")
    pid = html.escape(p["id"])
    version = (f"<input type='hidden' name='version' value='{html.escape(p['current_version'])}'>"
               if p.get("current_version") else "")  # approving over a later edit is a version_conflict
    return (
        f"<div class='card'><div><span class='tag'>{html.escape(word(lang, p['action']))}</span> "
        f"<b>{html.escape(p['namespace'])}</b> · {t(lang, 'rv_proposed_by')} {html.escape(p['proposed_by'])} · "
        f"<span class='muted'>{_when(p['proposed_at'])} · {pid}</span></div>"
        + (f"<p class='muted'>{t(lang, 'rv_why')}: {shown(p['reason'])}</p>" if p["reason"] else "")
        + f"<div class='grid'>{current}<div><b>{t(lang, 'rv_proposed')}</b>{change}</div></div>"
        + (f"<p class='muted own-proposal'>{t(lang, 'own_proposal')}</p>"
           if own else  # the proposer never approves its own change (review/separation.py)
           f"<form method='post' action='/review/{pid}/approve' style='display:inline'>{_csrf_field(csrf)}{version}"
           f"<input type='text' name='note' placeholder='{t(lang, 'rv_note')}'> "
           f"<button class='approve'>{t(lang, 'approve')}</button></form> ")
        + f"<form method='post' action='/review/{pid}/reject' style='display:inline'>{_csrf_field(csrf)}"
        f"<input type='text' name='note' placeholder='{t(lang, 'rv_reject_note')}'> <button class='reject'>"
        f"{t(lang, 'reject')}</button></form></div>"
    )


def _decided_row(p: Proposal, lang: str = "en") -> str:
    return (f"<li>{html.escape(word(lang, p.status))} · {html.escape(word(lang, p.action))} {t(lang, 'rv_in')} "
            f"<b>{html.escape(p.namespace)}</b> {t(lang, 'rv_by')} "
            f"{html.escape(p.reviewed_by or '')} <span class='muted'>{_when(p.reviewed_at)} · {html.escape(p.id)}"
            f"{' · ' + shown(p.review_note) if p.review_note else ''}</span></li>")


def mount_console(mcp: Any, review: ReviewService, tokens: TokenStore | None,
                  required: Callable[[], bool] | None = None, audit: AuditLog | None = None) -> None:
    """Register the console's routes on a FastMCP server (they only answer over the HTTP transport).

    `required` decides per request whether a token is needed (default: whenever `tokens` is given). A signed-in
    reviewer's refusal (a decision outside its namespaces, a stale form, a live token without admin signing in) is
    written to `audit`, as /console's and the MCP gate's are (attack round 32: /review recorded none).
    """
    sessions = SessionStore(tokens.store) if tokens is not None else None
    # every form carries an HMAC of the session (or bearer token) under the store's kept console key, as on
    # /console (attack round 11: /review relied on SameSite and the Origin check alone)
    secret = review.engine.store.kept_secret("console_secret").encode()

    def csrf_for(request: Request) -> str:
        header = request.headers.get("authorization", "")
        bearer = header[7:].strip() if header.lower().startswith("bearer ") else ""
        session = (bearer or request.cookies.get(COOKIE, "")) if needs_token() else "local"
        return hmac.new(secret, b"review:" + session.encode(), hashlib.sha256).hexdigest()[:40]

    def csrf_ok(request: Request, form: Any) -> bool:
        return csrf_matches(form.get("csrf", ""), csrf_for(request))

    def needs_token() -> bool:
        return tokens is not None and (required is None or required())

    def reviewer(request: Request) -> Principal | None:
        if tokens is None or not needs_token():
            return LOCAL_OWNER
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return tokens.verify(header[7:].strip())
        session = request.cookies.get(COOKIE, "")  # an opaque session id, never the token (security/sessions.py)
        return sessions.principal(session) if session and sessions is not None else None

    def refused(who: Principal, proposal_id: str, decision: str, why: str, namespace: str | None = None) -> None:
        if audit is not None:
            audit.record(who.name, f"review {decision}", "denied", namespace, None,
                         f"proposal '{proposal_id[:100]}': {why}")

    @mcp.custom_route("/review", methods=["GET"], include_in_schema=False)
    async def review_page(request: Request) -> Response:
        # on a worker thread, as /console's pages (attack round 20: on the server's loop a long proposal list held
        # every other request of the process, /mcp included)
        return await anyio.to_thread.run_sync(_review_page, request)

    def _review_page(request: Request) -> Response:
        lang = review_lang(request)
        who = reviewer(request)
        if who is None:
            return _remember(request, _login("rv_sign_in", 401, lang), lang)
        pending = review.reviewed_by(who, "pending", 200)
        decided = [p for status in ("approved", "rejected") for p in review.reviewed_by(who, status, 20)]
        # only the reviewed namespaces this principal reviews: the list is not shown to every token holder
        watched = (", ".join(sorted(n for n in review.namespaces if who.allows(Scope.admin, n)))
                   or t(lang, "rv_none"))
        csrf = csrf_for(request)
        sign_out = (f"<form method='post' action='/review/logout' style='display:inline'>{_csrf_field(csrf)}"
                    f"<button>{t(lang, 'sign_out')}</button></form>" if needs_token() else "")
        body = (f"<h1>{t(lang, 'rv_title')}</h1><p class='muted'>{t(lang, 'rv_reviewer')}: {html.escape(who.name)} · "
                f"{t(lang, 'rv_watched')}: {html.escape(watched)} {sign_out}</p><h2>{t(lang, 'rv_pending')} "
                f"({len(pending)})</h2>"
                + ("".join(_proposal_card(review.view(p), csrf, not may_approve(
                    p, console_reviewer(who), review.self_approval), lang) for p in pending)
                   or f"<p>{t(lang, 'rv_empty')}</p>")
                + f"<h2>{t(lang, 'rv_decided')}</h2><ul>" + "".join(_decided_row(p, lang) for p in decided) + "</ul>")
        return _remember(request, _page(t(lang, "rv_title"), body, lang=lang), lang)

    @mcp.custom_route("/review/login", methods=["POST"], include_in_schema=False)
    async def review_login(request: Request) -> Response:
        form = await request.form()
        token = str(form.get("token", "")).strip()
        who = tokens.verify(token) if tokens is not None and needs_token() else LOCAL_OWNER
        if who is None or not any(s == Scope.admin for s in who.scopes):
            if who is not None and audit is not None:  # a live token without admin: whose refusal is known
                audit.record(who.name, "review sign-in", "denied", None, None, "needs 'admin' on a namespace")
            return _login("rv_bad_token", 403, review_lang(request))
        response = RedirectResponse("/review", status_code=303)
        if sessions is not None and needs_token():
            set_session_cookie(response, request, COOKIE, sessions.start(token), "/review")
        return response

    @mcp.custom_route("/review/logout", methods=["POST"], include_in_schema=False)
    async def review_logout(request: Request) -> Response:
        """Ends the session on every server of the store (there was no sign-out before round 11)."""
        lang = review_lang(request)
        if not csrf_ok(request, await request.form()):
            return _page(t(lang, "rv_title"), f"<p>{t(lang, 'rv_stale')}</p>", 403, lang)
        if sessions is not None:
            sessions.end(request.cookies.get(COOKIE, ""))
        response = RedirectResponse("/review", status_code=303)
        response.delete_cookie(COOKIE, path="/review", secure=over_https(request), httponly=True, samesite="strict")
        return response

    @mcp.custom_route("/review/{proposal_id}/{decision}", methods=["POST"], include_in_schema=False)
    async def review_decide(request: Request) -> Response:
        lang = review_lang(request)
        who = reviewer(request)
        if who is None:
            return _login("rv_sign_in", 401, lang)
        proposal_id, decision = request.path_params["proposal_id"], request.path_params["decision"]
        if decision not in ("approve", "reject"):
            return _page(t(lang, "rv_title"), f"<p>{t(lang, 'rv_bad_decision')}</p>", 400, lang)
        form = await request.form()
        if not csrf_ok(request, form):
            refused(who, proposal_id, decision, "the form's CSRF field is missing or wrong")
            return _page(t(lang, "rv_title"), f"<p>{t(lang, 'rv_stale')}</p>", 403, lang)
        note = str(form.get("note", ""))[:1000]
        version = str(form.get("version", "")).strip()[:64] or None
        # the decision applies the change through the engine (screening, embedding, hygiene; a consolidation): on a
        # worker thread, so it does not hold the server's other requests (attack round 20: 3 s per approval of a
        # 20,000-character store, every /mcp call and /healthz waiting behind it)
        return await anyio.to_thread.run_sync(_decide, who, proposal_id, decision, note, version, lang)

    def _decide(who: Principal, proposal_id: str, decision: str, note: str, version: str | None,
                lang: str) -> Response:
        try:
            proposal = review.queue.get(proposal_id)
            if not who.allows(Scope.admin, proposal.namespace):
                refused(who, proposal_id, decision, f"needs 'admin' on namespace '{proposal.namespace}'",
                        proposal.namespace)
                raise ProposalNotFoundError(proposal_id)  # as a missing one: its existence is not the caller's to learn
            if decision == "approve":
                review.approve(proposal_id, console_reviewer(who), note, expected_version=version)
            else:
                review.reject(proposal_id, who.name, note)
        except HindsightError as exc:
            return _page(t(lang, "rv_title"), f"<p>{shown(f'{exc.code}: {exc}')}</p>"
                                              f"<p><a href='/review'>{t(lang, 'back')}</a></p>", 409, lang)
        return RedirectResponse("/review", status_code=303)


def _remember(request: Request, response: HTMLResponse, lang: str) -> HTMLResponse:
    """Keep a language chosen with ?lang= for the next visits to /review."""
    if request.query_params.get("lang") in LANGS:
        response.set_cookie(LANG_COOKIE, lang, samesite="strict", path="/review", max_age=365 * 86400,
                            secure=over_https(request))
    return response
