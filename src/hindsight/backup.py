"""Backup and restore: a faithful copy of a store (ids, statuses, history, edges, vectors; tokens optional).

Two formats, chosen by the file name:

* ``*.db`` / ``*.sqlite`` / ``*.sqlite3``: the SQLite fast path, SQLite's online backup API over the store's own
  connection (byte-faithful, safe while the server runs); tokens are dropped from the copy unless asked for.
* anything else: a store-agnostic JSON-lines file: one header line, then one line per memory (with its vector),
  per history entry (deleted memories' too), per edge and, with tokens, per token (hashes only).

Restore needs an *empty* store. A SQLite backup is copied back page for page (`SQLiteStore.restore_from`: review
proposals and the audit log too); JSON lines go through `MemoryStore.restore_raw`. Either way ids, timestamps,
statuses and every history entry come back exactly; nothing is re-screened or re-deduplicated (it is a copy of
data that already passed the write path). Every JSON line is checked first (`backup_check.py`, attack round 16): a
line that breaks a rule of a stored row is refused naming the line, the field and the rule, and nothing is written.
JSONL export/import stays the way to move memories between stores.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import numpy as np

from hindsight._version import __version__
from hindsight.backup_check import (
    BackupLineError,
    check_edge,
    check_edge_ends,
    check_history,
    check_memory,
    check_token,
    check_unique,
)
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, InvalidInputError, StorageError
from hindsight.field_rules import utcnow
from hindsight.jsonl import json_objects
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry
from hindsight.security.crypto import PREFIX
from hindsight.security.key_check import CANARY_KEY, stored_canary
from hindsight.security.tokens import TokenStore
from hindsight.storage.aux_tables import KEPT_SECRETS
from hindsight.storage.base import Edge, MemoryStore
from hindsight.storage.encrypted import texts_to_embed
from hindsight.url_secrets import scrubbed

FORMAT = "hindsight-backup"
FORMAT_VERSION = 1
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def is_sqlite_file(path: Path) -> bool:
    return path.suffix.lower() in SQLITE_SUFFIXES


def _vector_text(vector: np.ndarray | None) -> str | None:
    return None if vector is None else base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode()


def write_jsonl(store: MemoryStore, out: IO[str], tokens: TokenStore | None = None) -> dict[str, int]:
    """Write the whole store as backup lines; returns counts by kind."""
    counts = {"memories": 0, "history": 0, "edges": 0, "tokens": 0}
    header: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "hindsight": __version__,
                              "created_at": utcnow().isoformat(), "embedding_model": scrubbed(store.embedding_model) if store.embedding_model else None}
    if getattr(store, "supports_encryption", False):  # the per-store secrets, sealed under the store's key
        header["secrets"] = {name: store.seal_text(value, _secret_bound(name)) for name, value in
                             store.kept_secrets().items()}
    out.write(json.dumps(header) + "\n")
    batch: list[MemoryRecord] = []

    def flush() -> None:
        vectors = store.get_embeddings([r.id for r in batch])
        for record in batch:
            out.write(json.dumps({"memory": record.model_dump(mode="json"),
                                  "vector": _vector_text(vectors.get(record.id))}, ensure_ascii=False) + "\n")
        counts["memories"] += len(batch)
        batch.clear()

    # private memories are written sealed, as stored: a backup never holds their plaintext (restore needs the key)
    for record in getattr(store, "iter_sealed", store.iter_all)():
        batch.append(record)
        if len(batch) >= 256:
            flush()
    flush()
    for entry in store.all_history():
        out.write(json.dumps({"history": entry.model_dump(mode="json")}, ensure_ascii=False) + "\n")
        counts["history"] += 1
    for edge in store.all_edges():
        data = asdict(edge)
        data["created_at"] = edge.created_at.isoformat() if edge.created_at else None
        out.write(json.dumps({"edge": data}) + "\n")
        counts["edges"] += 1
    for row in tokens.export_rows() if tokens is not None else []:
        out.write(json.dumps({"token": row}) + "\n")
        counts["tokens"] += 1
    return counts


def _secret_bound(name: str) -> str:
    return f"kept_secret\x00{name}"


def adopt_secrets(store: MemoryStore, secrets: dict[str, str]) -> int:
    """Keep the backed-up store's per-store secrets (the key of session-id pseudonyms, write/labels.py; the
    console's CSRF key) in the restored one, replacing any its empty store made (attack round 27: a store restored
    from a `.jsonl` backup on another machine made a new label secret, and a session filter naming the clear
    mailbox no longer found the memories stored under the old pseudonym). Returns how many it kept."""
    with store.transaction():
        for name in secrets:
            store._aux_exec(f"DELETE FROM {store._meta_table()} WHERE key = ?", (name,))
        store.keep_secrets(secrets)
    return len(secrets)


def _opened_secrets(store: MemoryStore, sealed: dict[str, str]) -> dict[str, str]:
    """A backup header's sealed secrets opened with the store's key; none without it (a restore without the key
    keeps the memories sealed and the pseudonyms as they are, but cannot map a filter's clear value to them)."""
    if not getattr(store, "supports_encryption", False):
        return {}
    try:
        return {name: store.open_text(value, _secret_bound(name)) for name, value in sealed.items()}
    except (HindsightError, ValueError):  # another key: the memories' text will not open either
        return {}


def backup_sqlite(engine: MemoryEngine, target: Path, with_tokens: bool) -> None:
    """The fast path: SQLite's online backup of the store file, then (by default) no tokens in the copy."""
    backup_to = getattr(engine.store, "backup_to", None)
    if backup_to is None:
        raise InvalidInputError(f"FILE: this store has no SQLite fast path; name the backup *.jsonl, not {target.name}")
    if target.exists():
        raise InvalidInputError(f"FILE: '{target}' exists; a backup never overwrites a file")
    backup_to(target)
    if not with_tokens:
        copy = sqlite3.connect(str(target))
        try:
            copy.execute("DELETE FROM tokens")
            copy.commit()
            copy.execute("VACUUM")
        finally:
            copy.close()


def _read_jsonl(lines: Iterator[str] | Iterator[bytes]) -> Iterator[tuple[int, str, Any]]:
    header_seen = False
    for number, item in json_objects(lines):
        if not header_seen:
            if item.get("format") != FORMAT:
                raise InvalidInputError("FILE: not a hindsight backup (its first line has no "
                                        f"\"format\": \"{FORMAT}\"; use `hindsight import` for export files)")
            version = item.get("version", 0)
            if isinstance(version, bool) or not isinstance(version, int):
                raise BackupLineError(number, "version", "must be a whole number (the backup format's version)")
            if version > FORMAT_VERSION:
                raise InvalidInputError(f"FILE: backup format {version} is newer than this hindsight")
            model = item.get("embedding_model")
            if model is not None and not isinstance(model, str):
                raise BackupLineError(number, "embedding_model", "must be a model name or null")
            secrets = item.get("secrets", {})
            if not isinstance(secrets, dict) or not all(
                    k in KEPT_SECRETS and isinstance(v, str) and v.startswith(PREFIX) for k, v in secrets.items()):
                raise BackupLineError(number, "secrets", f"must map {' / '.join(KEPT_SECRETS)} to sealed values")
            header_seen = True
            yield number, "header", item
            continue
        kind = next((k for k in ("memory", "history", "edge", "token") if k in item), None)
        if kind is None or len(item) > (2 if kind == "memory" else 1):
            raise BackupLineError(number, ", ".join(sorted(item))[:80] or "line",
                                  "expected one memory (with its vector), history, edge or token object")
        yield number, kind, item


def restore_jsonl(engine: MemoryEngine, lines: Iterator[str] | Iterator[bytes], tokens: TokenStore | None = None) -> dict[str, int]:
    """Load a JSONL backup into the engine's empty store. Every line is checked first (backup_check.py: a line that
    breaks a rule is a `BackupLineError` naming the line, the field and the rule); only then is anything written,
    memories, history and edges in one transaction, and tokens after them."""
    records: list[tuple[MemoryRecord, np.ndarray | None]] = []
    history: list[HistoryEntry] = []
    edges: list[tuple[int, Edge]] = []
    token_rows: list[dict[str, Any]] = []
    model = None
    secrets: dict[str, str] = {}
    ids: set[str] = set()
    token_keys: set[str] = set()
    for number, kind, item in _read_jsonl(lines):
        if kind == "header":
            model = item.get("embedding_model")
            model = scrubbed(model) if isinstance(model, str) else model  # an older backup's endpoint credentials
            secrets = _opened_secrets(engine.store, item.get("secrets", {}))
        elif kind == "memory":
            dim = engine.embedder.dim if model in (None, engine.embedder.name) else None
            record, vector = check_memory(number, item, dim)
            check_unique(number, ids, record.id, "memory.id")
            records.append((record, vector))
        elif kind == "history":
            history.append(check_history(number, item))
        elif kind == "edge":
            edges.append((number, check_edge(number, item)))
        else:
            row = check_token(number, item)
            check_unique(number, token_keys, f"id {row['id']}", "token.id")
            check_unique(number, token_keys, f"hash {row['token_hash']}", "token.token_hash")
            token_rows.append(row)
    check_edge_ends(edges, {record.id: record.namespace for record, _ in records})
    if model is not None and model != engine.embedder.name:
        # vectors of another model are useless here: embed the text again with this engine's embedder (a private
        # memory's opened text, with the store's key; without it the restore is refused before anything is written)
        texts = texts_to_embed(engine.store, [record for record, _ in records],
                               f"embedding_model: the backup's vectors are {model}'s, this store embeds with "
                               f"{engine.embedder.name}")
        if texts:
            fresh = engine.embedder.embed_documents(texts)
            records = [(record, fresh[i]) for i, (record, _) in enumerate(records)]
    engine.store.restore_raw(records, history, [edge for _, edge in edges])
    kept = adopt_secrets(engine.store, secrets) if secrets else 0
    restored = tokens.import_rows(token_rows) if tokens is not None and token_rows else 0
    return {"memories": len(records), "history": len(history), "edges": len(edges), "tokens": restored,
            "secrets": kept}


def restore_file(engine: MemoryEngine, source: Path, tokens: TokenStore | None = None,
                 keep_tokens: bool = False) -> dict[str, int]:
    """Restore from either format into the engine's empty store.

    A SQLite backup is copied page for page when the store supports it (everything comes back, review proposals
    and audit included; tokens only with `keep_tokens`); otherwise it is read as a store and replayed as JSON lines.
    """
    if not source.exists():
        raise InvalidInputError(f"FILE: no such file: {source}")
    if not source.is_file():  # a directory was an IsADirectoryError; a FIFO or /dev/zero never ended
        raise InvalidInputError(f"FILE: '{source}' is not a regular file")
    if not is_sqlite_file(source):
        with source.open("rb") as handle:  # bytes: a line that is not UTF-8 is named, not a traceback
            return restore_jsonl(engine, iter(handle), tokens if keep_tokens else None)
    restore_from = getattr(engine.store, "restore_from", None)
    if restore_from is not None:
        restore_from(source)
        if not keep_tokens and tokens is not None:
            tokens.delete_all()
        store = engine.store
        return {"memories": sum(1 for _ in store.iter_all()), "history": sum(1 for _ in store.all_history()),
                "edges": len(store.all_edges()), "tokens": len(tokens.list()) if tokens is not None else 0}
    from io import StringIO

    from hindsight.storage.factory import open_raw_store

    try:
        origin = open_raw_store(source)  # records as stored: private ones stay sealed on the way through
    except StorageError as exc:
        raise InvalidInputError(f"FILE: {exc}") from exc
    buffer = StringIO()
    try:
        write_jsonl(origin, buffer, TokenStore(origin) if keep_tokens else None)
        secrets = origin.kept_secrets()
        canary = stored_canary(origin)
    finally:
        origin.close()
    buffer.seek(0)
    counts = restore_jsonl(engine, iter(buffer), tokens if keep_tokens else None)
    if canary is not None and canary.startswith(PREFIX):  # the key the copied values are sealed with stays the store's (attack round 37)
        engine.store.keep_secrets({CANARY_KEY: canary})
    return {**counts, "secrets": adopt_secrets(engine.store, secrets)}
