"""Command line: mirrors the Python API (`hindsight add` = `Memory.add`, ...), plus `serve` and `demo`.

Errors print one readable line and exit with code 2 (bad input) or 1 (other);
never a stack trace for a problem the user can fix.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, InvalidInputError
from hindsight.model import MemoryType, Source
from hindsight.present import hit_view, memory_view

app = typer.Typer(help="hindsight: long-term memory for LLM agents (MCP server, CLI, Python API).",
                  no_args_is_help=True, pretty_exceptions_enable=False)
console = Console()
err = Console(stderr=True, soft_wrap=True)

DbOption = Annotated[Optional[str], typer.Option(
    "--db", help="The store: a SQLite file or sqlite:///path, or postgresql://user@host/db "
                 "(default $HINDSIGHT_DB, else ~/.hindsight/memory.db).")]
NsOption = Annotated[str, typer.Option("--namespace", "-n", help="Namespace (per user/agent/project).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@contextmanager
def _engine(db: str | None) -> Iterator[MemoryEngine]:
    """Open the engine and translate engine errors into one line on stderr."""
    try:
        engine = MemoryEngine.open(db, HindsightSettings())
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        yield engine
    except HindsightError as exc:
        err.print(f"[red]error ({exc.code}):[/red] {escape(str(exc))}")
        raise typer.Exit(2 if isinstance(exc, InvalidInputError) else 1) from exc
    finally:
        engine.close()


@contextmanager
def _store(db: str | None) -> Iterator[Any]:
    """The store alone (no embedder): for tokens and the audit log."""
    from hindsight.storage.factory import open_store

    try:
        store = open_store(db)
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        yield store
    finally:
        store.close()


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


@app.command()
def serve(
    transport: Annotated[str, typer.Option(help="stdio (desktop clients) or http (streamable HTTP).")] = "stdio",
    db: DbOption = None,
    host: Annotated[str, typer.Option(help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP port.")] = 8765,
    auth: Annotated[str, typer.Option(help="HTTP bearer tokens: auto (required once any token exists, checked "
                                           "per request), required, or off (loopback only).")] = "auto",
    allowed_hosts: Annotated[str, typer.Option(
        "--allowed-hosts", envvar="HINDSIGHT_ALLOWED_HOSTS",
        help="Comma-separated host names clients may use in Host/Origin, besides loopback and the bind "
             "address (DNS-rebinding protection).")] = "",
) -> None:
    """Run the MCP server on the embedded store."""
    from hindsight.security.audit import AuditLog
    from hindsight.security.http_guard import (
        AuthPolicy,
        default_allowed_hosts,
        is_loopback,
        parse_hosts,
    )
    from hindsight.security.tokens import TokenStore
    from hindsight.server.mcp_server import serve as run_server

    if transport not in ("stdio", "http"):
        err.print("[red]error:[/red] --transport must be stdio or http")
        raise typer.Exit(2)
    if auth not in ("auto", "required", "off"):
        err.print("[red]error:[/red] --auth must be auto, required or off")
        raise typer.Exit(2)
    with _engine(db) as engine:
        path = engine.stats().path or str(db)
        tokens, audit = TokenStore(engine.store), AuditLog(engine.store)
        if transport == "http":
            policy = AuthPolicy(tokens, auth, loopback_only=is_loopback(host))  # type: ignore[arg-type]
            if not is_loopback(host) and (auth == "off" or (auth == "auto" and not tokens.any_created())):
                err.print("[red]error:[/red] refusing to serve without tokens on a non-loopback address; "
                          "create one with `hindsight token create` or bind to 127.0.0.1")
                raise typer.Exit(2)
            hosts = default_allowed_hosts(host, parse_hosts(allowed_hosts))
            err.print(f"hindsight MCP server on http://{host}:{port}/mcp ({policy.describe()}; "
                      f"allowed hosts: {', '.join(sorted(hosts))}; db: {path})")
            run_server(engine, "http", host, port, audit=audit, policy=policy, allowed_hosts=hosts)
        else:
            run_server(engine, "stdio", audit=audit)


token_app = typer.Typer(help="Bearer tokens for the HTTP transport (stored hashed).", no_args_is_help=True)
app.add_typer(token_app, name="token")


@token_app.command("create")
def token_create(
    name: Annotated[str, typer.Argument(help="Who or what the token is for.")],
    scope: Annotated[list[str], typer.Option("--scope", "-s", help="read, write, admin (repeatable).")],
    namespace: Annotated[list[str], typer.Option("--namespace", "-n", help="Namespace it may use, or '*' (repeatable).")],
    db: DbOption = None,
) -> None:
    """Create a token; its secret is printed once."""
    from hindsight.security.tokens import TokenStore

    with _store(db) as store:
        try:
            secret, info = TokenStore(store).create(name, scope, namespace)
        except HindsightError as exc:
            err.print(f"[red]error:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from exc
    _print_json({"id": info.id, "name": info.name, "scopes": info.scopes, "namespaces": info.namespaces, "token": secret})


@token_app.command("list")
def token_list(db: DbOption = None) -> None:
    """List tokens (never their secrets)."""
    from hindsight.security.tokens import TokenStore

    with _store(db) as store:
        _print_json([t.__dict__ for t in TokenStore(store).list()])


@token_app.command("revoke")
def token_revoke(token_id: str, db: DbOption = None) -> None:
    """Revoke a token by id."""
    from hindsight.security.tokens import TokenStore

    with _store(db) as store:
        revoked = TokenStore(store).revoke(token_id)
    if not revoked:
        err.print(f"[red]error:[/red] no live token with id {escape(token_id)}")
        raise typer.Exit(2)
    err.print(f"revoked {token_id}")


review_app = typer.Typer(help="Reviewed namespaces: agent changes waiting for a person (also at /review over HTTP).",
                          no_args_is_help=True)
app.add_typer(review_app, name="review")


@contextmanager
def _review(db: str | None) -> Iterator[Any]:
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    with _engine(db) as engine:
        yield ReviewService(engine, ReviewQueue(engine.store), engine.settings.reviewed_namespaces)


@review_app.command("list")
def review_list(
    status: Annotated[str, typer.Option(help="pending, approved or rejected.")] = "pending",
    db: DbOption = None,
    namespace: Annotated[Optional[str], typer.Option("--namespace", "-n", help="Default: every namespace.")] = None,
) -> None:
    """Proposals (pending: oldest first), each with the memory it would change (same as memory_review_list)."""
    if status not in ("pending", "approved", "rejected"):
        err.print("[red]error:[/red] --status must be pending, approved or rejected")
        raise typer.Exit(2)
    with _review(db) as review:
        _print_json([review.view(p) for p in review.queue.list(namespace, status, limit=500)])


@review_app.command("approve")
def review_approve(proposal_id: str, note: Annotated[str, typer.Option()] = "", db: DbOption = None,
                   reviewer: Annotated[str, typer.Option(help="Name kept with the decision.")] = "local") -> None:
    """Apply a proposed change through the normal write path (same as memory_review_decide approve)."""
    with _review(db) as review:
        _print_json(review.approve(proposal_id, reviewer, note))


@review_app.command("reject")
def review_reject(proposal_id: str, note: Annotated[str, typer.Option()] = "", db: DbOption = None,
                  reviewer: Annotated[str, typer.Option(help="Name kept with the decision.")] = "local") -> None:
    """Reject a proposed change; the memory stays as it is (same as memory_review_decide reject)."""
    with _review(db) as review:
        _print_json(review.reject(proposal_id, reviewer, note))


@app.command()
def audit(limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50, db: DbOption = None) -> None:
    """Audit timeline: every change (with its principal) and every denied access, newest first."""
    from hindsight.security.audit import AuditLog

    with _store(db) as store:
        _print_json([e.__dict__ for e in AuditLog(store).entries(limit)])


@app.command()
def keygen() -> None:
    """Print a new key for HINDSIGHT_ENCRYPTION_KEY (private memories are encrypted with it)."""
    from hindsight.security.crypto import generate_key

    sys.stdout.write(generate_key() + "\n")


@app.command()
def add(
    content: Annotated[str, typer.Argument(help="What to remember.")],
    type: Annotated[MemoryType, typer.Option("--type", "-t")] = MemoryType.episodic,
    tag: Annotated[Optional[list[str]], typer.Option("--tag", help="Repeatable.")] = None,
    context: Annotated[str, typer.Option(help="When it applies.")] = "",
    importance: Annotated[Optional[float], typer.Option(min=0.0, max=1.0)] = None,
    source: Annotated[Source, typer.Option()] = Source.user,
    event_time: Annotated[Optional[datetime], typer.Option(help="ISO date/time it happened.")] = None,
    db: DbOption = None,
    namespace: NsOption = "default",
    as_json: JsonOption = False,
) -> None:
    """Store one memory (same as Memory.add / memory_store)."""
    with _engine(db) as engine:
        outcome = engine.store_memory({
            "content": content, "type": type, "tags": tag or [], "context": context, "importance": importance,
            "source": source, "event_time": event_time, "namespace": namespace,
        })
    if as_json:
        _print_json(outcome.as_dict())
    else:
        console.print(f"{outcome.action}: [bold]{outcome.memory_id}[/bold] ({outcome.status.value}) {escape(outcome.reason)}")


@app.command()
def search(
    query: Annotated[str, typer.Argument()],
    top_k: Annotated[int, typer.Option("--top-k", "-k", min=1, max=100)] = 5,
    type: Annotated[Optional[list[MemoryType]], typer.Option("--type", "-t")] = None,
    tag: Annotated[Optional[list[str]], typer.Option("--tag")] = None,
    db: DbOption = None,
    namespace: NsOption = "default",
    as_json: JsonOption = False,
) -> None:
    """Hybrid search (same as Memory.search / memory_search)."""
    filters: dict[str, Any] = {}
    if type:
        filters["types"] = type
    if tag:
        filters["tags"] = tag
    with _engine(db) as engine:
        hits = engine.search(query, namespace, filters or None, top_k)
    if as_json:
        _print_json([hit_view(h) for h in hits])
        return
    table = Table("score", "id", "type", "content", "why")
    for hit in hits:
        w = hit.why
        table.add_row(f"{hit.score:.3f}", hit.memory.id[:12], hit.memory.type.value, escape(hit.memory.content[:80]),
                      f"dense#{w.dense_rank} kw#{w.keyword_rank} decay {w.decay:.2f}")
    console.print(table)


def _record_command(action: Callable[[MemoryEngine], Any], as_json: bool, db: str | None) -> None:
    with _engine(db) as engine:
        result = action(engine)
    if as_json or not hasattr(result, "content"):
        _print_json(memory_view(result) if hasattr(result, "content") else result)
    else:
        console.print(f"[bold]{result.id}[/bold] {result.status.value} {result.type.value}: {escape(result.content)}")


@app.command()
def get(memory_id: str, db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Show one memory."""
    _record_command(lambda e: e.get(memory_id, namespace), as_json, db)


@app.command("list")
def list_(
    limit: Annotated[int, typer.Option(min=1, max=500)] = 20,
    offset: Annotated[int, typer.Option(min=0)] = 0,
    db: DbOption = None,
    namespace: NsOption = "default",
    as_json: JsonOption = False,
) -> None:
    """Page through memories, newest first."""
    with _engine(db) as engine:
        records, total = engine.list(namespace, None, limit, offset)
    if as_json:
        _print_json({"total": total, "memories": [memory_view(r) for r in records]})
        return
    table = Table("id", "status", "type", "created", "content", title=f"{total} memories")
    for r in records:
        table.add_row(r.id[:12], r.status.value, r.type.value, r.created_at.strftime("%Y-%m-%d %H:%M"), escape(r.content[:80]))
    console.print(table)


@app.command()
def forget(memory_id: str, reason: Annotated[str, typer.Option()] = "", db: DbOption = None,
           namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Soft-forget a memory (it sinks; history keeps it)."""
    _record_command(lambda e: e.forget(memory_id, reason, namespace), as_json, db)


@app.command()
def delete(memory_id: str, yes: Annotated[bool, typer.Option("--yes", help="Confirm the hard delete.")] = False,
           db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Erase a memory for good (needs --yes)."""
    if not yes:
        err.print("[red]error:[/red] hard delete needs --yes (use `forget` to soft-forget)")
        raise typer.Exit(2)
    _record_command(lambda e: e.delete(memory_id, namespace), as_json, db)


@app.command()
def history(memory_id: str, db: DbOption = None, namespace: NsOption = "default") -> None:
    """Every change to a memory."""
    with _engine(db) as engine:
        entries = engine.history(memory_id, namespace)
    _print_json([e.model_dump(mode="json") for e in entries])


@app.command()
def stats(db: DbOption = None, namespace: Annotated[Optional[str], typer.Option("--namespace", "-n")] = None) -> None:
    """Counts by status and type."""
    with _engine(db) as engine:
        s = engine.stats(namespace)
    _print_json({"total": s.total, "by_status": s.by_status, "by_type": s.by_type, "namespaces": s.namespaces,
                 "embedding_model": s.embedding_model, "path": s.path})


@app.command()
def archive(before: Annotated[Optional[datetime], typer.Option(
                help="Memories older than this (event time, else creation; UTC if no zone) become the archive.")] = None,
            clear: Annotated[bool, typer.Option("--clear", help="Remove the boundary: one partition.")] = False,
            db: DbOption = None) -> None:
    """Move the recent/archive boundary: dense search looks at the archive only when recent is not enough."""
    if (before is None) == (not clear):
        raise typer.BadParameter("give --before DATE or --clear")
    if before is not None and before.tzinfo is None:
        before = before.replace(tzinfo=timezone.utc)
    with _engine(db) as engine:
        boundary = engine.archive(None if clear else before)
    _print_json({"archive_before": None if boundary is None else boundary.isoformat()})


@app.command("export")
def export_(out: Annotated[Path, typer.Argument(help="JSONL file to write ('-' for stdout).")], db: DbOption = None,
            namespace: Annotated[Optional[str], typer.Option("--namespace", "-n")] = None) -> None:
    """Export memories as JSON lines."""
    with _engine(db) as engine:
        if str(out) == "-":
            count = engine.export_jsonl(sys.stdout, namespace)
        else:
            with out.open("w", encoding="utf-8") as handle:
                count = engine.export_jsonl(handle, namespace)
    err.print(f"exported {count} memories")


@app.command("import")
def import_(src: Annotated[Path, typer.Argument(help="JSONL file from `export`.")], db: DbOption = None,
            namespace: Annotated[Optional[str], typer.Option("--namespace", "-n")] = None) -> None:
    """Import JSON lines through the full write path (guard, redaction, dedup)."""
    if not src.exists():
        err.print(f"[red]error:[/red] no such file: {escape(str(src))}")
        raise typer.Exit(2)
    with _engine(db) as engine, src.open("rb") as handle:  # bytes: a non-UTF-8 line is named, not a traceback
        report = engine.import_report(handle, namespace=namespace)
    counts: dict[str, int] = {}
    for o in report.outcomes:
        key = o.action if o.status.value in ("active", "quarantined") else f"{o.action} ({o.status.value})"
        counts[key] = counts.get(key, 0) + 1
    err.print(f"imported {len(report.outcomes)} lines: {counts}; skipped {report.skipped} already imported")


@app.command()
def ingest(
    chat: Annotated[Path, typer.Argument(help="Chat file: .jsonl (one {role, content} per line) or .json.")],
    session_id: Annotated[Optional[str], typer.Option("--session-id", help="Default: the file's, else its name.")] = None,
    db: DbOption = None,
    namespace: NsOption = "default",
) -> None:
    """Hand over a conversation; print what was kept and why (same as memory_ingest)."""
    from hindsight.write.ingest import read_chat_file

    with _engine(db) as engine:
        messages, named = read_chat_file(chat)
        report = engine.ingest(messages, session_id or named or chat.stem, namespace)
    _print_json(report)


@app.command()
def consolidate(db: DbOption = None, namespace: NsOption = "default") -> None:
    """Promote recurring episodic memories to semantic ones and merge near-duplicates (progress bar)."""
    from rich.progress import Progress

    with _engine(db) as engine, Progress(console=err, transient=True) as bar:
        task = bar.add_task("consolidating", total=None)
        report = engine.consolidate(namespace, progress=lambda done, total: bar.update(task, completed=done, total=total))
    _print_json(report.as_dict())


@app.command()
def demo(db: DbOption = None) -> None:
    """Store a few English and Chinese memories and search them, to see the system work."""
    from hindsight.demo import run_demo

    with _engine(db) as engine:
        run_demo(engine, console)


@app.command()
def migrate(
    source: Annotated[str, typer.Argument(help="The store to copy from: a SQLite file or sqlite:///path, or postgresql://...")],
    target: Annotated[str, typer.Argument(help="The store to copy into (created if missing; may already hold data).")],
) -> None:
    """Copy every memory (vectors, history, edges), token, proposal and the audit log from SOURCE to TARGET.

    Resumable: a killed run is run again and skips what already arrived. Prints the counts of both stores
    and exits 1 when they do not match.
    """
    from rich.progress import Progress

    from hindsight.storage.factory import describe, open_raw_store
    from hindsight.storage.transfer import migrate_store

    if describe(source) == describe(target):
        err.print("[red]error:[/red] source and target are the same store")
        raise typer.Exit(2)
    try:
        src = open_raw_store(source)
        try:
            dst = open_raw_store(target)
        except HindsightError:
            src.close()
            raise
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("migrating", total=None)
            report = migrate_store(src, dst, progress=lambda done, total: bar.update(task, completed=done, total=total))
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
    finally:
        src.close()
        dst.close()
    _print_json(report.as_dict())
    if not report.verified:
        err.print("[red]error:[/red] counts differ: " + escape("; ".join(report.mismatches)))
        raise typer.Exit(1)


if __name__ == "__main__":  # pragma: no cover
    app()
