"""`hindsight client-queue`: look into a ResilientClient's queue file and replay what it set aside.

`list` shows the writes still waiting (tries, refusals, last error), `dead` the dead letters (writes the server
refused for good, or kept refusing with an ambiguous error), `replay ID|all` moves dead letters back to the end of
the queue with their first idempotency key (the next flush of a client on that file sends them; a write the
server already stored is answered `replayed`, not stored twice). Private writes stay sealed; with the client's key
(HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE) their arguments are shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hindsight.cli_common import err, print_json, show
from hindsight.errors import HindsightError, InvalidInputError

if TYPE_CHECKING:
    from hindsight.client.queue import WriteQueue

queue_app = typer.Typer(help="A ResilientClient's queue file: pending writes and dead letters (list, replay).",
                        no_args_is_help=True)
QueueOption = Annotated[Path, typer.Option("--queue", metavar="FILE", help="The client's queue file.")]


@contextmanager
def _open(path: Path) -> Iterator[WriteQueue]:
    """The queue file (never created here); a typed error becomes one line on stderr and exit status 2."""
    from hindsight.client.queue import WriteQueue
    from hindsight.security.crypto import load_cipher

    try:
        if not path.is_file():
            raise InvalidInputError(f"--queue: no queue file at {path}; nothing changed")
        q = WriteQueue(path, load_cipher())
        try:
            yield q
        finally:
            q.close()
    except HindsightError as exc:
        err.print(f"[red]error ({exc.code}):[/red] {show(str(exc))}")
        raise typer.Exit(2 if isinstance(exc, InvalidInputError) else 1) from exc


@queue_app.command("list")
def list_(queue: QueueOption) -> None:
    """The writes still waiting, in delivery order."""
    with _open(queue) as q:
        print_json(q.queued())


@queue_app.command()
def dead(queue: QueueOption) -> None:
    """The dead letters, oldest first, with the error that set each aside."""
    with _open(queue) as q:
        print_json(q.dead_letters())


@queue_app.command()
def replay(which: Annotated[str, typer.Argument(help="A dead letter's id, or 'all'.")], queue: QueueOption) -> None:
    """Move dead letters back to the end of the queue (same idempotency key)."""
    with _open(queue) as q:
        ids = [d["id"] for d in q.dead_letters()] if which == "all" else [_dead_id(which)]
        moved = {}
        for dead_id in ids:
            try:
                moved[str(dead_id)] = q.replay(int(dead_id))
            except KeyError:
                raise InvalidInputError(f"id: no dead letter {dead_id} in {queue}; nothing changed") from None
        print_json({"replayed": moved})
        if moved:
            err.print(f"{len(moved)} write(s) queued again; a client on {queue} sends them at its next flush")


def _dead_id(text: str) -> int:
    if not text.strip().isdigit():
        raise InvalidInputError(f"id: '{text}' is not a dead letter id (a number) or 'all'")
    return int(text)


def register(app: typer.Typer) -> None:
    app.add_typer(queue_app, name="client-queue")
