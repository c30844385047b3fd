"""Export/import of private memories (attack finding A).

A: an exported private memory must come back private (sealed again, never plaintext in the keyword index or a
neighbour's metadata); without the key, export refuses instead of writing placeholders, and an import refuses
instead of storing plaintext or placeholders.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hindsight.cli import app
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.crypto import generate_key
from hindsight.storage.encrypted import LOCKED

SECRET = "My bank PIN hint is the cat's birthday 猫的生日"


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _seed(db: Path, embedder: Any) -> str:
    engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder=embedder)
    try:
        engine.store_memory({"content": "public note about the garden", "session_id": "s1"})
        mid = engine.store_memory({"content": SECRET, "private": True, "session_id": "s1"}).memory_id
        engine.store_memory({"content": "next turn in the same session", "session_id": "s1"})
        return mid
    finally:
        engine.close()


def _raw_dump(db: Path) -> str:
    raw = sqlite3.connect(db)
    try:
        return "\n".join(str(row) for table in ("memories", "memories_fts", "history")
                         for row in raw.execute(f"SELECT * FROM {table}"))
    finally:
        raw.close()


def test_export_import_keeps_private_memories_sealed(tmp_path: Path, embedder: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    src, dst, out = tmp_path / "src.db", tmp_path / "dst.db", tmp_path / "out.jsonl"
    _seed(src, embedder)
    exported = _cli("export", str(out), "--db", str(src))
    assert exported.exit_code == 0, exported.stderr
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["content"] for line in lines if line["encrypted"]] == [SECRET]
    imported = _cli("import", str(out), "--db", str(dst))
    assert imported.exit_code == 0, imported.stderr
    engine = MemoryEngine.open(dst, HindsightSettings(db=dst), embedder=embedder)
    try:
        back = [r for r in engine.store.iter_all() if r.content == SECRET]
        assert len(back) == 1 and back[0].encrypted
    finally:
        engine.close()
    dump = _raw_dump(dst)
    assert "PIN" not in dump and "猫" not in dump  # not in content, the keyword index, history or preceding_turn


def test_import_of_private_lines_without_key_is_refused_naming_the_line(tmp_path: Path, embedder: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    src, out = tmp_path / "src.db", tmp_path / "out.jsonl"
    _seed(src, embedder)
    assert _cli("export", str(out), "--db", str(src)).exit_code == 0
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY")
    refused = _cli("import", str(out), "--db", str(tmp_path / "dst.db"))
    assert refused.exit_code != 0
    assert "line 2" in refused.stderr and "HINDSIGHT_ENCRYPTION_KEY" in refused.stderr
    assert "PIN" not in _raw_dump(tmp_path / "dst.db")


def test_export_without_key_refuses_and_leaves_no_file(tmp_path: Path, embedder: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    src = tmp_path / "src.db"
    _seed(src, embedder)
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY")
    out = tmp_path / "out.jsonl"
    refused = _cli("export", str(out), "--db", str(src))
    assert refused.exit_code != 0
    assert "HINDSIGHT_ENCRYPTION_KEY" in refused.stderr and "backup" in refused.stderr
    assert not out.exists() and list(tmp_path.glob("*.part")) == list(tmp_path.glob(".*.part")) == []


def test_import_of_a_placeholder_line_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files exported without the key by an older hindsight hold the placeholder, not the text."""
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({"content": "public"}) + "\n"
                   + json.dumps({"content": LOCKED, "encrypted": True}) + "\n", encoding="utf-8")
    refused = _cli("import", str(old), "--db", str(tmp_path / "dst.db"))
    assert refused.exit_code == 2 and "line 2" in refused.stderr
