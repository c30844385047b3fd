"""Files that hold memories are the owner's alone: the store's directory 0700, the SQLite file, backups and
exports 0600 (whatever the umask). SQLite gives its -wal/-shm files the database file's mode."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

DIR_MODE = 0o700
FILE_MODE = 0o600


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


def create_private_file(path: Path) -> None:
    """Create an empty file 0600 for SQLite to fill (SQLite itself would create it 0644 under umask 022);
    an existing file is left alone."""
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
