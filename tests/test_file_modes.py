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


def test_files_an_older_version_left_readable_are_tightened_on_open(tmp_path: Path, embedder: Any,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Before this fix a store opened by the new version kept the 0644/0755 modes an older one had created (and
    the HNSW graph was written 0644 in a 0755 directory)."""
    from hindsight.security.crypto import generate_key

    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY", raising=False)
    home = tmp_path / "home" / ".hindsight"
    db = home / "memory.db"
    key_file = tmp_path / "hindsight.key"
    key_file.write_text(generate_key())
    monkeypatch.setenv("HINDSIGHT_KEY_FILE", str(key_file))
    settings = HindsightSettings(db=db, vector_backend="hnsw")
    engine = MemoryEngine.open(db, settings, embedder=embedder)
    engine.store_memory({"content": "The release checklist lives in docs/release.md", "private": True})
    engine.close()
    ann = Path(f"{db}.ann")
    graphs = list(ann.iterdir())
    assert graphs and all(_mode(g) == 0o600 for g in graphs) and _mode(ann) == 0o700  # written private now
    # what an older hindsight left behind under umask 022
    old = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), *graphs, key_file]
    for path in old:
        if path.exists():
            path.chmod(0o644)
    for folder in (home, ann):
        folder.chmod(0o755)
    caplog.set_level("WARNING", logger="hindsight.files")
    caplog.clear()
    engine = MemoryEngine.open(db, settings, embedder=embedder)
    try:
        assert engine.search("release checklist")[0].memory.content == "The release checklist lives in docs/release.md"
    finally:
        engine.close()
    assert all(_mode(p) == 0o600 for p in old if p.exists()), {str(p): oct(_mode(p)) for p in old if p.exists()}
    assert _mode(home) == 0o700 and _mode(ann) == 0o700
    warnings = [r.getMessage() for r in caplog.records if r.name == "hindsight.files"]
    assert len(warnings) == 2 and str(db) in warnings[0] + warnings[1] and str(key_file) in warnings[0] + warnings[1]
    caplog.clear()
    MemoryEngine.open(db, settings, embedder=embedder).close()  # nothing left to tighten: nothing logged
    assert not [r for r in caplog.records if r.name == "hindsight.files"]
    # a directory the user chose for the store (not hindsight's own ~/.hindsight) keeps its mode
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    MemoryEngine.open(shared / "team.db", HindsightSettings(db=shared / "team.db"), embedder=embedder).close()
    assert _mode(shared) == 0o755 and _mode(shared / "team.db") == 0o600
