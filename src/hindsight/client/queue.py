"""The client's durable write queue and dead-letter table (one local SQLite file).

A write that could not be confirmed waits here, with the idempotency key it was
first sent with, until the server takes it; a write the server refused for good
(invalid input, a schema refusal), or kept refusing with an ambiguous error past the
client's cap (`refusals` counts those), moves to `dead_letters`, which the user can list
and replay (`replay`: back to the end of the queue with the same idempotency key, so a
write the server did store is not stored twice) instead of vanishing.

A private write (`private: true`) is kept sealed in both tables: its arguments are encrypted with the client's
key (HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE, the same AES-GCM machinery as the store's, bound to the
tool), so the queue file never holds a private memory's text; without a key such a write is refused instead of
queued. `hindsight rotate-key --queue FILE` re-seals a queue file under a new key.

Every other queued write is the caller's text as sent (no server has redacted it yet), so the file is the owner's
alone: created 0600 whatever the umask, and a file an older client left readable is tightened when opened
(attack round 12; the store, backups and exports have been 0600 since round 2).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hindsight.errors import InvalidInputError, ProviderUnavailableError, StorageUnavailableError
from hindsight.private_files import STORE_FILE_SUFFIXES, create_private_file, tighten
from hindsight.security.crypto import PREFIX, MemoryCipher

_SCHEMA = """
CREATE TABLE IF NOT EXISTS queue (id INTEGER PRIMARY KEY AUTOINCREMENT, tool TEXT NOT NULL,
    arguments TEXT NOT NULL, queued_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letters (id INTEGER PRIMARY KEY AUTOINCREMENT, queue_id INTEGER NOT NULL,
    tool TEXT NOT NULL, arguments TEXT NOT NULL, queued_at REAL NOT NULL, failed_at REAL NOT NULL,
    attempts INTEGER NOT NULL, error TEXT NOT NULL)
"""
_QUEUE_COLUMNS = {"attempts": "INTEGER NOT NULL DEFAULT 0", "last_error": "TEXT NOT NULL DEFAULT ''",
                  "next_attempt_at": "REAL NOT NULL DEFAULT 0", "refusals": "INTEGER NOT NULL DEFAULT 0"}


def _unusable(path: str | Path, why: object, outcome: str = "nothing was queued") -> InvalidInputError:
    """A queue path the client cannot use (attack round 8: sqlite3.DatabaseError escaped the constructor)."""
    return InvalidInputError(f"queue_path: '{path}' cannot be the client's queue file (a SQLite database only the "
                             f"client writes; a new path is created): {why}; {outcome}")


@dataclass
class QueuedWrite:
    id: int
    tool: str
    arguments: dict[str, Any]
    attempts: int
    next_attempt_at: float
    refusals: int = 0


class WriteQueue:
    """FIFO of tool calls with their arguments (idempotency key included); safe across threads."""

    def __init__(self, path: str | Path, cipher: MemoryCipher | None = None) -> None:
        self._cipher = cipher
        self._lock = threading.Lock()
        self.path = path
        if str(path) != ":memory:":  # queued writes are the caller's text as sent (not yet redacted by any server)
            create_private_file(Path(path), parents=False)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise _unusable(path, exc) from exc
        try:
            self._prepare(path)
        except (sqlite3.Error, InvalidInputError) as exc:  # not a SQLite file, damaged, or some other database
            self._db.close()
            raise exc if isinstance(exc, InvalidInputError) else _unusable(path, exc) from exc
        if str(path) != ":memory:":  # a queue file an older client left 0644 (attack round 12), and its WAL
            tighten([Path(f"{path}{suffix}") for suffix in STORE_FILE_SUFFIXES], "client queue files")

    def _prepare(self, path: str | Path) -> None:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = sorted(tables - {"queue", "dead_letters", "sqlite_sequence"})
        if foreign:  # a hindsight store or any other database: its tables are not the client's to change
            raise _unusable(path, f"it is another database (tables {', '.join(foreign[:5])})")
        # damage past the first page (a torn copy, a disk error) opened fine and failed at the first read, in the
        # flush worker, which died of it (attack round 17): the whole file is checked before it is used
        verdict = str(self._db.execute("PRAGMA quick_check").fetchone()[0])
        if verdict != "ok":
            raise _unusable(path, f"it is damaged ({verdict[:200]})")
        self._db.execute("PRAGMA journal_mode=WAL")
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self._db.execute(statement)
        present = {row[1] for row in self._db.execute("PRAGMA table_info(queue)")}
        for column, declaration in _QUEUE_COLUMNS.items():  # queue files from before the retry columns
            if column not in present:
                self._db.execute(f"ALTER TABLE queue ADD COLUMN {column} {declaration}")

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The queue's lock; the file damaged while in use (another process cut or overwrote it) is a typed refusal
        naming queue_path, not a raw sqlite3.DatabaseError (a busy or locked file stays an OperationalError)."""
        with self._lock:
            try:
                yield
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError):
                    raise
                raise _unusable(self.path, f"it is damaged ({exc})", "move it aside and give the client a new path "
                                "(`hindsight client-queue dead|replay --queue FILE` read what is left)") from exc

    def _pack(self, tool: str, arguments: dict[str, Any]) -> str:
        text = json.dumps(arguments, default=str)
        if not marked_private(arguments.get("private")):
            return text
        if self._cipher is None:
            raise ProviderUnavailableError(
                f"{tool}: a private write that could not be delivered is queued only sealed: set "
                "HINDSIGHT_ENCRYPTION_KEY or HINDSIGHT_KEY_FILE for the client; it was not stored or queued")
        return self._cipher.encrypt(text, queue_bound(tool))

    def _unpack(self, tool: str, text: str) -> dict[str, Any]:
        if not text.startswith(PREFIX):
            return dict(json.loads(text))
        if self._cipher is None:
            raise ProviderUnavailableError(f"{tool}: a queued private write is sealed: set HINDSIGHT_ENCRYPTION_KEY "
                                           "or HINDSIGHT_KEY_FILE for the client to send it")
        return dict(json.loads(self._cipher.decrypt(text, queue_bound(tool))))

    def _shown(self, tool: str, text: str) -> dict[str, Any]:
        try:
            return self._unpack(tool, text)
        except ProviderUnavailableError:
            return {"sealed": "[encrypted: set HINDSIGHT_ENCRYPTION_KEY to read]"}
        except (ValueError, TypeError):
            return {"unreadable": "[not a JSON object: the queue file was damaged]"}

    def add(self, tool: str, arguments: dict[str, Any], error: str = "", not_before: float = 0.0) -> int:
        """Queue a write; `not_before`: the time it may first be sent (a server's Retry-After), else at once."""
        packed = self._pack(tool, arguments)
        with self._locked():
            try:
                cursor = self._db.execute("INSERT INTO queue(tool, arguments, queued_at, last_error, "
                                          "next_attempt_at) VALUES (?, ?, ?, ?, ?)",
                                          (tool, packed, time.time(), error[:2000], not_before))
            except sqlite3.OperationalError as exc:  # a full disk (SQLITE_FULL) or a read-only file (round 34: raw)
                if not _cannot_grow(exc):
                    raise
                raise StorageUnavailableError(
                    f"queue_path: '{self.path}' cannot hold the write ({exc}): {tool} was not confirmed by the "
                    "server and is not queued; free space (or make the file writable) and send it again") from exc
        return int(cursor.lastrowid or 0)

    def head(self) -> QueuedWrite | None:
        """The oldest queued write; one queued by an older client without a key gets one now, before it is sent.

        A write this client cannot read (sealed under another key or with no key set, or not JSON: a damaged
        file) is set aside as a dead letter, kept as it was, so it cannot stop the writes behind it; once the
        key is set, `replay` sends it (attack round 7: it used to stop the worker and every later write).
        """
        while True:
            with self._locked():
                row = self._db.execute("SELECT id, tool, arguments, attempts, next_attempt_at, refusals FROM queue "
                                       "ORDER BY id LIMIT 1").fetchone()
                if row is None:
                    return None
                try:
                    arguments = self._unpack(str(row[1]), str(row[2]))
                except (ProviderUnavailableError, ValueError, TypeError) as exc:
                    unreadable = f"unreadable here, set aside: {type(exc).__name__}: {exc}"
                else:
                    if not arguments.get("idempotency_key"):
                        arguments["idempotency_key"] = new_key()
                        # only over the row as read: a second client sharing this file may have given it a key
                        # meanwhile, and two keys would store the write twice (attack round 17); then read it again
                        given = self._db.execute("UPDATE queue SET arguments = ? WHERE id = ? AND arguments = ?",
                                                 (self._pack(str(row[1]), arguments), row[0], row[2]))
                        if given.rowcount == 0:
                            continue
                    return QueuedWrite(int(row[0]), str(row[1]), arguments, int(row[3]), float(row[4]), int(row[5]))
            self.dead_letter(int(row[0]), unreadable)

    def done(self, item_id: int) -> None:
        with self._locked():
            self._db.execute("DELETE FROM queue WHERE id = ?", (item_id,))

    def failed(self, item_id: int, error: str, next_attempt_at: float, refused: bool = False) -> None:
        """One more failed try; `refused`: the server answered with an ambiguous error (counted in `refusals`)."""
        with self._locked():
            self._db.execute("UPDATE queue SET attempts = attempts + 1, refusals = refusals + ?, last_error = ?, "
                             "next_attempt_at = ? WHERE id = ?", (int(refused), error[:2000], next_attempt_at, item_id))

    def replay(self, dead_id: int) -> int:
        """Move dead letter `dead_id` back to the end of the queue, arguments (idempotency key, sealing) unchanged,
        tries reset, in one transaction; returns its new queue id. A dead letter replays once."""
        with self._locked():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT tool, arguments, queued_at, error FROM dead_letters WHERE id = ?",
                                       (dead_id,)).fetchone()
                if row is None:
                    raise KeyError(dead_id)
                cursor = self._db.execute("INSERT INTO queue(tool, arguments, queued_at, last_error) VALUES "
                                          "(?, ?, ?, ?)", (row[0], row[1], row[2], f"replayed after: {row[3]}"[:2000]))
                self._db.execute("DELETE FROM dead_letters WHERE id = ?", (dead_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return int(cursor.lastrowid or 0)

    def dead_letter(self, item_id: int, error: str) -> None:
        """Move a refused write out of the queue into dead_letters, in one transaction."""
        with self._locked():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO dead_letters(queue_id, tool, arguments, queued_at, failed_at, attempts, "
                                 "error) SELECT id, tool, arguments, queued_at, ?, attempts + 1, ? FROM queue "
                                 "WHERE id = ?", (time.time(), error[:2000], item_id))
                self._db.execute("DELETE FROM queue WHERE id = ?", (item_id,))
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise

    def __len__(self) -> int:
        with self._locked():
            return int(self._db.execute("SELECT COUNT(*) FROM queue").fetchone()[0])

    def dead_letters(self) -> list[dict[str, Any]]:
        """Writes the server refused for good, oldest first, with its message."""
        with self._locked():
            rows = self._db.execute("SELECT id, queue_id, tool, arguments, queued_at, failed_at, attempts, error "
                                    "FROM dead_letters ORDER BY id").fetchall()
        keys = ("id", "queue_id", "tool", "arguments", "queued_at", "failed_at", "attempts", "error")
        return [{**dict(zip(keys, row)), "arguments": self._shown(str(row[2]), str(row[3]))} for row in rows]

    def queued(self) -> list[dict[str, Any]]:
        """The writes still waiting, in delivery order, with their attempts and last error."""
        with self._locked():
            rows = self._db.execute("SELECT id, tool, arguments, queued_at, attempts, last_error, next_attempt_at, "
                                    "refusals FROM queue ORDER BY id").fetchall()
        keys = ("id", "tool", "arguments", "queued_at", "attempts", "last_error", "next_attempt_at", "refusals")
        return [{**dict(zip(keys, row)), "arguments": self._shown(str(row[1]), str(row[2]))} for row in rows]

    def close(self) -> None:
        with self._locked():
            self._db.close()


def marked_private(value: object) -> bool:
    """Whether a write's `private` argument asks for privacy: anything but absent, null, false or a value the
    server's lax reading takes as false (round 34: `private=1`, `"true"`, numpy's `True_` were queued in clear
    because only `True` itself was sealed). When in doubt, sealed."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return value.strip().lower() not in _FALSE_WORDS
    try:
        return bool(value)
    except (TypeError, ValueError):
        return True


_FALSE_WORDS = frozenset({"", "0", "false", "f", "no", "n", "off"})


def _cannot_grow(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "full" in text or "readonly" in text or "read-only" in text


def queue_bound(tool: str) -> str:
    """The associated data a queued private write is sealed with (its tool)."""
    return f"queue\x00{tool}"


def new_key() -> str:
    return "hs-" + uuid.uuid4().hex


def rotate_queue_file(path: str | Path, old: MemoryCipher, new: MemoryCipher) -> int:
    """Re-seal every sealed private write of a client's queue file (queue and dead letters) from `old` to `new`,
    in one transaction; returns how many. Like `rotate-key` on the store: a value already under `new` is left."""
    from hindsight.security.rotate import Resealer, RotationReport

    if not Path(path).is_file():
        raise ProviderUnavailableError(f"--queue: no queue file at {path}; nothing changed")
    reseal = Resealer(old, new, RotationReport())
    count = 0
    db = sqlite3.connect(str(path), isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        for table in ("queue", "dead_letters"):
            rows = db.execute(f"SELECT id, tool, arguments FROM {table} WHERE arguments LIKE ?", (f"{PREFIX}%",))
            for row_id, tool, arguments in rows.fetchall():
                db.execute(f"UPDATE {table} SET arguments = ? WHERE id = ?",
                           (reseal.value(arguments, queue_bound(tool)), row_id))
                count += 1
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    finally:
        db.close()
    return count
