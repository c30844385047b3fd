"""Command line: mirrors the Python API (`hindsight add` = `Memory.add`, ...), plus `serve` and `demo`.

Errors print one readable line and exit with code 2 (bad input, the CLI's own argument errors too: cli_errors.py)
or 1 (other);
never a stack trace for a problem the user can fix. Tables show whole ids on a wide terminal and each id's shortest
unique prefix on a narrow one (cli_ids.py); every command that takes a memory id (get, update, forget, delete,
history, quarantine release), a proposal id (review) or a token id (token revoke) accepts any unique prefix of it.
Store-wide commands (stats, archive, export/import, ingest, consolidate, demo, migrate) live in cli_store.py,
administration (tokens, review, audit, backup/restore, rotate-key) in cli_ops.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

import typer
from rich.table import Table

from hindsight._version import __version__
from hindsight.cli_common import (
    DbOption,
    JsonOption,
    NsOption,
    changed_fields,
    clip,
    console,
    err,
    human_time,
    open_engine,
    print_json,
    show,
)
from hindsight.cli_errors import TypedErrorsGroup
from hindsight.cli_ids import shown_id
from hindsight.cli_ops import register
from hindsight.cli_queue import register as register_queue
from hindsight.cli_store import register as register_store
from hindsight.engine import MemoryEngine
from hindsight.errors import MemoryNotFoundError
from hindsight.model import MemoryType, Source
from hindsight.present import hit_view, memory_view
from hindsight.storage.encrypted import erasing

app = typer.Typer(help="hindsight: long-term memory for LLM agents (MCP server, CLI, Python API).",
                  no_args_is_help=True, pretty_exceptions_enable=False, cls=TypedErrorsGroup)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"hindsight {__version__}\n")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """hindsight: long-term memory for LLM agents (MCP server, CLI, Python API)."""


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
    log_json: Annotated[bool | None, typer.Option("--log-json/--no-log-json", help="One JSON line per request "
                                                     "on stderr (default: $HINDSIGHT_LOG_JSON).")] = None,
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
    with open_engine(db) as engine:
        path = engine.stats().path or str(db)
        tokens, audit = TokenStore(engine.store), AuditLog(engine.store)
        if transport == "http":
            policy = AuthPolicy(tokens, auth, loopback_only=is_loopback(host))  # type: ignore[arg-type]
            if not is_loopback(host) and (auth == "off" or (auth == "auto" and not tokens.any_created())):
                err.print("[red]error:[/red] refusing to serve without tokens on a non-loopback address; "
                          "create one with `hindsight token create` or bind to 127.0.0.1")
                raise typer.Exit(2)
            hosts = default_allowed_hosts(host, parse_hosts(allowed_hosts))
            reviewed = engine.settings.reviewed_namespaces.strip()
            review = (f"; reviewed: {reviewed}, " + ("a proposer may approve its own change (single reviewer)"
                                                     if engine.settings.review_self_approval else
                                                     "approved by someone other than the proposer")) if reviewed else ""
            err.print(f"hindsight MCP server on http://{host}:{port}/mcp ({policy.describe()}; "
                      f"allowed hosts: {', '.join(sorted(hosts))}; db: {path}{review})")
            run_server(engine, "http", host, port, audit=audit, policy=policy, allowed_hosts=hosts,
                       log_json=log_json)
        else:
            run_server(engine, "stdio", audit=audit, log_json=log_json)



@app.command()
def keygen() -> None:
    """Print a new key for HINDSIGHT_ENCRYPTION_KEY (private memories are encrypted with it)."""
    from hindsight.security.crypto import generate_key

    sys.stdout.write(generate_key() + "\n")


@app.command()
def add(
    content: Annotated[str, typer.Argument(help="What to remember.")],
    type: Annotated[MemoryType, typer.Option("--type", "-t")] = MemoryType.episodic,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Repeatable.")] = None,
    context: Annotated[str, typer.Option(help="When it applies.")] = "",
    importance: Annotated[float | None, typer.Option(min=0.0, max=1.0)] = None,
    source: Annotated[Source, typer.Option()] = Source.user,
    event_time: Annotated[datetime | None, typer.Option(help="ISO date/time it happened.")] = None,
    db: DbOption = None,
    namespace: NsOption = "default",
    as_json: JsonOption = False,
) -> None:
    """Store one memory (same as Memory.add / memory_store)."""
    with open_engine(db) as engine:
        outcome = engine.store_memory({
            "content": content, "type": type, "tags": tag or [], "context": context, "importance": importance,
            "source": source, "event_time": event_time, "namespace": namespace,
        })
    if as_json:
        print_json(outcome.as_dict())
    else:
        console.print(f"{outcome.action}: [bold]{outcome.memory_id}[/bold] ({outcome.status.value}) {show(outcome.reason)}",
                      soft_wrap=True)
        if outcome.redactions:
            console.print(f"[yellow]redacted before storing:[/yellow] {show(', '.join(outcome.redactions))}",
                          soft_wrap=True)


@app.command()
def search(
    query: Annotated[str, typer.Argument()],
    top_k: Annotated[int, typer.Option("--top-k", "-k", min=1, max=100)] = 5,
    type: Annotated[list[MemoryType] | None, typer.Option("--type", "-t")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag")] = None,
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
    with open_engine(db) as engine:
        hits = engine.search(query, namespace, filters or None, top_k)
        if as_json:
            print_json([hit_view(h) for h in hits])
            return
        # relevance beside the score: the score only orders this result (the best hit scores high when nothing matches)
        table = Table("score", "relevance", "id", "type", "content", "why")
        table.columns[2].no_wrap = True
        for hit in hits:
            w = hit.why
            table.add_row(f"{hit.score:.3f}", f"{hit.relevance:.2f}", _shown(engine, hit.memory.id, namespace),
                          hit.memory.type.value, show(clip(hit.memory.content, 80)),
                          f"dense#{_rank(w.dense_rank)} kw#{_rank(w.keyword_rank)} decay {w.decay:.2f}")
    console.print(table)


def _rank(rank: int | None) -> str:
    """A retriever's rank for the `why` column: '-' when that retriever did not find the hit (it read 'kw#None')."""
    return "-" if rank is None else str(rank)


def _shown(engine: MemoryEngine, memory_id: str, namespace: str) -> str:
    """A memory id as a table cell: whole on a wide terminal, its unique prefix in `namespace` on a narrow one."""
    return shown_id(memory_id, lambda prefix: engine.store.ids_with_prefix(prefix, namespace, limit=2), console)


def _record_command(action: Callable[[MemoryEngine], Any], as_json: bool, db: str | None) -> None:
    with open_engine(db) as engine:
        result = action(engine)
    if as_json or not hasattr(result, "content"):
        print_json(memory_view(result) if hasattr(result, "content") else result)
    else:
        console.print(f"[bold]{result.id}[/bold] {result.status.value} {result.type.value}: {show(result.content)}",
                      soft_wrap=True)


@app.command()
def get(memory_id: str, db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Show one memory (a unique id prefix is enough)."""
    _record_command(lambda e: e.get(e.resolve_id(memory_id, namespace), namespace), as_json, db)


@app.command()
def update(
    memory_id: str,
    content: Annotated[str | None, typer.Option(help="New content (re-embedded; history keeps the old).")] = None,
    type: Annotated[MemoryType | None, typer.Option("--type", "-t")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Replace the tags (repeatable).")] = None,
    context: Annotated[str | None, typer.Option(help="When it applies.")] = None,
    importance: Annotated[float | None, typer.Option(min=0.0, max=1.0)] = None,
    db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False,
) -> None:
    """Change a memory (same as memory_update); a unique id prefix is enough."""
    changes: dict[str, Any] = {k: v for k, v in {"content": content, "type": type, "context": context,
                                                  "importance": importance}.items() if v is not None}
    if tag:
        changes["tags"] = tag
    _record_command(lambda e: e.update(e.resolve_id(memory_id, namespace), changes, namespace), as_json, db)


@app.command("list")
def list_(
    limit: Annotated[int, typer.Option(min=1, max=500)] = 20,
    offset: Annotated[int, typer.Option(min=0)] = 0,
    db: DbOption = None,
    namespace: NsOption = "default",
    as_json: JsonOption = False,
) -> None:
    """Page through memories, newest first."""
    with open_engine(db) as engine:
        records, total = engine.list(namespace, None, limit, offset)
        if as_json:
            print_json({"total": total, "memories": [memory_view(r) for r in records]})
            return
        table = Table("id", "status", "type", "created", "content", title=f"{total} memories")
        table.columns[0].no_wrap = True
        for r in records:
            table.add_row(_shown(engine, r.id, namespace), r.status.value, r.type.value,
                          r.created_at.strftime("%Y-%m-%d %H:%M"), show(clip(r.content, 80)))
    console.print(table)


@app.command()
def forget(memory_id: str, reason: Annotated[str, typer.Option()] = "", db: DbOption = None,
           namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Soft-forget a memory (it sinks; history keeps it)."""
    _record_command(lambda e: e.forget(e.resolve_id(memory_id, namespace), reason, namespace), as_json, db)


@app.command()
def delete(memory_id: str, yes: Annotated[bool, typer.Option("--yes", help="Confirm the hard delete.")] = False,
           db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Erase a memory for good: asks for confirmation unless --yes (use `forget` to soft-forget)."""
    with open_engine(db) as engine, erasing(memory_id.strip()):  # one the key does not open too (attack round 45)
        full_id = engine.resolve_id(memory_id, namespace)
        with erasing(full_id):
            record = engine.get(full_id, namespace, record_access=False)
        if not yes:
            err.print(f"about to erase [bold]{record.id}[/bold] for good: {show(record.content[:120])}", soft_wrap=True)
            err.print("Delete it? History keeps a record that it existed. [y/N] ", end="")
            confirmed = sys.stdin.readline().strip().lower() in ("y", "yes")
            if not confirmed:
                err.print("not deleted (answer y, or pass --yes)")
                raise typer.Exit(1)
        deleted = engine.delete(full_id, namespace)
    if as_json:
        print_json(memory_view(deleted))
    else:
        console.print(f"deleted [bold]{deleted.id}[/bold]", soft_wrap=True)


@app.command()
def history(memory_id: str, db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Every change to a memory: when, who, what (a unique id prefix is enough)."""
    with open_engine(db) as engine:
        try:
            full_id = engine.resolve_id(memory_id, namespace)
        except MemoryNotFoundError as unknown:  # a hard-deleted memory: its history is read by its whole id
            try:
                entries = engine.history(memory_id.strip(), namespace)
            except MemoryNotFoundError:
                raise unknown from None
        else:
            entries = engine.history(full_id, namespace)
    if as_json:
        print_json([e.model_dump(mode="json") for e in entries])
        return
    table = Table("when", "action", "who", "changed", "note", title=f"history of {entries[0].memory_id}")
    for e in entries:
        fields = changed_fields(e.before, e.after)
        detail = ", ".join(fields) if fields else ("created" if e.before is None else "removed" if e.after is None else "")
        if "content" in fields and e.after is not None:
            detail += f": {clip(str(e.after.get('content', '')), 60)}"
        table.add_row(human_time(e.at), e.action, show(e.actor), show(detail), show(e.note))
    console.print(table)


register_store(app)  # stats, archive, export, import, ingest, consolidate, demo, migrate
register(app)  # the admin commands (tokens, review, audit, backup, restore) after the everyday ones
register_queue(app)  # a resilient client's queue file: list, dead letters, replay

if __name__ == "__main__":  # pragma: no cover
    app()
