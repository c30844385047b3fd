"""Health: counts by type and status, writes and searches per hour, decay distribution, store size and index
state, as inline SVG plots."""

from __future__ import annotations

import os
from datetime import timedelta
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from hindsight.console.app import ConsoleApp, Ctx
from hindsight.console.pages_browse import namespaces_for
from hindsight.console.svg import bar_plot
from hindsight.console.views import error_block
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError
from hindsight.retrieval.scoring import decay_score
from hindsight.security.principal import Scope


def _size(path: str | None) -> str:
    if not path or path == ":memory:":
        return "in memory"
    total: float = sum(os.path.getsize(p) for p in (path, path + "-wal", path + "-shm") if os.path.exists(p))
    for unit in ("B", "KiB", "MiB", "GiB"):
        if total < 1024 or unit == "GiB":
            return f"{total:.0f} {unit}" if unit == "B" else f"{total:.1f} {unit}"
        total /= 1024
    return ""


def mount_health(app: ConsoleApp, engine: MemoryEngine, observer: Any) -> None:
    async def health(request: Request, ctx: Ctx) -> Response:
        spaces = namespaces_for(ctx, engine)
        chosen = request.query_params.get("ns", "")
        whole = ctx.can(Scope.admin, None) and not chosen
        ns = None if whole else (chosen or (spaces[0] if spaces else "default"))
        if ns is not None and not ctx.can(Scope.read, ns):
            return app.error(ctx, ctx.t("not_allowed"), 403)
        stats = engine.stats(ns)
        now = engine.clock()
        names = [ns] if ns is not None else sorted(stats.namespaces)
        created, active = [], []
        try:
            for name in names:
                created += engine.list(name, {"statuses": ["active", "deprecated", "forgotten"],
                                              "time_from": now - timedelta(hours=24)}, limit=500)[0]
                active += engine.list(name, {"statuses": ["active"]}, limit=500)[0]
        except HindsightError as exc:  # a private memory the key does not open, say: named, as browse does (round 45)
            return app.page(ctx, ctx.t("nav_health"), error_block(ctx, exc))
        hours = [0] * 24
        for record in created:
            age = int((now - record.created_at).total_seconds() // 3600)
            if 0 <= age < 24:
                hours[23 - age] += 1
        labels = [f"-{23 - i}h" for i in range(24)]
        # the file size, the index and the search rate are the whole store's: for metrics (or admin) over '*'
        wide = ctx.can(Scope.metrics, None)
        searches = observer.per_hour("memory_search") if observer is not None else [0] * 24
        bins = [0] * 10
        for record in active:
            score = decay_score(record, now, engine.settings.decay)
            bins[min(9, int(score * 10))] += 1
        index_size = getattr(engine.store, "index_size", None) if wide else None
        synced = index_size is None or index_size >= stats.total - stats.by_status.get("quarantined", 0)
        index_state = (f"{'' if index_size is None else index_size} {ctx.t('vectors')} · "
                       f"{ctx.t('in_sync') if synced else ctx.t('out_of_sync')}") if wide else "-"
        options = "".join(f"<option value='{escape(n)}'{' selected' if n == ns else ''}>{escape(n)}</option>"
                          for n in spaces)
        picker = (f"<form method='get' action='/console/health'><label>{ctx.t('namespace')} <select name='ns'>"
                  + (f"<option value=''{' selected' if whole else ''}>{ctx.t('any')}</option>"
                     if ctx.can(Scope.admin, None) else "")
                  + f"{options}</select></label> <button>{ctx.t('search')}</button></form>")
        store = (f"<table><tr><th>{ctx.t('store_size')}</th>"
                 f"<td id='store-size'>{escape(_size(stats.path)) if wide else '-'}</td></tr>"
                 f"<tr><th>{ctx.t('memories')}</th><td>{stats.total}</td></tr>"
                 f"<tr><th>{ctx.t('index_state')}</th><td id='index-state'>{index_state}</td></tr>"
                 f"<tr><th>{ctx.t('model')}</th><td>{escape(stats.embedding_model or '')}</td></tr></table>")
        body = (picker + "<div class='grid3'>"
                f"<section><h2>{ctx.t('by_type')}</h2>{bar_plot(_named(ctx, stats.by_type), ctx.t('by_type'))}</section>"
                f"<section><h2>{ctx.t('by_status')}</h2>"
                f"{bar_plot(_named(ctx, stats.by_status), ctx.t('by_status'))}</section>"
                f"<section><h2>{ctx.t('writes_hour')}</h2>{bar_plot(list(zip(labels, hours)), ctx.t('writes_hour'))}"
                f"</section><section><h2>{ctx.t('searches_hour')}</h2>"
                f"{bar_plot(list(zip(labels, searches)), ctx.t('searches_hour')) if wide else '<p>-</p>'}</section>"
                f"<section><h2>{ctx.t('decay_dist')}</h2>"
                f"{bar_plot([(f'{i / 10:.1f}', float(c)) for i, c in enumerate(bins)], ctx.t('decay_dist'))}</section>"
                f"<section><h2>{ctx.t('store')}</h2>{store}</section></div>")
        return app.page(ctx, ctx.t("nav_health"), body)

    app.route("/console/health", ["GET"], health)


def _named(ctx: Ctx, counts: dict[str, int]) -> list[tuple[str, float]]:
    """Counts by type or status, in the stored order, labelled in the page's language (ux round 45: 中文 pages
    showed `episodic`, `active`)."""
    return [(ctx.word(key), value) for key, value in sorted(counts.items())]
