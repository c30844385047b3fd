"""Private content is sealed everywhere it is stored, not only in the memory rows.

The last hardening round found that a private memory an agent proposes in a reviewed namespace waited in the
`proposals` table as plaintext. Each test drives the real interface (MCP over HTTP with bearer tokens, the CLI,
the resilient client) and then reads the raw SQLite file or the PostgreSQL tables for the private text:

* proposals (a private store, and an update of a private memory) are sealed until and after they are decided;
* the request fingerprint of a keyed private write is sealed (a bare SHA-256 of a short text can be confirmed by
  guessing);
* `rotate-key` re-seals both, and the proposal still opens and applies afterwards;
* the resilient client's queue file holds a private write only sealed, and refuses to queue it without a key.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import ROOT, child_env, create_tokens, free_port, hindsight_argv, http_server, mcp_session

from hindsight.errors import ProviderUnavailableError
from hindsight.security.crypto import PREFIX, generate_key

SECRET = "The spare key of the server room is in the blue drawer of desk 14"
SECRET_EDIT = "The spare key of the server room moved to the grey cabinet of desk 9"
WORDS = ("blue drawer", "grey cabinet", "desk 14", "desk 9")
ROLES = {"agent": (["write"], ["kb"]), "admin": (["admin"], ["*"])}


def raw_sqlite(db: Path) -> bytes:
    """Every byte hindsight wrote for the store: the file, its WAL and shared memory."""
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


def raw_postgres(url: str) -> str:
    """Every row of every table, as text."""
    import psycopg

    with psycopg.connect(url) as conn:
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return "\n".join(str(row) for t in tables for row in conn.execute(f"SELECT t::text FROM {t} t"))  # noqa: S608


def plaintext_in(raw: str | bytes) -> list[str]:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return [w for w in WORDS if w in text]


def propose_private(url: str, tokens: dict[str, str]) -> dict[str, Any]:
    """As the agent: a private store and (after the admin approved it) a private edit, both waiting for review."""
    with mcp_session(url, auth=tokens["agent"]) as agent:
        first = agent.call("memory_store", content=SECRET, private=True, namespace="kb", idempotency_key="k-1",
                           tags=["facilities"])
        assert first["status"] == "pending_review"
        again = agent.call("memory_store", content=SECRET, private=True, namespace="kb", idempotency_key="k-1",
                           tags=["facilities"])
        assert again["replayed"] is True and again["proposal_id"] == first["proposal_id"]  # the sealed fingerprint
        assert agent.error("memory_store", {"content": SECRET + "!", "private": True, "namespace": "kb",
                                            "idempotency_key": "k-1"}).startswith("idempotency_conflict")
    with mcp_session(url, auth=tokens["admin"]) as admin:
        listed = admin.call("memory_review_list", namespace="kb")["proposals"]
        assert [p["payload"]["content"] for p in listed] == [SECRET]  # the reviewer reads it
        memory_id = admin.call("memory_review_decide", proposal_id=first["proposal_id"], decision="approve",
                               namespace="kb")["result"]["memory_id"]
    with mcp_session(url, auth=tokens["agent"]) as agent:
        edit = agent.call("memory_update", memory_id=memory_id, namespace="kb", updates={"content": SECRET_EDIT})
        assert edit["status"] == "pending_review"
    return {"memory_id": memory_id, "edit": edit["proposal_id"]}


def approve_edit(url: str, tokens: dict[str, str], proposals: dict[str, Any]) -> None:
    with mcp_session(url, auth=tokens["admin"]) as admin:
        pending = admin.call("memory_review_list", namespace="kb")["proposals"]
        assert [p["payload"].get("content") for p in pending] == [SECRET_EDIT]
        admin.call("memory_review_decide", proposal_id=proposals["edit"], decision="approve", namespace="kb")
        assert admin.call("memory_get", memory_id=proposals["memory_id"], namespace="kb")["content"] == SECRET_EDIT


@pytest.fixture
def key() -> str:
    return generate_key()


def test_private_proposals_and_fingerprints_are_sealed_in_the_sqlite_file(tmp_path: Path, key: str) -> None:
    db = tmp_path / "memory.db"
    tokens = create_tokens(db, ROLES)
    env = {"HINDSIGHT_REVIEWED_NAMESPACES": "kb", "HINDSIGHT_ENCRYPTION_KEY": key}
    with http_server(db, tmp_path / "server.log", env=env) as url:
        proposals = propose_private(url, tokens)
        assert plaintext_in(raw_sqlite(db)) == []
    import sqlite3

    with sqlite3.connect(db) as raw:
        payloads = [p for (p,) in raw.execute("SELECT payload FROM proposals")]
        fingerprints = [h for (h,) in raw.execute("SELECT request_hash FROM idempotency WHERE key = 'k-1'")]
    assert len(payloads) == 2 and all(p.startswith(PREFIX) for p in payloads)
    assert len(fingerprints) == 1 and fingerprints[0].startswith(PREFIX)

    # rotate-key re-seals them; under the new key the edit still opens and applies, and nothing is plaintext
    new_key = generate_key()
    (tmp_path / "new.key").write_text(new_key)
    done = subprocess.run(hindsight_argv("rotate-key", "--new-key-file", str(tmp_path / "new.key"), "--db", str(db)),
                          capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=str(ROOT),
                          env=child_env(HINDSIGHT_ENCRYPTION_KEY=key))
    assert done.returncode == 0, done.stderr
    assert re.search(r'"proposals": 2', done.stdout) and re.search(r'"idempotency": 1', done.stdout), done.stdout
    with sqlite3.connect(db) as raw:
        assert [p for (p,) in raw.execute("SELECT payload FROM proposals")] != payloads
    env["HINDSIGHT_ENCRYPTION_KEY"] = new_key
    with http_server(db, tmp_path / "server2.log", env=env) as url:
        with mcp_session(url, auth=tokens["agent"]) as agent:  # the rotated fingerprint still matches a retry
            assert agent.call("memory_store", content=SECRET, private=True, namespace="kb", idempotency_key="k-1",
                              tags=["facilities"])["replayed"] is True
        approve_edit(url, tokens, proposals)
    assert plaintext_in(raw_sqlite(db)) == []


def test_private_proposals_and_fingerprints_are_sealed_in_postgres(tmp_path: Path, pg_url: str, key: str) -> None:
    from hindsight.storage.postgres_store import PostgresStore  # noqa: F401  (skips cleanly without psycopg)

    tokens = create_tokens(pg_url, ROLES)  # type: ignore[arg-type]
    env = {"HINDSIGHT_REVIEWED_NAMESPACES": "kb", "HINDSIGHT_ENCRYPTION_KEY": key}
    with http_server(pg_url, tmp_path / "server.log", env=env) as url:  # type: ignore[arg-type]
        proposals = propose_private(url, tokens)
        assert plaintext_in(raw_postgres(pg_url)) == []
        approve_edit(url, tokens, proposals)
    dump = raw_postgres(pg_url)
    assert plaintext_in(dump) == [] and PREFIX in dump


def test_an_imported_private_line_keeps_no_hash_of_its_text(tmp_path: Path, key: str) -> None:
    """A line without an id is remembered by `sha256:` of its namespace and content (metadata.imported_from);
    for a private memory that hash is sealed with the text, and a rerun still skips the line."""
    import hashlib
    import json

    db, lines = tmp_path / "memory.db", tmp_path / "lines.jsonl"
    lines.write_text(json.dumps({"content": SECRET, "encrypted": True, "namespace": "kb"}) + "\n", encoding="utf-8")
    digest = hashlib.sha256(f"kb\n{SECRET}".encode()).hexdigest()
    for _ in range(2):
        done = subprocess.run(hindsight_argv("import", str(lines), "--db", str(db)), capture_output=True, text=True,
                              encoding="utf-8", timeout=300, cwd=str(ROOT), env=child_env(HINDSIGHT_ENCRYPTION_KEY=key))
        assert done.returncode == 0, done.stderr
    assert "skipped 1 already imported" in done.stderr
    raw = raw_sqlite(db)
    assert plaintext_in(raw) == [] and digest.encode() not in raw


def test_rotate_key_seals_what_an_older_version_left_in_clear(tmp_path: Path, key: str, embedder: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A store written before this fix holds a private proposal and a private write's fingerprint in clear:
    `rotate-key` seals them under the new key (and leaves a plain proposal alone)."""
    import json
    import sqlite3

    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine
    from hindsight.security.crypto import cipher_from_text

    db = tmp_path / "memory.db"
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    try:
        engine.store_memory({"content": SECRET, "private": True, "namespace": "kb"}, idempotency_key="k-old")
    finally:
        engine.close()
    payload = json.dumps({"content": SECRET_EDIT, "private": True, "namespace": "kb"})
    with sqlite3.connect(db) as raw:  # as an older hindsight left them
        raw.execute("UPDATE idempotency SET request_hash = ? WHERE key = 'k-old'", ("ab" * 32,))
        for pid, body in (("prop_old", payload), ("prop_plain", '{"reason": "obsolete"}')):
            raw.execute("INSERT INTO proposals(id, namespace, action, memory_id, payload, reason, proposed_by, "
                        "proposed_at, status) VALUES (?, 'kb', ?, NULL, ?, '', 'agent', 1.0, 'pending')",
                        (pid, "store" if pid == "prop_old" else "consolidate", body))
    new_key = generate_key()
    (tmp_path / "new.key").write_text(new_key)
    done = subprocess.run(hindsight_argv("rotate-key", "--new-key-file", str(tmp_path / "new.key"), "--db", str(db)),
                          capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=str(ROOT),
                          env=child_env(HINDSIGHT_ENCRYPTION_KEY=key))
    assert done.returncode == 0 and '"sealed_now": 2' in done.stdout, done.stdout + done.stderr
    new = cipher_from_text(new_key, "new")
    with sqlite3.connect(db) as raw:
        sealed = dict(raw.execute("SELECT id, payload FROM proposals").fetchall())
        fingerprint = raw.execute("SELECT request_hash FROM idempotency WHERE key = 'k-old'").fetchone()[0]
    assert new.decrypt(sealed["prop_old"], "prop_old") == payload and sealed["prop_plain"] == '{"reason": "obsolete"}'
    assert new.decrypt(fingerprint, "idempotency\x00kb\x00k-old") == "ab" * 32
    assert plaintext_in(raw_sqlite(db)) == []


# ------------------------------------------------------------------ the client's queue file
def test_the_client_queue_holds_a_private_write_only_sealed(tmp_path: Path, key: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.client import ResilientClient
    from hindsight.security.crypto import cipher_from_text

    dead = f"http://127.0.0.1:{free_port()}/mcp"  # nothing listens: every write is queued
    queue_file = tmp_path / "queue.db"
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)  # the client takes its key as the server does
    client = ResilientClient(dead, queue_file, timeout=2, auto_flush=False)
    try:
        assert client.store(SECRET, private=True, namespace="kb")["queued"] is True
        assert client.store("The team lunch is on Fridays", namespace="kb")["queued"] is True
        assert [q["arguments"].get("content") for q in client.queued()] == [SECRET, "The team lunch is on Fridays"]
    finally:
        client.close()
    assert plaintext_in(raw_sqlite(queue_file)) == []

    # rotate-key --queue re-seals it; the client under the new key reads it
    new_key = generate_key()
    (tmp_path / "new.key").write_text(new_key)
    done = subprocess.run(hindsight_argv("rotate-key", "--new-key-file", str(tmp_path / "new.key"), "--db",
                                         str(tmp_path / "memory.db"), "--queue", str(queue_file)),
                          capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=str(ROOT),
                          env=child_env(HINDSIGHT_ENCRYPTION_KEY=key))
    assert done.returncode == 0 and '"queue_files"' in done.stdout, done.stderr
    client = ResilientClient(dead, queue_file, timeout=2, auto_flush=False, cipher=cipher_from_text(new_key, "new"))
    try:
        assert client.queued()[0]["arguments"]["content"] == SECRET
    finally:
        client.close()

    # without a key a private write is refused, not queued in clear
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY")
    bare = tmp_path / "bare.db"
    client = ResilientClient(dead, bare, timeout=2, auto_flush=False)
    try:
        with pytest.raises(ProviderUnavailableError, match="HINDSIGHT_ENCRYPTION_KEY"):
            client.store(SECRET, private=True, namespace="kb")
        assert client.pending() == 0
    finally:
        client.close()
    assert plaintext_in(raw_sqlite(bare)) == []


@pytest.fixture(autouse=True)
def _no_key_in_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test process's own key (if any) must not leak in."""
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY", raising=False)
    monkeypatch.delenv("HINDSIGHT_KEY_FILE", raising=False)
    yield
