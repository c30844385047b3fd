"""`hindsight migrate SRC DST` between backends: everything arrives, private memories stay sealed, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_helpers import run_cli

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.security.audit import AuditLog
from hindsight.security.crypto import generate_key
from hindsight.security.tokens import TokenStore
from hindsight.storage import transfer
from hindsight.storage.factory import open_raw_store

FACTS = ["The user prefers TypeScript over JavaScript.", "处理 PostgreSQL 连接池耗尽时把 max_connections 调到 200。",
         "Deploy failed because the staging token expired.", "用户喜欢简洁的回答。", "The VPN config lives in ops/vpn.md."]


def _fill(db: str | Path, embedder: Embedder) -> dict[str, str]:
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder)
    try:
        ids = {f: engine.store_memory({"content": f, "type": "semantic"}).memory_id for f in FACTS}
        ids["private"] = engine.store_memory({"content": "my bank PIN hint is the cat's birthday", "private": True}).memory_id
        engine.forget(ids[FACTS[2]], reason="stale")
        engine.delete(ids[FACTS[4]], reason="wrong")
        TokenStore(engine.store).create("agent", ["write"], ["default"])
        AuditLog(engine.store).record("token:x", "memory_get", "denied", "default", ids[FACTS[0]], "no grant")
        return ids
    finally:
        engine.close()


def test_sqlite_to_postgres_and_back(tmp_path: Path, pg_url: str, embedder: Embedder,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    src = tmp_path / "src.db"
    ids = _fill(src, embedder)
    proc = run_cli("migrate", str(src), pg_url, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["verified"] and report["copied"] == 5 and report["deleted_histories"] == 1
    assert report["target"]["memories"] == 5 and report["target"]["vectors"] == 5 and report["target"]["tokens"] == 1
    # The copy ranks as the source does (same vectors, text and counters): searched on both after the copy.
    # (The ranking itself is not this test's subject: on this six-memory mixed-script store the cross-lingual
    # re-ranker puts "用户喜欢简洁的回答" above the TypeScript preference for the English question.)
    query = "which language does the user like"
    source = MemoryEngine.open(src, HindsightSettings(db=src), embedder)
    try:
        expected = [h.memory.id for h in source.search(query, top_k=3)]
    finally:
        source.close()
    engine = MemoryEngine.open(pg_url, HindsightSettings(db=pg_url), embedder)
    try:
        assert engine.search("连接池", top_k=1)[0].memory.id == ids[FACTS[1]]
        got = [h.memory.id for h in engine.search(query, top_k=3)]
        assert got == expected and ids[FACTS[0]] in got
        assert engine.get(ids["private"]).content == "my bank PIN hint is the cat's birthday"  # sealed, key still opens
        assert engine.get(ids[FACTS[2]]).status.value == "forgotten"
        assert [h.action for h in engine.history(ids[FACTS[2]])] == ["create", "forget"]
        assert [h.action for h in engine.history(ids[FACTS[4]])] == ["create", "delete"]  # a deleted memory's history
        assert any(e.outcome == "denied" for e in AuditLog(engine.store).entries(50))
        assert [t.name for t in TokenStore(engine.store).list()] == ["agent"]
    finally:
        engine.close()
    # running again copies nothing and still verifies; and back into a fresh SQLite file
    again = json.loads(run_cli("migrate", str(src), pg_url, timeout=300).stdout)
    assert again["copied"] == 0 and again["skipped"] == 5 and again["verified"]
    back = tmp_path / "back.db"
    proc = run_cli("migrate", pg_url, str(back), timeout=300)
    assert proc.returncode == 0 and json.loads(proc.stdout)["target"] == report["source"], proc.stderr


def test_an_interrupted_migration_resumes(tmp_path: Path, pg_url: str, embedder: Embedder,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    src_path = tmp_path / "src.db"
    _fill(src_path, embedder)
    monkeypatch.setattr(transfer, "BATCH", 2)
    src, dst = open_raw_store(src_path), open_raw_store(pg_url)
    try:
        def crash(done: int, total: int) -> None:
            if done >= 2:
                raise KeyboardInterrupt  # stands in for a kill between two batches

        with pytest.raises(KeyboardInterrupt):
            transfer.migrate_store(src, dst, progress=crash)
        assert dst.stats().total == 2
        report = transfer.migrate_store(src, dst)
        assert report.verified and report.copied == 3 and report.skipped == 2, report.mismatches
        assert report.target == report.source
    finally:
        src.close()
        dst.close()
