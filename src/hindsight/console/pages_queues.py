"""Queues: review proposals and quarantined writes, each next to the current memory with the change as a diff.

Proposals: approve, edit-then-approve, reject (ReviewService, so the change goes through the normal write path).
Quarantine: release (engine.release) or discard (engine.delete). Both need admin scope on the namespace.
"""

from __future__ import annotations

from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from hindsight.console.app import ConsoleApp, Ctx, memory_href
from hindsight.console.pages_browse import namespaces_for
from hindsight.console.safe import shown
from hindsight.console.views import field_changes, memory_block, when, word_diff
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, PermissionDeniedError
from hindsight.model import MemoryRecord
from hindsight.review.queue import Proposal, ProposalNotFoundError
from hindsight.review.separation import console_reviewer, held_writers, may_approve, may_release
from hindsight.review.service import ReviewService
from hindsight.review.version import memory_version
from hindsight.security.principal import Scope


def _current(engine: MemoryEngine, proposal: Proposal) -> MemoryRecord | None:
    if not proposal.memory_id:
        return None
    try:
        return engine.get(proposal.memory_id, proposal.namespace, record_access=False)
    except HindsightError:
        return None


def _proposal_card(ctx: Ctx, engine: MemoryEngine, p: Proposal, own: bool = False) -> str:
    current = _current(engine, p)
    payload = p.payload
    if p.action == "forget":
        change = f"<p>forget: {shown(str(payload.get('reason', '')) or '—')}</p>"
        editable = ""
    else:
        old = current.model_dump(mode="json") if current is not None else {}
        new = {**old, **payload} if p.action == "update" else dict(payload)
        change = field_changes(old, new) if current is not None else word_diff("", str(payload.get("content", "")))
        editable = escape(str(new.get("content", "")))
    base = f"/console/queue/{escape(p.id)}/"
    # the version of the memory shown beside the proposal: approving over a later edit is a version_conflict
    version = (f"<input type='hidden' name='version' value='{escape(memory_version(current))}'>"
               if current is not None else "")
    # the proposer sees no approve button: another admin decides (review/separation.py); Reject withdraws it
    forms = (f"<p class='muted own-proposal'>{ctx.t('own_proposal')}</p>" if own else
             ctx.form(base + "approve", f"{version}<input type='text' name='note' placeholder='{ctx.t('note')}'> "
                                        f"<button class='approve'>{ctx.t('approve')}</button>"))
    if editable and not own:
        forms += ctx.form(base + "approve", f"{version}<textarea name='content' aria-label='{ctx.t('edit_approve')}'>"
                                            f"{editable}</textarea><button class='approve'>"
                                            f"{ctx.t('edit_approve')}</button>")
    forms += ctx.form(base + "reject", f"<input type='text' name='note' placeholder='{ctx.t('note')}'> "
                                       f"<button class='reject'>{ctx.t('reject')}</button>")
    return (f"<div class='card proposal' data-id='{escape(p.id)}'><div><span class='tag'>{escape(ctx.word(p.action))}</span> "
            f"<b>{escape(p.namespace)}</b> · {escape(p.proposed_by)} · <span class='muted'>{when(p.proposed_at)} · "
            f"{escape(p.id)}</span></div>"
            + (f"<p class='muted'>{shown(p.reason)}</p>" if p.reason else "")
            + f"<div class='grid2'><div><b>{ctx.t('now')}</b>{memory_block(ctx, current)}</div>"
            f"<div><b>{ctx.t('proposed')}</b>{change}</div></div><div class='actions'>{forms}</div></div>")


def _quarantine_card(ctx: Ctx, engine: MemoryEngine, record: MemoryRecord, self_approval: bool) -> str:
    history = engine.history(record.id, record.namespace)
    previous = next((e.before for e in reversed(history) if e.before and e.before.get("status") != "quarantined"),
                    None)
    now = (f"<div class='pre'>{shown(str(previous.get('content', '')))}</div>" if previous
           else "<p class='muted'>—</p>")
    change = field_changes(previous, record.model_dump(mode="json")) if previous else word_diff("", record.content)
    base = f"/console/quarantine/{escape(record.id)}/"
    ns = f"<input type='hidden' name='ns' value='{escape(record.namespace)}'>"
    own = not may_release(held_writers(record.created_by, history), console_reviewer(ctx.who), self_approval)
    # its writer neither releases nor discards it (review/separation.py): both are the second look's to take;
    # the version shown: a release over a text its writer changed after this page was rendered is a version_conflict
    version = f"<input type='hidden' name='version' value='{escape(memory_version(record))}'>"
    forms = (f"<p class='muted own-proposal'>{ctx.t('own_write')}</p>" if own else
             ctx.form(base + "release", ns + version + f"<input type='text' name='note' placeholder='{ctx.t('note')}'> "
                                             f"<button class='approve'>{ctx.t('release')}</button>")
             + ctx.form(base + "discard", ns + f"<button class='reject'>{ctx.t('discard')}</button>"))
    return (f"<div class='card quarantined' data-id='{escape(record.id)}'><div><b>{escape(record.namespace)}</b> · "
            f"{escape(record.created_by)} · <span class='muted'>{when(record.created_at)} · <a href="
            f"'{escape(memory_href(record.id, record.namespace))}'>{escape(record.id)}</a></span>"
            f"</div><p class='status-quarantined'>{shown(record.status_reason)}</p>"
            f"<div class='grid2'><div><b>{ctx.t('now')}</b>{now}</div><div><b>{ctx.t('proposed')}</b>{change}</div>"
            f"</div><div class='actions'>{forms}</div></div>")


def mount_queues(app: ConsoleApp, engine: MemoryEngine, review: ReviewService) -> None:
    async def queues(request: Request, ctx: Ctx) -> Response:
        spaces = namespaces_for(ctx, engine, Scope.admin)
        if not spaces and not ctx.can(Scope.admin, None):
            return app.page(ctx, ctx.t("nav_queues"), f"<p>{ctx.t('admin_only')}</p>")
        pending = review.reviewed_by(ctx.who, "pending", 200)
        held: list[MemoryRecord] = []
        for ns in spaces:
            held += engine.quarantined(ns, limit=100)[0]
        body = (f"<div class='grid3'><section id='review'><h2>{ctx.t('review_queue')} ({len(pending)})</h2>"
                + ("".join(_proposal_card(ctx, engine, p, own=not may_approve(
                    p, console_reviewer(ctx.who), review.self_approval)) for p in pending) or f"<p>{ctx.t('queue_empty')}</p>")
                + f"</section><section id='quarantine'><h2>{ctx.t('quarantine')} ({len(held)})</h2>"
                + ("".join(_quarantine_card(ctx, engine, r, review.self_approval) for r in held) or f"<p>{ctx.t('queue_empty')}</p>")
                + "</section></div>")
        return app.page(ctx, ctx.t("nav_queues"), body)

    app.route("/console/queues", ["GET"], queues)

    async def decide(request: Request, ctx: Ctx, fields: dict[str, str]) -> Response:
        proposal_id, decision = request.path_params["proposal_id"], request.path_params["decision"]
        try:
            proposal = review.queue.get(proposal_id)
            if not ctx.can(Scope.admin, proposal.namespace):
                # answered as a proposal that does not exist (attack round 32: 403 here and 409 for a missing one told
                # an admin of any namespace which ids exist elsewhere; a keyed proposal's id derives from its key)
                if app.audit is not None:
                    app.audit.record(ctx.who.name, "console /console/queue", "denied", proposal.namespace, None,
                                     f"proposal '{proposal_id[:100]}': needs 'admin' on namespace '{proposal.namespace}'")
                raise ProposalNotFoundError(proposal_id)
            note = fields.get("note", "")[:1000]
            if decision == "approve":
                edits: dict[str, Any] = {}
                if "content" in fields and fields["content"].strip() != str(_proposed_content(engine, proposal)):
                    edits["content"] = fields["content"].strip()
                review.approve(proposal_id, console_reviewer(ctx.who), note, edits=edits or None,
                               expected_version=fields.get("version") or None)
            elif decision == "reject":
                review.reject(proposal_id, ctx.who.name, note)
            else:
                return app.error(ctx, f"unknown decision '{decision}'", 400)
        except HindsightError as exc:
            return app.error(ctx, f"{exc.code}: {exc}", 409)
        return RedirectResponse("/console/queues?done=1", status_code=303)

    app.post("/console/queue/{proposal_id}/{decision}", decide)

    async def quarantine(request: Request, ctx: Ctx, fields: dict[str, str]) -> Response:
        memory_id, action = request.path_params["memory_id"], request.path_params["action"]
        ns = fields.get("ns", "default")
        if not ctx.can(Scope.admin, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        try:
            if action == "release":
                engine.release(memory_id, ns, console_reviewer(ctx.who), fields.get("note", "")[:1000],
                               expected_version=fields.get("version") or None)
            elif action == "discard":
                record = engine.get(memory_id, ns, record_access=False)
                if record.status.value != "quarantined":
                    return app.error(ctx, "only quarantined memories are discarded here", 409)
                # the engine refuses the held memory's writer (review/separation.py), as it does on every skin
                # held_only: checked again inside the erase, so a release that came first is not undone by erasing
                engine.delete(memory_id, ns, console_reviewer(ctx.who), "discarded from quarantine", held_only=True)
            else:
                return app.error(ctx, f"unknown action '{action}'", 400)
        except PermissionDeniedError as exc:
            return app.error(ctx, f"{exc.code}: {exc}", 403)
        except HindsightError as exc:
            return app.error(ctx, f"{exc.code}: {exc}", 409)
        back = memory_href(memory_id, ns) + "&done=1" if fields.get("back") == "memory" and action == "release" else ""
        return RedirectResponse(back or "/console/queues?done=1", status_code=303)

    app.post("/console/quarantine/{memory_id}/{action}", quarantine)


def _proposed_content(engine: MemoryEngine, proposal: Proposal) -> str:
    if "content" in proposal.payload:
        return str(proposal.payload["content"])
    current = _current(engine, proposal)
    return current.content if current is not None else ""
