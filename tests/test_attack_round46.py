"""Attack round 46: the key rotated beside a running server (docs/security.md "Attack round 46").

Each finding's test failed on main before its fix.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.security.crypto import MemoryCipher, cipher_from_text, generate_key
from hindsight.security.rotate import rotate_key

BEFORE = "Private note: the spare badge is in locker 12"
AFTER = "Private note: the vault combination changed after the audit"


def _cipher(key: str) -> MemoryCipher:
    return cipher_from_text(key, "HINDSIGHT_ENCRYPTION_KEY")


def _open(db: Path | str, key: str, monkeypatch: pytest.MonkeyPatch, reviewed: str = "") -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    settings = HindsightSettings(db=db, hygiene=False, reviewed_namespaces=reviewed)
    return MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))


@pytest.fixture
def rotated_beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[MemoryEngine, Path, str, str]]:
    """A running server (an engine holding the old key, which has sealed a private memory) and `hindsight rotate-key`
    run from another process (another engine's store) while it runs. Yields the server, the file and both keys."""
    db, old, new = tmp_path / "rot.db", generate_key(), generate_key()
    server = _open(db, old, monkeypatch, reviewed="kb")
    server.store_memory({"content": BEFORE, "type": "semantic", "private": True})
    other = _open(db, old, monkeypatch)
    rotate_key(other.store, _cipher(old), _cipher(new))
    other.close()
    yield server, db, old, new
    server.close()


def _rows(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM memories").fetchone()[0])


def test_a_server_whose_key_was_rotated_refuses_a_private_write_instead_of_sealing_it_under_the_old_key(
        rotated_beside: tuple[MemoryEngine, Path, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Live: rotate-key beside a server writing private memories - the server kept sealing under the old key (36 of
    36 acknowledged private writes after the rotation), unreadable once it restarts with the new key."""
    server, db, _old, new = rotated_beside
    before = _rows(db)
    with pytest.raises(HindsightError) as info:
        server.store_memory({"content": AFTER, "type": "semantic", "private": True})
    assert getattr(info.value, "code", "") == "encryption_unavailable"  # not retryable: restart with the current key
    assert "rotate-key" in str(info.value)
    assert _rows(db) == before  # nothing was written
    restarted = _open(db, new, monkeypatch)
    try:  # every private memory opens with the new key
        assert {r.content for r in restarted.list(limit=20)[0]} == {BEFORE}
    finally:
        restarted.close()


def test_a_public_write_of_a_server_whose_key_was_rotated_is_not_refused(
        rotated_beside: tuple[MemoryEngine, Path, str, str]) -> None:
    server, _db, _old, _new = rotated_beside
    outcome = server.store_memory({"content": "The office plants are watered on Mondays", "type": "semantic"})
    assert outcome.status.value == "active"


def test_a_sealed_proposal_the_key_does_not_open_is_a_typed_refusal_not_a_retryable_outage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Live: the bare `provider_unavailable: private memory could not be decrypted` (retryable, names nothing) came
    back from values sealed beside the memory rows - a private proposal, a keyed private write's fingerprint - read
    by a process holding the other key."""
    db, old, new = tmp_path / "kb.db", generate_key(), generate_key()
    engine = _open(db, old, monkeypatch, reviewed="kb")
    review = ReviewService(engine, ReviewQueue(engine.store), "kb")
    review.store({"content": AFTER, "type": "semantic", "private": True, "namespace": "kb"}, "token:kbw")
    other = _open(db, old, monkeypatch)
    rotate_key(other.store, _cipher(old), _cipher(new))
    other.close()
    try:
        with pytest.raises(HindsightError) as info:
            review.queue.list("kb")
        assert getattr(info.value, "code", "") == "encryption_unavailable"
        assert "rotate-key" in str(info.value)
    finally:
        engine.close()


def test_a_server_whose_key_was_rotated_does_not_name_the_rotated_memories_as_ones_to_erase(
        rotated_beside: tuple[MemoryEngine, Path, str, str]) -> None:
    """Live: after the rotation every search of the namespace on the old-key server was refused with round 45's
    message for a memory sealed under a lost key - "erase it with `hindsight delete ...`" - about memories the
    rotation had re-sealed and that the current key opens (140 of 140 calls)."""
    server, _db, _old, _new = rotated_beside
    with pytest.raises(HindsightError) as info:
        server.list(limit=20)
    assert getattr(info.value, "code", "") == "encryption_unavailable"
    assert "restart this process" in str(info.value) and "hindsight delete" not in str(info.value)


def test_a_keyed_private_write_whose_fingerprint_was_resealed_meanwhile_answers_its_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Live (main): `rotate-key` re-sealed a claimed key's fingerprint between the claim and the settle of the
    write's answer; the settle (which names the fingerprint it claimed with) found no row, and the caller was told
    `{"pending": true, "replayed": true}` - no memory id - for a memory that was stored (1 of 83 private writes)."""
    from hindsight.write.idempotency import Fingerprint, memory_id_for, run_idempotent

    db, old, new = tmp_path / "idem.db", generate_key(), generate_key()
    engine = _open(db, old, monkeypatch)
    engine.store_memory({"content": BEFORE, "type": "semantic", "private": True})
    other = _open(db, old, monkeypatch)

    def write(memory_id: str | None) -> dict[str, object]:
        rotate_key(other.store, _cipher(old), _cipher(new))  # beside the write, from another process
        return {"memory_id": memory_id, "action": "created", "status": "active"}

    try:
        answer = run_idempotent(engine.store, "default", "k-46", write, Fingerprint("f" * 64, private=True))
        assert answer.get("memory_id") == memory_id_for("default", "k-46")
        assert "pending" not in answer
    finally:
        other.close()
        engine.close()


def test_a_server_whose_key_was_rotated_refuses_a_private_write_on_postgresql(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = generate_key(), generate_key()
    server = _open(pg_url, old, monkeypatch)
    try:
        server.store_memory({"content": BEFORE, "type": "semantic", "private": True})
        other = _open(pg_url, old, monkeypatch)
        rotate_key(other.store, _cipher(old), _cipher(new))
        other.close()
        with pytest.raises(HindsightError) as info:
            server.store_memory({"content": AFTER, "type": "semantic", "private": True})
        assert getattr(info.value, "code", "") == "encryption_unavailable" and "rotate-key" in str(info.value)
    finally:
        server.close()
    restarted = _open(pg_url, new, monkeypatch)
    try:
        assert {r.content for r in restarted.list(limit=20)[0]} == {BEFORE}
    finally:
        restarted.close()
