"""Bulk actions on a page of results, and the export of the current filter (console round 15).

Bulk: the browse page's cards carry checkboxes of one form (`form='bulk'`); its action (forget, deprecate,
restore) is asked once, on a confirmation page that lists every chosen memory, then applied one memory at a time
through changes.change_status, the memory page's own door (a proposal in a reviewed namespace). Each memory's
outcome is reported; one refused memory does not stop the others.

Export: `/console/export` with the browse URL's parameters runs the same query (listing.select), every page of
it, and answers JSON lines in `hindsight export`'s format (so `hindsight import` reads them back), at most
EXPORT_LIMIT memories; each export is recorded in the audit log.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from hindsight.console.app import ConsoleApp, Ctx, memory_href, response_headers
from hindsight.console.changes import STATUS_ACTIONS, change_status
from hindsight.console.listing import select
from hindsight.console.safe import shown
from hindsight.console.views import error_block, memory_line
from hindsight.engine import MemoryEngine
from hindsight.engine_read import MAX_PAGE
from hindsight.errors import HindsightError, InvalidInputError
from hindsight.review.service import ReviewService
from hindsight.safety.withhold import withhold
from hindsight.security.principal import Scope

MAX_BULK = 200
EXPORT_LIMIT = 10_000


def bulk_bar(ctx: Ctx, ns: str) -> str:
    """The bulk form the page's checkboxes belong to. "Select all" needs JavaScript, so it starts hidden."""
    options = "".join(f"<option value='{a}'>{ctx.t(a)}</option>" for a in STATUS_ACTIONS)
    return (f"<form method='post' action='/console/bulk' id='bulk' class='bulk'>"
            f"<input type='hidden' name='csrf' value='{ctx.csrf}'><input type='hidden' name='ns' value='{escape(ns)}'>"
            f"<input type='hidden' name='back' value='{escape(ctx.path)}'>"
            f"<label id='pick-all-label' hidden><input type='checkbox' id='pick-all'> {ctx.t('select_all')}</label> "
            f"<select name='action' aria-label='{ctx.t('bulk_action')}'>{options}</select> "
            f"<input type='text' name='reason' placeholder='{ctx.t('reason')}'> "
            f"<button id='bulk-apply'>{ctx.t('bulk_apply')}</button> <span class='muted'>{ctx.t('bulk_help')}</span>"
            "</form>")


def safe_back(raw: str) -> str:
    """Where to return: a console page of this site, else the browse page (no open redirect)."""
    return raw if raw.startswith("/console") and "//" not in raw and "\\" not in raw else "/console"


def _ids(form: Any, lang: str) -> list[str]:
    ids = list(dict.fromkeys(str(v).strip() for v in form.getlist("id") if str(v).strip()))
    if not ids:
        raise InvalidInputError("id: 请先勾选至少一条记忆（每条结果左侧的复选框）" if lang == "zh" else
                                "id: select at least one memory (the checkbox beside each result)")
    if len(ids) > MAX_BULK:
        raise InvalidInputError(f"id: 一次最多处理 {MAX_BULK} 条，收到 {len(ids)} 条" if lang == "zh" else
                                f"id: at most {MAX_BULK} memories at once, got {len(ids)}")
    return ids


def mount_bulk(app: ConsoleApp, engine: MemoryEngine, review: ReviewService | None) -> None:
    async def bulk(request: Request, ctx: Ctx, fields: dict[str, str]) -> Response:
        ns, action = fields.get("ns", "default"), fields.get("action", "")
        back = safe_back(fields.get("back", ""))
        if not ctx.can(Scope.write, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        try:
            if action not in STATUS_ACTIONS:
                raise InvalidInputError(f"action: {'应为' if ctx.lang == 'zh' else 'expected one of'} "
                                        f"{', '.join(STATUS_ACTIONS)}, {'收到' if ctx.lang == 'zh' else 'got'} "
                                        f"'{action[:20]}'")
            ids = _ids(await request.form(), ctx.lang)
        except HindsightError as exc:
            return app.page(ctx, ctx.t("bulk_title"), error_block(ctx, exc) +
                            f"<p><a href='{escape(back)}'>{ctx.t('back')}</a></p>", 400)
        reason = fields.get("reason", "")[:1000]
        if fields.get("confirm") != "yes":
            return _confirm(app, engine, ctx, ns, action, reason, ids, back)
        rows, counts = [], {"done": 0, "proposed": 0, "refused": 0}
        for memory_id in ids:
            try:
                outcome = "proposed" if change_status(engine, review, ctx, memory_id, ns, action, reason) else "done"
                rows.append(f"<li class='bulk-{outcome}'>{escape(memory_id)} · {ctx.t('bulk_' + outcome)}</li>")
            except HindsightError as exc:
                outcome = "refused"
                rows.append(f"<li class='bulk-refused'>{escape(memory_id)} · {error_block(ctx, exc)}</li>")
            counts[outcome] += 1
        summary = " · ".join(f"{n} {ctx.t('bulk_' + k)}" for k, n in counts.items() if n)
        return app.page(ctx, ctx.t("bulk_title"), f"<p id='bulk-summary'>{summary}</p><ul>{''.join(rows)}</ul>"
                                                  f"<p><a href='{escape(back)}' id='back'>{ctx.t('back')}</a></p>")

    app.post("/console/bulk", bulk)

    async def export(request: Request, ctx: Ctx) -> Response:
        params = request.query_params
        ns = params.get("ns", "default")
        if not ctx.can(Scope.read, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        admin = ctx.can(Scope.admin, ns)
        lines: list[str] = []
        try:
            offset = 0
            while len(lines) < EXPORT_LIMIT:
                sel = select(engine, ctx, params, ns, page=MAX_PAGE, offset=offset)
                lines += [(r if admin else withhold(r)).model_dump_json() for r in sel.records]
                if not sel.more or sel.hits is not None:
                    break
                offset += MAX_PAGE
        except HindsightError as exc:
            return app.page(ctx, ctx.t("export"), error_block(ctx, exc), 400)
        lines = lines[:EXPORT_LIMIT]
        if app.audit is not None:
            app.audit.record(ctx.who.name, "console /console/export", "ok", ns, None,
                             f"{len(lines)} memories; {str(params)[:400]}")
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", ns)[:60] or "default"
        headers = {**response_headers(), "Content-Disposition": f"attachment; filename=\"hindsight-{name}.jsonl\""}
        return Response("".join(line + "\n" for line in lines), media_type="application/x-ndjson; charset=utf-8",
                        headers=headers)

    app.route("/console/export", ["GET"], export)


def _confirm(app: ConsoleApp, engine: MemoryEngine, ctx: Ctx, ns: str, action: str, reason: str, ids: list[str],
             back: str) -> Response:
    """One confirmation for the whole selection: every memory it names, then a single confirm button."""
    items = []
    for memory_id in ids:
        try:
            record = engine.get(memory_id, ns, record_access=False)
            record = record if ctx.can(Scope.admin, ns) else withhold(record)
            items.append(f"<li><a href='{escape(memory_href(record.id, ns))}'>{escape(record.id)}</a> "
                         f"<span class='content'>{shown(record.content[:200])}</span> "
                         f"<span class='muted'>{memory_line(ctx, record)}</span></li>")
        except HindsightError as exc:
            items.append(f"<li>{escape(memory_id)} {error_block(ctx, exc)}</li>")
    hidden = "".join(f"<input type='hidden' name='id' value='{escape(i)}'>" for i in ids)
    form = ctx.form("/console/bulk", (
        f"{hidden}<input type='hidden' name='ns' value='{escape(ns)}'><input type='hidden' name='action' "
        f"value='{action}'><input type='hidden' name='reason' value='{escape(reason)}'><input type='hidden' "
        f"name='back' value='{escape(back)}'><input type='hidden' name='confirm' value='yes'>"
        f"<button class='danger' id='bulk-confirm' autofocus>{ctx.t('confirm')}: {ctx.t(action)} ({len(ids)})</button> "
        f"<a href='{escape(back)}' id='bulk-cancel'>{ctx.t('cancel')}</a>"))
    question = ctx.t("bulk_question").format(action=ctx.t(action), n=len(ids))
    return app.page(ctx, ctx.t("bulk_title"), f"<p id='bulk-question'>{question}</p>"
                    + (f"<p class='muted'>{ctx.t('reason')}: {escape(reason)}</p>" if reason else "")
                    + f"<ol class='bulk-list'>{''.join(items)}</ol>{form}")
