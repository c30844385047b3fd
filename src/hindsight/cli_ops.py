"""Administration commands: tokens, the review queue, the audit timeline, backup and restore.

Tables with human times for people, `--json` for machines; ids are shown whole on a wide terminal and as unique
prefixes on a narrow one, and every id (proposal, memory, token) may be given as any unique prefix (cli_ids.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from hindsight.cli_common import (
    DbOption,
    JsonOption,
    NsOption,
    check_output_file,
    clip,
    console,
    err,
    fail,
    human_time,
    open_engine,
    open_store_only,
    print_json,
    show,
)
from hindsight.cli_ids import Matches, abbreviate, among, resolve_among, shown_id
from hindsight.errors import HindsightError
from hindsight.private_files import write_private_text

token_app = typer.Typer(help="Bearer tokens for the HTTP transport (stored hashed).", no_args_is_help=True)
quarantine_app = typer.Typer(help="Writes the guard held back: list them, release one (the owner's door).",
                             no_args_is_help=True)
review_app = typer.Typer(help="Reviewed namespaces: agent changes waiting for a person (also in the web console).",
                         no_args_is_help=True)


@token_app.command("create")
def token_create(
    name: Annotated[str, typer.Argument(help="Who or what the token is for.")],
    scope: Annotated[list[str], typer.Option("--scope", "-s", help=(
        "read, write, admin; metrics (scrape /metrics; give --namespace '*'); user_source (may write "
        "source=user) (repeatable)."))],
    namespace: Annotated[list[str], typer.Option("--namespace", "-n", help="Namespace it may use, or '*' (repeatable).")],
    db: DbOption = None,
) -> None:
    """Create a token; its secret is printed once."""
    from hindsight.security.tokens import TokenStore

    with open_store_only(db) as store:
        try:
            secret, info = TokenStore(store).create(name, scope, namespace)
        except HindsightError as exc:
            fail(str(exc))
            return
    print_json({"id": info.id, "name": info.name, "scopes": info.scopes, "namespaces": info.namespaces, "token": secret})


@token_app.command("list")
def token_list(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List tokens (never their secrets)."""
    from hindsight.security.tokens import TokenStore

    with open_store_only(db) as store:
        tokens = TokenStore(store).list()
    if as_json:
        print_json([t.__dict__ for t in tokens])
        return
    table = Table("id", "name", "scopes", "namespaces", "created", "state", title=f"{len(tokens)} tokens")
    table.columns[0].no_wrap = True  # `token revoke` takes the whole id: never cut it
    for t in tokens:
        table.add_row(t.id, show(t.name), ", ".join(t.scopes), show(", ".join(t.namespaces)),
                      human_time(t.created_at), "revoked" if t.revoked else "live")
    console.print(table)


@token_app.command("revoke")
def token_revoke(token_id: str, db: DbOption = None) -> None:
    """Revoke a token by id."""
    from hindsight.security.tokens import TokenStore

    with open_store_only(db) as store:
        tokens = TokenStore(store)
        try:
            full_id = resolve_among(token_id, (t.id for t in tokens.list()), "token_id", "token")
        except HindsightError as exc:
            fail(str(exc))
            return
        revoked = tokens.revoke(full_id)
    if not revoked:
        fail(f"token_id: {full_id} is already revoked")
    err.print(f"revoked {full_id}")


@contextmanager
def _review(db: str | None) -> Iterator[Any]:
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    with open_engine(db) as engine:
        yield ReviewService(engine, ReviewQueue(engine.store), engine.settings.reviewed_namespaces)


@review_app.command("list")
def review_list(
    status: Annotated[str, typer.Option(help="pending, approved or rejected.")] = "pending",
    db: DbOption = None,
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Default: every namespace.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Proposals (pending: oldest first), each with the memory it would change (same as memory_review_list)."""
    if status not in ("pending", "approved", "rejected"):
        fail("--status must be pending, approved or rejected")
    with _review(db) as review:
        views = [review.view(p) for p in review.queue.list(namespace, status, limit=500)]
        if as_json:
            print_json(views)
            return
        table = Table("id", "action", "namespace", "memory", "proposed", "by", "change", title=f"{len(views)} {status}")
        table.columns[0].no_wrap = True
        table.columns[3].no_wrap = True
        # what `review approve PREFIX` resolves among (read only when the table shows prefixes)
        proposals = among(p.id for p in _every_proposal(review)) if abbreviate(console) else among(())
        store = review.engine.store
        for v in views:
            change = v["payload"].get("content") or ", ".join(f"{k}={v['payload'][k]}" for k in v["payload"])
            memory = v.get("memory_id") or ""
            if memory:
                memory = shown_id(memory, _memories_of(store, v["namespace"]), console)
            table.add_row(shown_id(v["id"], proposals, console), v["action"], show(v["namespace"]), show(memory),
                          human_time(v["proposed_at"]), show(v["proposed_by"]), show(clip(str(change), 80)))
    console.print(table)


def _memories_of(store: Any, namespace: str) -> Matches:
    """`matches` over the memories of one namespace (what `get -n NAMESPACE PREFIX` resolves among)."""
    return lambda prefix: store.ids_with_prefix(prefix, namespace, limit=2)


def _every_proposal(review: Any) -> Iterator[Any]:
    offset = 0
    while True:
        page = review.queue.list(None, None, 500, offset)
        yield from page
        if len(page) < 500:
            return
        offset += 500


@review_app.command("approve")
def review_approve(proposal_id: str, note: Annotated[str, typer.Option()] = "", db: DbOption = None,
                   reviewer: Annotated[str, typer.Option(help="Name kept with the decision.")] = "local",
                   expected_version: Annotated[str | None, typer.Option(
                       help="current_version from `review list --json`: refused (version_conflict) if the memory "
                            "changed since.")] = None) -> None:
    """Apply a proposed change through the normal write path (a unique id prefix is enough)."""
    with _review(db) as review:
        print_json(review.approve(review.resolve_id(proposal_id), reviewer, note, expected_version=expected_version))


@review_app.command("reject")
def review_reject(proposal_id: str, note: Annotated[str, typer.Option()] = "", db: DbOption = None,
                  reviewer: Annotated[str, typer.Option(help="Name kept with the decision.")] = "local") -> None:
    """Reject a proposed change; the memory stays as it is (a unique id prefix is enough)."""
    with _review(db) as review:
        print_json(review.reject(review.resolve_id(proposal_id), reviewer, note))


@quarantine_app.command("list")
def quarantine_list(db: DbOption = None, namespace: NsOption = "default", as_json: JsonOption = False) -> None:
    """Quarantined writes, newest first, with the guard's reason (same as memory_quarantine_list)."""
    with open_engine(db) as engine:
        records, total = engine.quarantined(namespace, limit=500)
        if as_json:
            from hindsight.review.version import memory_version

            print_json({"total": total, "memories": [{**r.model_dump(mode="json"), "current_version": memory_version(r)}
                                                     for r in records]})
            return
        table = Table("id", "written", "by", "content", "why", title=f"{total} quarantined in {show(namespace)}")
        table.columns[0].no_wrap = True
        for r in records:
            shown = shown_id(r.id, lambda p: engine.store.ids_with_prefix(p, namespace, limit=2), console)
            table.add_row(shown, human_time(r.created_at), show(r.created_by), show(clip(r.content, 80)),
                          show(clip(r.status_reason, 60)))
    console.print(table)


@quarantine_app.command("release")
def quarantine_release(memory_id: str, note: Annotated[str, typer.Option(help="Why it is legitimate.")] = "",
                       db: DbOption = None, namespace: NsOption = "default",
                       expected_version: Annotated[str | None, typer.Option(
                           help="The current_version `quarantine list --json` showed: refused if the memory changed "
                                "since.")] = None) -> None:
    """Release a quarantined write into normal use (kept in history). The owner's door: an agent's own write is
    released here or by another admin, never by the agent's MCP door (docs/security.md)."""
    with open_engine(db) as engine:
        try:
            record = engine.release(engine.resolve_id(memory_id, namespace), namespace, "local", note, expected_version)
        except HindsightError as exc:
            fail(f"{exc.code}: {exc}")
            return
    print_json({"memory_id": record.id, "status": record.status.value})


def audit(limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50, db: DbOption = None,
          as_json: JsonOption = False) -> None:
    """Audit timeline: every change (with its principal) and every denied access, newest first."""
    from hindsight.security.audit import AuditLog

    with open_store_only(db) as store:
        entries = AuditLog(store).entries(limit)
        if as_json:
            print_json([e.__dict__ for e in entries])
            return
        table = Table("when", "principal", "action", "outcome", "namespace", "memory", "detail")
        table.columns[5].no_wrap = True
        for e in entries:
            # every column as text, never markup or terminal codes: a refused call's action (a console path) and memory
            # id are the caller's own words (attack round 32: a read token's id "[/bold]" made this command fail, an
            # ESC sequence cleared the operator's screen); an id that names no memory of its namespace stays whole
            memory = e.memory_id or ""
            if memory and e.namespace:
                memory = shown_id(memory, _memories_of(store, e.namespace), console)
            table.add_row(human_time(e.at), show(e.principal), show(e.action), show(e.outcome), show(e.namespace or ""),
                          show(memory), show(clip(e.detail, 80)))
    console.print(table)


def backup(
    file: Annotated[Path, typer.Argument(help="Where to write: *.db/*.sqlite (SQLite online backup) or *.jsonl.")],
    with_tokens: Annotated[bool, typer.Option("--with-tokens", help="Include HTTP tokens (hashes only).")] = False,
    db: DbOption = None,
) -> None:
    """A faithful copy of the store: ids, statuses, history, edges, vectors (tokens with --with-tokens)."""
    from hindsight.backup import backup_sqlite, is_sqlite_file, write_jsonl
    from hindsight.security.tokens import TokenStore

    check_output_file(file, db)
    if file.exists():
        fail(f"{file} exists; a backup never overwrites a file")
    with open_engine(db) as engine:
        if is_sqlite_file(file):
            backup_sqlite(engine, file, with_tokens)
            err.print(f"backed up {engine.stats().total} memories to {show(str(file))} (SQLite online backup"
                      f"{', tokens included' if with_tokens else ''})")
            return
        tokens = TokenStore(engine.store) if with_tokens else None
        with write_private_text(file) as handle:  # 0600; a failed backup leaves no file behind
            counts = write_jsonl(engine.store, handle, tokens)
    err.print(f"backed up to {show(str(file))}: {counts}")


def restore(
    file: Annotated[Path, typer.Argument(help="A file written by `hindsight backup`.")],
    with_tokens: Annotated[bool, typer.Option("--with-tokens", help="Also restore HTTP tokens from the backup.")] = False,
    db: DbOption = None,
) -> None:
    """Restore a backup into an empty store (--db NEW): same ids, statuses, history and edges."""
    from hindsight.backup import restore_file
    from hindsight.security.tokens import TokenStore

    with open_engine(db) as engine:
        counts = restore_file(engine, file, TokenStore(engine.store), keep_tokens=with_tokens)
    err.print(f"restored from {show(str(file))}: {counts}")


def rotate_key(
    new_key_file: Annotated[Path, typer.Option("--new-key-file", help="A file holding the new key "
                                                "(`hindsight keygen > FILE`); the current key comes from "
                                                "HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE as usual.")],
    db: DbOption = None,
    queue: Annotated[list[Path] | None, typer.Option("--queue", metavar="FILE", help="Also re-seal a ResilientClient queue file "
                                                      "sealed with the current key (repeatable).")] = None,
) -> None:
    """Re-encrypt every private memory (and its history) under a new key, in one transaction; stop servers first
    (or run it again after: what is already under the new key is left as it is)."""
    from hindsight.client.queue import rotate_queue_file
    from hindsight.private_files import tighten
    from hindsight.security.crypto import cipher_from_text, load_cipher
    from hindsight.security.rotate import rotate_key as rotate

    try:
        old = load_cipher()
        if old is None:
            fail("rotate-key: set the current key (HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE); nothing changed")
            return
        try:
            text = new_key_file.read_text().strip()
        except OSError as exc:
            fail(f"--new-key-file: cannot read {show(str(new_key_file))} ({exc.strerror}); nothing changed")
            return
        tighten([new_key_file], "the new key file")
        new = cipher_from_text(text, "--new-key-file")
        with open_store_only(db) as store:
            report = rotate(store, old, new)
        queued = {str(path): rotate_queue_file(path, old, new) for path in queue or []}
    except HindsightError as exc:
        fail(f"rotate-key: {exc}")
        return
    print_json({**report.as_dict(), **({"queue_files": queued} if queued else {})})
    err.print("rotated: from now on use the new key (HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE); backups taken "
              "before this need the old key")


def register(app: typer.Typer) -> None:
    app.add_typer(token_app, name="token")
    app.add_typer(review_app, name="review")
    app.add_typer(quarantine_app, name="quarantine")
    app.command()(audit)
    app.command("rotate-key")(rotate_key)
    app.command()(backup)
    app.command()(restore)
