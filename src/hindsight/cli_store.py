"""Store-wide CLI commands: stats, archive, export, import, ingest, consolidate, demo and migrate.

Registered on the main app by `cli.py` after the everyday memory commands (`hindsight --help` keeps its order);
administration (tokens, review, audit, backup/restore, rotate-key) is in cli_ops.py.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from hindsight.cli_common import DbOption, NsOption, check_output_file, console, err, open_engine, print_json, show
from hindsight.errors import HindsightError
from hindsight.private_files import write_private_text


def stats(db: DbOption = None, namespace: Annotated[str | None, typer.Option("--namespace", "-n")] = None) -> None:
    """Counts by status and type."""
    with open_engine(db) as engine:
        s = engine.stats(namespace)
    print_json({"total": s.total, "by_status": s.by_status, "by_type": s.by_type, "namespaces": s.namespaces,
                 "embedding_model": s.embedding_model, "path": s.path})


def archive(before: Annotated[datetime | None, typer.Option(
                help="Memories older than this (event time, else creation; UTC if no zone) become the archive.")] = None,
            clear: Annotated[bool, typer.Option("--clear", help="Remove the boundary: one partition.")] = False,
            db: DbOption = None) -> None:
    """Move the recent/archive boundary: dense search looks at the archive only when recent is not enough."""
    if (before is None) == (not clear):
        raise typer.BadParameter("give --before DATE or --clear")
    if before is not None and before.tzinfo is None:
        before = before.replace(tzinfo=UTC)
    with open_engine(db) as engine:
        boundary = engine.archive(None if clear else before)
    print_json({"archive_before": None if boundary is None else boundary.isoformat()})


def export_(out: Annotated[Path, typer.Argument(help="JSONL file to write ('-' for stdout).")], db: DbOption = None,
            namespace: Annotated[str | None, typer.Option("--namespace", "-n")] = None) -> None:
    """Export memories as JSON lines: every status, forgotten and deprecated too (`delete` erases one), of
    every namespace unless --namespace."""
    if str(out) != "-":
        check_output_file(out, db)
    with open_engine(db) as engine:
        if str(out) == "-":
            count = engine.export_jsonl(sys.stdout, namespace)
        else:
            with write_private_text(out) as handle:  # 0600; a refused export leaves no file behind
                count = engine.export_jsonl(handle, namespace)
    err.print(f"exported {count} memories")


def import_(src: Annotated[Path, typer.Argument(help="JSONL file from `export`.")], db: DbOption = None,
            namespace: Annotated[str | None, typer.Option("--namespace", "-n")] = None) -> None:
    """Import JSON lines through the full write path (guard, redaction, dedup)."""
    if not src.exists() or src.is_dir():  # a directory was an IsADirectoryError traceback (attack round 16)
        err.print(f"[red]error:[/red] {'a directory, not a file' if src.exists() else 'no such file'}: "
                  f"{show(str(src))}")
        raise typer.Exit(2)
    with open_engine(db) as engine, src.open("rb") as handle:  # bytes: a non-UTF-8 line is named, not a traceback
        report = engine.import_report(handle, namespace=namespace)
    counts: dict[str, int] = {}
    for o in report.outcomes:
        key = o.action if o.status.value in ("active", "quarantined") else f"{o.action} ({o.status.value})"
        counts[key] = counts.get(key, 0) + 1
    err.print(f"imported {len(report.outcomes)} lines: {counts}; skipped {report.skipped} already imported")


def ingest(
    chat: Annotated[Path, typer.Argument(help="Chat file: .jsonl (one {role, content} per line) or .json.")],
    session_id: Annotated[str | None, typer.Option("--session-id", help="Default: the file's, else its name.")] = None,
    db: DbOption = None,
    namespace: NsOption = "default",
) -> None:
    """Hand over a conversation; print what was kept and why (same as memory_ingest)."""
    from hindsight.write.ingest import read_chat_file

    with open_engine(db) as engine:
        messages, named = read_chat_file(chat)
        report = engine.ingest(messages, session_id or named or chat.stem, namespace)
    print_json(report)


def consolidate(db: DbOption = None, namespace: NsOption = "default") -> None:
    """Promote recurring episodic memories to semantic ones and merge near-duplicates (progress bar)."""
    from rich.progress import Progress

    with open_engine(db) as engine, Progress(console=err, transient=True) as bar:
        task = bar.add_task("consolidating", total=None)
        report = engine.consolidate(namespace, progress=lambda done, total: bar.update(task, completed=done, total=total))
    print_json(report.as_dict())


def demo(db: DbOption = None) -> None:
    """Store a few English and Chinese memories and search them, to see the system work."""
    from hindsight.demo import run_demo

    with open_engine(db) as engine:
        run_demo(engine, console)


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
        err.print(f"[red]error:[/red] {show(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("migrating", total=None)
            report = migrate_store(src, dst, progress=lambda done, total: bar.update(task, completed=done, total=total))
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {show(str(exc))}")
        raise typer.Exit(1) from exc
    finally:
        src.close()
        dst.close()
    print_json(report.as_dict())
    if not report.verified:
        err.print("[red]error:[/red] counts differ: " + show("; ".join(report.mismatches)))
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(stats)
    app.command()(archive)
    app.command("export")(export_)
    app.command("import")(import_)
    app.command()(ingest)
    app.command()(consolidate)
    app.command()(demo)
    app.command()(migrate)
