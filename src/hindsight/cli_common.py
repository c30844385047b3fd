"""Pieces every `hindsight` command shares: consoles, options, the engine context, JSON and human-readable output."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, InvalidInputError

console = Console()
err = Console(stderr=True, soft_wrap=True)

DbOption = Annotated[str | None, typer.Option(
    "--db", help="The store: a SQLite file or sqlite:///path, or postgresql://user@host/db "
                 "(default $HINDSIGHT_DB, else ~/.hindsight/memory.db).")]
NsOption = Annotated[str, typer.Option("--namespace", "-n", help="Namespace (per user/agent/project).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]

#: what must never reach the operator's terminal raw: C0 controls but newline and tab (ESC starts colour,
#: title and clipboard sequences; BEL, CR and NUL hide or rewrite what is shown), DEL and C1 controls, and the
#: bidi embeddings/overrides/isolates that make text read differently from what it is.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with control and bidi-override characters written as escapes (\\x1b, \\u202e); \\n and \\t kept."""
    return _UNSAFE.sub(_visible_char, text)


def show(text: str) -> str:
    """Stored text made safe for Rich output: control characters visible, markup escaped."""
    return escape(visible(str(text)))


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters for a table cell, with '…' where it was cut (a cut read as the whole text:
    "failed twice because the staging token e")."""
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


@contextmanager
def open_engine(db: str | Path | None) -> Iterator[MemoryEngine]:
    """Open the engine and translate engine errors into one line on stderr. The embedding model loads on first use:
    a command that never embeds (list, get, export, backup, review list...) does not pay for it."""
    try:
        settings = HindsightSettings()
        engine = MemoryEngine.open(db, settings, embedder=create_embedder(settings.embedder, lazy=True))
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {show(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        yield engine
    except HindsightError as exc:
        err.print(f"[red]error ({exc.code}):[/red] {show(str(exc))}")
        raise typer.Exit(2 if isinstance(exc, InvalidInputError) else 1) from exc
    finally:
        engine.close()


@contextmanager
def open_store_only(db: str | Path | None) -> Iterator[Any]:
    """The store alone (no embedder): for tokens, the audit log and `rotate-key` (which checks every sealed value
    itself, so its key is not refused on open: security/key_check.py)."""
    from hindsight.storage.factory import open_store

    try:
        store = open_store(db, verify_key=False)
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {show(str(exc))}")
        raise typer.Exit(1) from exc
    try:
        yield store
    finally:
        store.close()


def print_json(data: Any) -> None:
    # json.dumps escapes C0 controls; DEL, C1 and bidi overrides are written as \\u escapes too (same JSON value)
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write(_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


def fail(message: str, code: int = 2) -> None:
    err.print(f"[red]error:[/red] {show(message)}")
    raise typer.Exit(code)


def check_output_file(target: Path, db: str | Path | None) -> None:
    """Where an export or backup may be written: a file in an existing directory (a missing directory or a
    directory as the target was a traceback), never the store it reads (`hindsight export memory.db`,
    `./x/../memory.db`, a hard link, its -wal file, a file in its index directory) nor the key file: those replaced
    the database with a JSON file (attack round 16: every memory gone). Refused before anything is read or written."""
    import os

    from hindsight.private_files import overwrites, store_files

    if target.is_dir():
        fail(f"FILE: '{target}' is a directory; name a file")
    if not target.expanduser().parent.is_dir():
        fail(f"FILE: the directory of '{target}' does not exist")
    protected = store_files(db if db is not None else HindsightSettings().db, os.environ.get("HINDSIGHT_KEY_FILE"))
    hit = overwrites(target, protected)
    if hit is not None:
        fail(f"FILE: '{target}' is '{hit}', a file of the store or its key; an export or backup never overwrites "
             "them (name another file)")


def human_time(value: float | datetime | str | None, now: datetime | None = None) -> str:
    """'2026-12-02 10:04 UTC (3h ago)': an absolute UTC time a person can read, and how long ago it was."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        moment = datetime.fromisoformat(value)
    elif isinstance(value, datetime):
        moment = value
    else:
        moment = datetime.fromtimestamp(float(value), tz=UTC)
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    seconds = ((now or datetime.now(UTC)) - moment).total_seconds()
    if seconds < 0:
        ago = "in the future"
    elif seconds < 90:
        ago = "just now"
    else:
        for size, unit in ((86400 * 365, "y"), (86400 * 30, "mo"), (86400, "d"), (3600, "h"), (60, "min")):
            if seconds >= size:
                ago = f"{int(seconds // size)}{unit} ago"
                break
    return f"{moment.strftime('%Y-%m-%d %H:%M')} UTC ({ago})"


def changed_fields(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """Which fields a history entry changed (bookkeeping fields left out)."""
    if before is None or after is None:
        return []
    skip = {"updated_at", "last_accessed_at", "access_count"}
    return sorted(k for k in set(before) | set(after) if k not in skip and before.get(k) != after.get(k))
