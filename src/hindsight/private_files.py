"""Files that hold memories are the owner's alone: the store's directory 0700, the SQLite file, backups and
exports 0600 (whatever the umask). SQLite gives its -wal/-shm files the database file's mode.

Files an older hindsight created under umask 022 (0644 database, WAL, HNSW graph, a 0755 `~/.hindsight`) are
tightened when the store is opened (`tighten_store_files`), and a key file when it is read (`tighten`): only
what this process's user owns, group and other bits removed, logged once per open with every path it changed.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

DIR_MODE = 0o700
FILE_MODE = 0o600
#: the directory name of the default store (~/.hindsight): a parent directory hindsight made for itself
HOME_DIR_NAME = ".hindsight"
#: files next to the SQLite file that hold its data, and directories of derived indexes hindsight creates
STORE_FILE_SUFFIXES = ("", "-wal", "-shm", "-journal")
STORE_DIR_SUFFIXES = (".ann", ".qdrant", ".locks")

log = logging.getLogger("hindsight.files")


def tighten(paths: list[Path], what: str, shallow: tuple[Path, ...] = ()) -> list[Path]:
    """Remove group and other permissions from each existing path this process's user owns (what lies below a
    listed directory included, except below those in `shallow`); log one warning naming every changed path.
    Returns the changed paths."""
    if os.name != "posix":
        return []
    changed: list[Path] = []
    pending = [*paths, *shallow]
    while pending:
        path = pending.pop()
        try:
            info = path.lstat()
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode) or info.st_uid != os.geteuid():
            continue
        if stat.S_ISDIR(info.st_mode) and path not in shallow:
            try:
                pending += list(path.iterdir())
            except OSError:
                pass
        if stat.S_IMODE(info.st_mode) & 0o077:
            try:
                path.chmod(stat.S_IMODE(info.st_mode) & ~0o077)
            except OSError:
                continue
            changed.append(path)
    if changed:
        log.warning("hindsight: %s readable by other users, tightened to owner-only (0600 files, 0700 "
                    "directories): %s", what, ", ".join(sorted(str(p) for p in changed)))
    return changed


def tighten_store_files(db: Path) -> list[Path]:
    """The SQLite store's own files (database, WAL, index directories; `~/.hindsight` itself), made owner-only."""
    paths = [Path(f"{db}{suffix}") for suffix in STORE_FILE_SUFFIXES + STORE_DIR_SUFFIXES]
    home = (db.parent,) if db.parent.name == HOME_DIR_NAME else ()
    return tighten(paths, "store files", shallow=home)


def make_private_dirs(directory: Path) -> None:
    """Create `directory` and any missing parents 0700 (directories that already exist are left as they are)."""
    missing: list[Path] = []
    current = directory
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=DIR_MODE)
        except FileExistsError:
            pass


def create_private_file(path: Path, parents: bool = True) -> None:
    """Create an empty file 0600 for SQLite to fill (SQLite itself would create it 0644 under umask 022);
    an existing file is left alone. `parents=False`: a missing directory is not created (nothing is done)."""
    if not parents and not path.parent.is_dir():
        return
    make_private_dirs(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass


@contextmanager
def write_private_text(path: Path) -> Iterator[IO[str]]:
    """Write a text file 0600 atomically: to a temporary file beside it, renamed into place only on success,
    so a failed write leaves no file (and no half-written one) behind."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def store_files(db: str | Path | None, key_file: str | Path | None = None) -> list[Path]:
    """What an export or backup must never be written over: a SQLite store's file, its -wal/-shm/-journal and
    index directories, and the key file that opens its private memories (none for a PostgreSQL URL)."""
    paths: list[Path] = []
    text = str(db) if db is not None else ""
    if text and not text.startswith(("postgres://", "postgresql://")) and text != ":memory:":
        base = Path(text.removeprefix("sqlite:///")).expanduser()
        paths += [Path(f"{base}{suffix}") for suffix in STORE_FILE_SUFFIXES + STORE_DIR_SUFFIXES]
    if key_file:
        paths.append(Path(key_file).expanduser())
    return paths


def overwrites(target: Path, protected: list[Path]) -> Path | None:
    """The protected path `target` would overwrite or write into (the same path after `..` and links are
    resolved, the same file by another name, or a file inside an index directory), else None."""
    try:
        where = target.expanduser().resolve()
    except (OSError, RuntimeError):
        return None
    for path in protected:
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):
            continue
        if where == resolved or resolved in where.parents:
            return path
        try:
            if target.exists() and path.exists() and os.path.samefile(target, path):
                return path  # a hard link to the store is the store
        except OSError:
            continue
    return None
