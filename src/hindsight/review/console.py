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
shown is escaped; the page needs no JavaScript.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from hindsight.console.cookies import over_https, set_session_cookie
from hindsight.console.safe import shown
from hindsight.errors import HindsightError
from hindsight.review.queue import Proposal
from hindsight.review.separation import console_reviewer, may_approve
from hindsight.review.service import ReviewService
from hindsight.security.principal import LOCAL_OWNER, Principal, Scope
from hindsight.security.sessions import SessionStore
from hindsight.security.tokens import TokenStore

COOKIE = "hindsight_review"

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


def _pre(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2, default=str)
    return f"<pre>{shown(text)}</pre>"


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>{body}</body></html>", status_code=status,
        headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY"})


def _login(message: str, status: int) -> HTMLResponse:
    return _page("hindsight review: sign in", (
        f"<h1>hindsight review</h1><p>{html.escape(message)}</p>"
        "<form method='post' action='/review/login'><input type='password' name='token' "
        "placeholder='hs_... (a token with admin scope)' size='48'> <button>Sign in</button></form>"
    ), status)


def _csrf_field(csrf: str) -> str:
    return f"<input type='hidden' name='csrf' value='{html.escape(csrf)}'>"


def _proposal_card(view: dict[str, Any], csrf: str = "", own: bool = False) -> str:
    p = view
    proposed = p["payload"]
    if p["action"] == "store":
        change = _pre(proposed.get("content", "")) + _pre({k: v for k, v in proposed.items()
                                                          if k in ("type", "tags", "context", "importance", "source")})
    elif p["action"] == "update":
        change = _pre(proposed)
    elif p["action"] == "consolidate":
        change = "<p>run a consolidation pass: promote recurring episodes, merge near-duplicates</p>"
    else:
        change = f"<p>forget (soft): {html.escape(str(proposed.get('reason', '')) or 'no reason given')}</p>"
    current = ""
    if p["action"] in ("update", "forget"):
        memory = p.get("current")
        current = ("<div><b>now</b>" + (_pre(memory["content"]) + f"<span class='muted'>{html.escape(memory['type'])}"
                                         f" · {html.escape(memory['status'])}</span>" if memory else
                                         "<p>the memory no longer exists</p>") + "</div>")
    pid = html.escape(p["id"])
    version = (f"<input type='hidden' name='version' value='{html.escape(p['current_version'])}'>"
               if p.get("current_version") else "")  # approving over a later edit is a version_conflict
    return (
        f"<div class='card'><div><span class='tag'>{html.escape(p['action'])}</span> "
        f"<b>{html.escape(p['namespace'])}</b> · proposed by {html.escape(p['proposed_by'])} · "
        f"<span class='muted'>{_when(p['proposed_at'])} · {pid}</span></div>"
        + (f"<p class='muted'>why: {html.escape(p['reason'])}</p>" if p["reason"] else "")
        + f"<div class='grid'>{current}<div><b>proposed</b>{change}</div></div>"
        + ("<p class='muted own-proposal'>You proposed this: another admin approves it (Reject withdraws it).</p>"
           if own else  # the proposer never approves its own change (review/separation.py)
           f"<form method='post' action='/review/{pid}/approve' style='display:inline'>{_csrf_field(csrf)}{version}"
           "<input type='text' name='note' placeholder='note (optional)'> "
           "<button class='approve'>Approve</button></form> ")
        + f"<form method='post' action='/review/{pid}/reject' style='display:inline'>{_csrf_field(csrf)}"
        "<input type='text' name='note' placeholder='why (optional)'> <button class='reject'>Reject</button></form></div>"
    )


def _decided_row(p: Proposal) -> str:
    return (f"<li>{html.escape(p.status)} · {html.escape(p.action)} in <b>{html.escape(p.namespace)}</b> by "
            f"{html.escape(p.reviewed_by or '')} <span class='muted'>{_when(p.reviewed_at)} · {html.escape(p.id)}"
            f"{' · ' + html.escape(p.review_note) if p.review_note else ''}</span></li>")


def mount_console(mcp: Any, review: ReviewService, tokens: TokenStore | None,
                  required: Callable[[], bool] | None = None) -> None:
    """Register the console's routes on a FastMCP server (they only answer over the HTTP transport).

    `required` decides per request whether a token is needed (default: whenever `tokens` is given).
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
        return hmac.compare_digest(str(form.get("csrf", "")), csrf_for(request))

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

    def visible(who: Principal, proposals: list[Proposal]) -> list[Proposal]:
        return [p for p in proposals if who.allows(Scope.admin, p.namespace)]

    @mcp.custom_route("/review", methods=["GET"], include_in_schema=False)
    async def review_page(request: Request) -> Response:
        who = reviewer(request)
        if who is None:
            return _login("Sign in with a token that has admin scope.", 401)
        pending = visible(who, review.pending(limit=200))
        decided = visible(who, review.decided(limit=20))
        # only the reviewed namespaces this principal reviews: the list is not shown to every token holder
        watched = ", ".join(sorted(n for n in review.namespaces if who.allows(Scope.admin, n))) or "none you review"
        csrf = csrf_for(request)
        sign_out = (f"<form method='post' action='/review/logout' style='display:inline'>{_csrf_field(csrf)}"
                    "<button>Sign out</button></form>" if needs_token() else "")
        body = (f"<h1>hindsight review</h1><p class='muted'>reviewer: {html.escape(who.name)} · reviewed "
                f"namespaces: {html.escape(watched)} {sign_out}</p><h2>Pending ({len(pending)})</h2>"
                + ("".join(_proposal_card(review.view(p), csrf, own=not may_approve(
                    p, console_reviewer(who), review.self_approval)) for p in pending)
                   or "<p>Nothing waits for review.</p>")
                + "<h2>Recent decisions</h2><ul>" + "".join(_decided_row(p) for p in decided) + "</ul>")
        return _page("hindsight review", body)

    @mcp.custom_route("/review/login", methods=["POST"], include_in_schema=False)
    async def review_login(request: Request) -> Response:
        form = await request.form()
        token = str(form.get("token", "")).strip()
        who = tokens.verify(token) if tokens is not None and needs_token() else LOCAL_OWNER
        if who is None or not any(s == Scope.admin for s in who.scopes):
            return _login("That token is unknown, revoked, or has no admin scope.", 403)
        response = RedirectResponse("/review", status_code=303)
        if sessions is not None and needs_token():
            set_session_cookie(response, request, COOKIE, sessions.start(token), "/review")
        return response

    @mcp.custom_route("/review/logout", methods=["POST"], include_in_schema=False)
    async def review_logout(request: Request) -> Response:
        """Ends the session on every server of the store (there was no sign-out before round 11)."""
        if not csrf_ok(request, await request.form()):
            return _page("hindsight review", "<p>The form is stale or forged; reload the page.</p>", 403)
        if sessions is not None:
            sessions.end(request.cookies.get(COOKIE, ""))
        response = RedirectResponse("/review", status_code=303)
        response.delete_cookie(COOKIE, path="/review", secure=over_https(request), httponly=True, samesite="strict")
        return response

    @mcp.custom_route("/review/{proposal_id}/{decision}", methods=["POST"], include_in_schema=False)
    async def review_decide(request: Request) -> Response:
        who = reviewer(request)
        if who is None:
            return _login("Sign in with a token that has admin scope.", 401)
        proposal_id, decision = request.path_params["proposal_id"], request.path_params["decision"]
        if decision not in ("approve", "reject"):
            return _page("hindsight review", "<p>Unknown decision: use approve or reject.</p>", 400)
        form = await request.form()
        if not csrf_ok(request, form):
            return _page("hindsight review", "<p>The form is stale or forged; reload the page.</p>", 403)
        note = str(form.get("note", ""))[:1000]
        version = str(form.get("version", "")).strip()[:64] or None
        try:
            proposal = review.queue.get(proposal_id)
            if not who.allows(Scope.admin, proposal.namespace):
                return _page("hindsight review", "<p>You do not administer this namespace.</p>", 403)
            if decision == "approve":
                review.approve(proposal_id, console_reviewer(who), note, expected_version=version)
            else:
                review.reject(proposal_id, who.name, note)
        except HindsightError as exc:
            return _page("hindsight review", f"<p>{html.escape(f'{exc.code}: {exc}')}</p>"
                                             "<p><a href='/review'>back</a></p>", 409)
        return RedirectResponse("/review", status_code=303)
