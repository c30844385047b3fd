"""Browse and search (every API filter), and the memory page: content, provenance, history, edges, actions.

Each action is one engine call with the signed-in principal as the actor, so history and the audit timeline
record who did it.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from hindsight.console.app import ConsoleApp, Ctx, memory_href
from hindsight.console.changes import STATUS_ACTIONS, change_status, review_door
from hindsight.console.listing import LISTED_STATUSES, PAGE, SEARCH_PAGE, Selection, rule_error, select
from hindsight.console.pages_bulk import bulk_bar
from hindsight.console.safe import shown, visible
from hindsight.console.svg import edge_graph
from hindsight.console.views import (
    error_block,
    history_entry,
    hit_card,
    memory_line,
    record_card,
    tags,
    when,
)
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, InvalidInputError
from hindsight.model import MemoryType, Source, Status
from hindsight.review.separation import console_reviewer, held_writers, may_release
from hindsight.review.service import ReviewService
from hindsight.review.version import memory_version
from hindsight.safety.withhold import withhold, withhold_history
from hindsight.security.principal import Actor, Scope


def namespaces_for(ctx: Ctx, engine: MemoryEngine, scope: Scope = Scope.read) -> list[str]:
    known = set(engine.stats().namespaces) | {"default"}
    known |= {n for n in ctx.who.namespaces if n != "*"}
    return sorted(n for n in known if ctx.can(scope, n))


def _first_kept(engine: MemoryEngine, spaces: list[str]) -> str:
    """The namespace a bare /console opens: the first one that holds memories (the empty `default` came first)."""
    counts = engine.stats().namespaces
    return next((n for n in spaces if counts.get(n)), spaces[0] if spaces else "default")


def _checks(ctx: Ctx, name: str, options: list[str], chosen: list[str]) -> str:
    boxes = "".join(f"<label><input type='checkbox' name='{name}' value='{o}'{' checked' if o in chosen else ''}>"
                    f" {escape(ctx.word(o))}</label>" for o in options)
    return f"<fieldset><legend>{ctx.t(name)}</legend>{boxes}</fieldset>"


def browse_form(ctx: Ctx, params: Any, spaces: list[str], ns: str) -> str:
    options = "".join(f"<option{' selected' if n == ns else ''}>{escape(n)}</option>" for n in spaces)
    return (
        "<form class='filters' method='get' action='/console' role='search'><div class='wide'>"
        f"<input type='search' id='q' name='q' value='{escape(params.get('q', ''))}' placeholder='{ctx.t('query')}' "
        f"aria-label='{ctx.t('search')}'><button class='primary'>{ctx.t('search')}</button></div>"
        f"<label>{ctx.t('namespace')} <select name='ns'>{options}</select></label>"
        f"<label>{ctx.t('tags')} <input type='text' name='tags' value='{escape(params.get('tags', ''))}' "
        "placeholder='ops, db'></label>"
        f"<label>{ctx.t('from')} <input type='date' name='from' value='{escape(params.get('from', ''))}'></label>"
        f"<label>{ctx.t('to')} <input type='date' name='to' value='{escape(params.get('to', ''))}'></label>"
        f"<label>{ctx.t('importance')} ≥ <input type='number' name='min_importance' min='0' max='1' step='0.1' "
        f"value='{escape(params.get('min_importance', ''))}'></label>"
        f"<label>{ctx.t('session')} <input type='text' name='session' value='{escape(params.get('session', ''))}'></label>"
        f"<label>{ctx.t('task')} <input type='text' name='task' value='{escape(params.get('task', ''))}'></label>"
        + _checks(ctx, "type", [m.value for m in MemoryType], params.getlist("type"))
        + _checks(ctx, "status", [s.value for s in LISTED_STATUSES] + ([Status.quarantined.value] if ctx.can(
            Scope.admin, ns) else []), params.getlist("status"))
        + _checks(ctx, "source", [s.value for s in Source], params.getlist("source"))
        + "</form>")


def mount_browse(app: ConsoleApp, engine: MemoryEngine, note_search: Any = None,
                 review: ReviewService | None = None) -> None:
    """Browse, search and the memory page. Changes in a reviewed namespace by anyone below admin scope are
    proposed through `review` (the same door as MCP writes), never applied directly."""
    async def browse(request: Request, ctx: Ctx) -> Response:
        params = request.query_params
        spaces = namespaces_for(ctx, engine)
        ns = params.get("ns") or _first_kept(engine, spaces)
        if not ctx.can(Scope.read, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        body = browse_form(ctx, params, spaces, ns)
        try:
            sel = select(engine, ctx, params, ns, record_access=ctx.can(Scope.write, ns))
        except HindsightError as exc:
            return app.page(ctx, ctx.t("nav_browse"), body + error_block(ctx, exc))
        if sel.hits is not None and note_search is not None:
            note_search()
        pick = ctx.can(Scope.write, ns) and not sel.held  # bulk actions (pages_bulk.py) on this page's memories
        if sel.hits is not None:
            top_final = max((h.score for h in sel.hits), default=1.0)
            top_kw = max((h.why.keyword_score or 0.0 for h in sel.hits), default=1.0) or 1.0
            cards = "".join(hit_card(ctx, h, top_final, top_kw, pick) for h in sel.hits)
        else:
            cards = "".join(record_card(ctx, r, pick=pick) for r in sel.records)
        export = "/console/export?" + urlencode([("ns", ns)] + [(k, v) for k, v in params.multi_items()
                                                                  if k not in ("offset", "ns", "done", "proposed")])
        count = f"{sel.total}{'+' if sel.more and sel.hits is not None else ''}"  # a search: found so far
        # a time phrase ("上周", "last Tuesday") that matched too little widens the search: said, as memory_search says
        # it (`time_filter_widened`); the console showed the wider hits as if they were in the window (ux round 45)
        widened = next((h.why.time_filter for h in sel.hits or [] if h.why.time_filter_widened), None)
        if widened is not None:
            body += f"<p class='flash' id='widened'>{escape(ctx.t('time_widened').format(expr=widened))}</p>"
        body += (f"<p class='muted'>{count} {ctx.t('results' if sel.hits is not None else 'memories')} · "
                 f"<a id='export' href='{escape(export)}' download>{ctx.t('export')}</a></p>"
                 + (bulk_bar(ctx, ns) if pick and sel.records else "")
                 + (cards or f"<p>{ctx.t('no_results')}</p>") + _pager(ctx, params, sel))
        return app.page(ctx, ctx.t("nav_browse"), body)

    app.route("/console", ["GET"], browse)

    async def memory_page(request: Request, ctx: Ctx) -> Response:
        memory_id = request.path_params["memory_id"]
        ns = request.query_params.get("ns", "default")
        if not ctx.can(Scope.read, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        try:
            record = engine.get(memory_id, ns, record_access=False)
            history = engine.history(memory_id, ns)
            related = engine.related(memory_id, ns)
            if not ctx.can(Scope.admin, ns):  # a quarantined memory's text is for the namespace's admins
                record, history = withhold(record), withhold_history(history)
                # so is a quarantined neighbour's: the edge list and the graph show its text (attack round 9)
                related = [(edge, withhold(other)) for edge, other in related]
        except HindsightError as exc:
            return app.error(ctx, str(exc), 404)
        # no Release for one who wrote the held version (review/separation.py; the post would be refused)
        releasable = may_release(held_writers(record.created_by, history), console_reviewer(ctx.who),
                                 engine.settings.review_self_approval)
        prov = (f"{ctx.t('source')}: {escape(ctx.word(record.source.value))} · {ctx.t('credibility')} {record.credibility:.2f} · "
                f"{ctx.t('created')} {when(record.created_at)} {ctx.t('by')} {escape(record.created_by)} · "
                f"{ctx.t('updated')} {when(record.updated_at)}"
                + (f" · {ctx.t('task')} {escape(record.source_task_id)}" if record.source_task_id else "")
                + (f" · {ctx.t('session')} {escape(record.session_id)}" if record.session_id else ""))
        body = (f"<p class='muted'>{escape(record.id)} · {escape(ns)}</p><div class='pre' id='content'>"
                f"{shown(record.content)}</div>"
                + (f"<p>{ctx.t('context')}: {shown(record.context)}</p>" if record.context else "")
                + f"<p>{memory_line(ctx, record)} · {ctx.t('importance')} {record.importance:.2f}"
                + (f" · <span class='tag' id='private'>{ctx.t('private')}</span>" if record.encrypted else "") + "</p>"
                + (f"<p class='muted'>{shown(record.status_reason)}</p>" if record.status_reason else "")
                + f"<h2>{ctx.t('provenance')}</h2><p class='muted'>{prov}</p>"
                + _actions(ctx, record, releasable) + f"<h2>{ctx.t('edges')}</h2>" + _edges(ctx, record, related)
                + f"<h2>{ctx.t('history')}</h2><ol class='history'>"
                + "".join(history_entry(ctx, e, _revert_form(ctx, record, i, e)) for i, e in reversed(list(enumerate(history))))
                + "</ol>")
        return app.page(ctx, record.content[:60] + ("…" if len(record.content) > 60 else ""), body)

    app.route("/console/memory/{memory_id}", ["GET"], memory_page)

    async def memory_action(request: Request, ctx: Ctx, fields: dict[str, str]) -> Response:
        memory_id, action = request.path_params["memory_id"], request.path_params["action"]
        ns = fields.get("ns", "default")
        if not ctx.can(Scope.write, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        actor = Actor(ctx.who)  # the engine checks what this principal may claim (security/claims.py)
        door = review_door(ctx, review, ns)
        proposed = False
        try:
            if action in ("edit", "revert"):
                changes: dict[str, Any] = {"content": fields.get("content", ""), "context": fields.get("context", ""),
                                           "tags": [x.strip() for x in fields.get("tags", "").split(",") if x.strip()],
                                           "type": fields.get("type", "episodic")}
                if action == "revert":  # a version from the history: its fields become an ordinary edit
                    changes = _version_fields(engine.history(memory_id, ns), fields.get("version", ""),
                                              ctx.can(Scope.admin, ns))
                elif fields.get("importance", "").strip():
                    try:
                        changes["importance"] = float(fields["importance"])
                    except ValueError as exc:
                        raise InvalidInputError(rule_error(ctx.lang, "number", "importance", fields["importance"])) from exc
                current = engine.get(memory_id, ns, record_access=False)
                # compared with what the form showed: below admin a quarantined memory's text, context and tags
                # were withheld, and sending the placeholder back is no edit of them (attack round 13)
                seen = current if ctx.can(Scope.admin, ns) else withhold(current)
                changed = {k: v for k, v in changes.items()
                           if v != (getattr(seen, k).value if k == "type" else getattr(seen, k))}
                if changed and door is not None:
                    proposed = door.update(memory_id, changed, ns, actor).get("status") == "pending_review"
                elif changed:
                    engine.update(memory_id, changed, ns, actor)
            elif action in STATUS_ACTIONS:
                proposed = change_status(engine, review, ctx, memory_id, ns, action, fields.get("reason", ""))
            else:
                return app.error(ctx, f"unknown action '{action}'", 400)
        except HindsightError as exc:
            return app.error(ctx, f"{ctx.t('refused')} {exc.code}: {exc}", 409)
        return RedirectResponse(memory_href(memory_id, ns) + ("&proposed=1" if proposed else "&done=1"), status_code=303)

    app.post("/console/memory/{memory_id}/{action}", memory_action)


def _actions(ctx: Ctx, record: Any, releasable: bool) -> str:
    if not ctx.can(Scope.write, record.namespace):
        return f"<p class='muted'>{ctx.t('read_only')}</p>"
    base = f"/console/memory/{escape(record.id)}/"
    ns = f"<input type='hidden' name='ns' value='{escape(record.namespace)}'>"
    types = "".join(f"<option value='{m.value}'{' selected' if m == record.type else ''}>{escape(ctx.word(m.value))}"
                    "</option>" for m in MemoryType)
    edit = ctx.form(base + "edit", ns + (
        f"<textarea name='content' id='edit-content' aria-label='{ctx.t('content')}'>{escape(record.content)}</textarea>"
        f"<label>{ctx.t('context')} <input type='text' name='context' value='{escape(record.context)}' size='40'></label>"
        f"<label>{ctx.t('tags')} <input type='text' name='tags' value='{escape(', '.join(record.tags))}'></label>"
        f"<label>{ctx.t('type')} <select name='type'>{types}</select></label>"
        f"<label>{ctx.t('importance')} <input type='number' name='importance' min='0' max='1' step='0.05' "
        f"value='{record.importance:.2f}'></label> <button class='primary' id='save'>{ctx.t('save')}</button>"))
    buttons = []
    if record.status == Status.active:
        buttons.append(ctx.form(base + "deprecate", ns + f"<button id='deprecate'>{ctx.t('deprecate')}</button>"))
        buttons.append(ctx.form(base + "forget", ns + f"<input type='text' name='reason' placeholder='{ctx.t('reason')}'>"
                                f" <button class='danger' id='forget'>{ctx.t('forget')}</button>"))
    elif record.status in (Status.deprecated, Status.forgotten):
        buttons.append(ctx.form(base + "restore", ns + f"<button class='approve' id='restore'>{ctx.t('restore')}</button>"))
    elif record.status == Status.quarantined and ctx.can(Scope.admin, record.namespace) and not releasable:
        buttons.append(f"<p class='muted own-proposal'>{ctx.t('own_write')}</p>")
    elif record.status == Status.quarantined and ctx.can(Scope.admin, record.namespace):
        # the guard's reason is shown above; release it here as on the queues page (kept: leave it as it is)
        buttons.append(ctx.form(f"/console/quarantine/{escape(record.id)}/release", ns + (
            "<input type='hidden' name='back' value='memory'>"
            f"<input type='hidden' name='version' value='{escape(memory_version(record))}'>"
            f"<input type='text' name='note' placeholder='{ctx.t('note')}'> "
            f"<button class='approve' id='release'>{ctx.t('release')}</button>")))
        # and discard it here too: the queues page offered both, this page only Release (ux round 45)
        buttons.append(ctx.form(f"/console/quarantine/{escape(record.id)}/discard", ns + (
            f"<button class='reject' id='discard'>{ctx.t('discard')}</button>")))
    return (f"<h2>{ctx.t('edit')}</h2>{edit}<div class='actions'>{''.join(buttons)}</div>")


def _edges(ctx: Ctx, record: Any, related: list[Any]) -> str:
    if not related:
        return f"<p class='muted'>{ctx.t('no_edges')}</p>"
    neighbours = [(other.id, visible(other.content[:40]), edge.kind, edge.src == record.id) for edge, other in related]
    rows = "".join(
        f"<li>{'→' if edge.src == record.id else '←'} <b>{escape(ctx.word(edge.kind))}</b> "
        f"<a class='edge-link' href='{escape(memory_href(other.id, other.namespace))}'>{shown(other.content[:80])}</a>"
        f" <span class='muted'>{escape(ctx.word(other.status.value))} {tags(other)}</span></li>" for edge, other in related)
    return f"<div class='grid2'><div>{edge_graph((record.id, visible(record.content[:40])), neighbours, record.namespace)}</div>" \
           f"<ul>{rows}</ul></div>"


REVERTED = ("content", "context", "tags", "type", "importance")


def _version_fields(history: list[Any], raw: str, admin: bool) -> dict[str, Any]:
    """The editable fields of version `raw` (its index in the append-only history, so a page's number stays
    true); a quarantined version's text is the admins' to see, so only they may put it back."""
    index = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else -1
    snapshot = history[index].after if 0 <= index < len(history) else None
    if not snapshot or not isinstance(snapshot.get("content"), str):
        raise InvalidInputError(f"version: no version {raw[:20]!r} of this memory to restore")
    if snapshot.get("status") == "quarantined" and not admin:
        raise InvalidInputError("version: a quarantined version is restored only by an admin of the namespace")
    return {k: snapshot[k] for k in REVERTED if k in snapshot}


def _revert_form(ctx: Ctx, record: Any, index: int, entry: Any) -> str:
    """"Restore this version" beside a version whose fields differ from the memory now (write scope)."""
    after = entry.after or {}
    if (not ctx.can(Scope.write, record.namespace) or not isinstance(after.get("content"), str)
            or (after.get("status") == "quarantined" and not ctx.can(Scope.admin, record.namespace))
            or all(after.get(k) == (v.value if k == "type" else v)
                   for k, v in ((k, getattr(record, k)) for k in REVERTED if k in after))):
        return ""
    return ctx.form(f"/console/memory/{escape(record.id)}/revert",
                    f"<input type='hidden' name='ns' value='{escape(record.namespace)}'>"
                    f"<input type='hidden' name='version' value='{index}'>"
                    f"<button class='revert'>{ctx.t('restore_version')}</button>", "revert")


def _pager(ctx: Ctx, params: Any, sel: Selection) -> str:
    """Previous / next links that keep every filter (a search's pages too)."""
    kept = [(k, v) for k, v in params.multi_items() if k != "offset"]
    step = SEARCH_PAGE if sel.hits is not None else PAGE
    links = []
    if sel.offset > 0:
        links.append(f"<a rel='prev' id='prev' href='/console?"
                     f"{escape(urlencode([*kept, ('offset', max(0, sel.offset - step))]))}'>{ctx.t('prev')}</a>")
    if sel.more:
        links.append(f"<a rel='next' id='next' href='/console?{escape(urlencode([*kept, ('offset', sel.offset + step)]))}'>"
                     f"{ctx.t('next')}</a>")
    if not sel.records:
        return f"<p class='pager'>{' · '.join(links)}</p>" if links else ""
    return (f"<p class='pager'>{' · '.join(links)} <span class='muted'>{sel.offset + 1}–{sel.offset + len(sel.records)}"
            "</span></p>")
