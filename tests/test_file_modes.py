"""Files that hold memories are the owner's alone (attack finding E): under umask 022 the store's directory is
created 0700, memory.db and its WAL 0600, and `hindsight backup` (both formats) and `hindsight export` write 0600."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hindsight.cli import app
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_store_backup_and_export_files_are_private(tmp_path: Path, embedder: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY", raising=False)
    old = os.umask(0o022)
    try:
        home = tmp_path / "home" / ".hindsight"
        db = home / "memory.db"
        engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder=embedder)
        engine.store_memory({"content": "a plain note"})
        assert _mode(home) == 0o700 and _mode(db) == 0o600
        assert _mode(Path(f"{db}-wal")) == 0o600
        engine.close()
        for name in ("b.db", "b.jsonl"):
            assert _cli("backup", str(tmp_path / name), "--db", str(db)).exit_code == 0
            assert _mode(tmp_path / name) == 0o600, name
        assert _cli("export", str(tmp_path / "e.jsonl"), "--db", str(db)).exit_code == 0
        assert _mode(tmp_path / "e.jsonl") == 0o600
    finally:
        os.umask(old)
