"""`hindsight rotate-key`: private memories (and their history) re-sealed under a new key in one transaction,
on a real SQLite file through the CLI; backup and restore keep working after the rotation."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import ROOT, child_env, hindsight_argv

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import ProviderUnavailableError
from hindsight.security.crypto import PREFIX, MemoryCipher, cipher_from_text, generate_key

SECRET = "The spare key of the server room is in the blue drawer of desk 14"  # private, nothing to redact
OTHER = "My sister's birthday is on 12 March"
PLAIN = "The team lunch is on Fridays"


def cli(key: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(hindsight_argv(*args), capture_output=True, text=True, encoding="utf-8", timeout=300,
                          env=child_env(HINDSIGHT_ENCRYPTION_KEY=key), cwd=str(ROOT))


def sealed_values(db: Path) -> list[tuple[str, str]]:
    """(memory id, ciphertext) for every sealed value in the raw file: memory rows, history snapshots and (attack
    round 26) a private memory's status reason and history notes."""
    found = []
    with sqlite3.connect(db) as raw:
        for mid, content, context, reason in raw.execute(
                "SELECT id, content, context, status_reason FROM memories WHERE encrypted = 1"):
            found += [(mid, v) for v in (content, context) if v]
            found += [(mid, reason)] if reason.startswith(PREFIX) else []
        for mid, before, after, note in raw.execute("SELECT memory_id, before, after, note FROM history"):
            for snap in (before, after):
                data = json.loads(snap) if snap else {}
                found += [(mid, v) for v in (data.get("content"), data.get("context"), data.get("status_reason"))
                          if isinstance(v, str) and v.startswith(PREFIX)]
            found += [(mid, note)] if note.startswith(PREFIX) else []
    return found


def opens(cipher: MemoryCipher, values: list[tuple[str, str]]) -> list[bool]:
    out = []
    for mid, value in values:
        try:
            cipher.decrypt(value, mid)
            out.append(True)
        except ProviderUnavailableError:
            out.append(False)
    return out


def engine_with(key: str, db: Path, embedder: Any, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    return MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)


def test_rotate_key_reseals_everything_and_backups_follow(tmp_path: Path, embedder: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    old_key, new_key = generate_key(), generate_key()
    db = tmp_path / "memory.db"
    engine = engine_with(old_key, db, embedder, monkeypatch)
    kept = engine.store_memory({"content": SECRET, "context": "office", "private": True}).memory_id
    other = engine.store_memory({"content": OTHER, "private": True}).memory_id
    engine.update(other, {"content": OTHER + " (confirmed)"})
    gone = engine.store_memory({"content": "A private note deleted later", "private": True}).memory_id
    engine.delete(gone)
    plain = engine.store_memory({"content": PLAIN}).memory_id
    engine.close()
    before = sealed_values(db)
    assert before and all(opens(cipher_from_text(old_key, "old"), before))

    key_file = tmp_path / "new.key"
    key_file.write_text(new_key + "\n")
    rotated = cli(old_key, "rotate-key", "--new-key-file", str(key_file), "--db", str(db))
    assert rotated.returncode == 0, rotated.stderr
    report = json.loads(rotated.stdout)
    # the hard-deleted memory's history keeps tombstones only (write/erase.py): nothing sealed is left to rotate
    assert report["memories"] == 2 and report["history"] >= 3 and report["already_rotated"] == 0

    after = sealed_values(db)
    assert len(after) == len(before)
    assert all(opens(cipher_from_text(new_key, "new"), after)) and not any(opens(cipher_from_text(old_key, "o"), after))
    engine = engine_with(new_key, db, embedder, monkeypatch)
    try:
        assert engine.get(kept).content == SECRET and engine.get(kept).context == "office"
        assert engine.get(other).content == OTHER + " (confirmed)" and engine.get(plain).content == PLAIN
        assert engine.search("server room door code")[0].memory.id == kept
    finally:
        engine.close()
    with pytest.raises(ProviderUnavailableError):  # the old key: refused at open since attack round 35
        engine = engine_with(old_key, db, embedder, monkeypatch)
        try:
            engine.get(kept)
        finally:
            engine.close()

    # a second run finds everything already under the new key and changes nothing
    again = cli(old_key, "rotate-key", "--new-key-file", str(key_file), "--db", str(db))
    assert again.returncode == 0 and json.loads(again.stdout)["memories"] == 2
    assert json.loads(again.stdout)["already_rotated"] == len(after)

    # backup and restore (both formats) after the rotation open with the new key
    for name in ("copy.db", "copy.jsonl"):
        assert cli(new_key, "backup", str(tmp_path / name), "--db", str(db)).returncode == 0
        target = tmp_path / f"restored-{name}.db"
        restored = cli(new_key, "restore", str(tmp_path / name), "--db", str(target))
        assert restored.returncode == 0, restored.stderr
        engine = engine_with(new_key, target, embedder, monkeypatch)
        try:
            assert engine.get(kept).content == SECRET and engine.get(other).content == OTHER + " (confirmed)"
        finally:
            engine.close()


def test_a_value_neither_key_opens_stops_the_rotation_before_anything_changes(tmp_path: Path, embedder: Any,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    old_key, new_key, stray_key = generate_key(), generate_key(), generate_key()
    db = tmp_path / "memory.db"
    engine = engine_with(old_key, db, embedder, monkeypatch)
    kept = engine.store_memory({"content": SECRET, "private": True}).memory_id
    engine.close()
    # a server started with the wrong key wrote one (refused at open since attack round 35: security/key_check.py;
    # a store an older version split that way is what rotation must still refuse)
    from hindsight.storage.factory import open_store

    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", stray_key)
    settings = HindsightSettings(db=db, hygiene=False)
    engine = MemoryEngine(open_store(db, settings, verify_key=False), embedder, settings)
    stray = engine.store_memory({"content": OTHER, "private": True}).memory_id
    engine.close()
    before = sealed_values(db)
    key_file = tmp_path / "new.key"
    key_file.write_text(new_key)
    failed = cli(old_key, "rotate-key", "--new-key-file", str(key_file), "--db", str(db))
    assert failed.returncode != 0 and stray in failed.stderr and "nothing was changed" in failed.stderr
    assert sealed_values(db) == before  # all or nothing
    engine = engine_with(old_key, db, embedder, monkeypatch)
    try:
        assert engine.get(kept).content == SECRET
    finally:
        engine.close()
    no_key = subprocess.run(hindsight_argv("rotate-key", "--new-key-file", str(key_file), "--db", str(db)),
                            capture_output=True, text=True, timeout=300, env=child_env(), cwd=str(ROOT))
    assert no_key.returncode != 0 and "current key" in no_key.stderr
