"""Attack round 12 (docs/security.md "Attack round 12"): each test failed on main before its fix.

One idempotency key sent twice at the same moment to two servers of one store (a `ResilientClient` retrying a write
whose first try is still being handled by another server behind a load balancer, or two clients replaying one queue
file) queued one proposal per request in a reviewed namespace: the memory id derived from the key stops a twin
memory, but a proposal took a random id. Tokens were granted for namespace names no memory can have.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.security.tokens import TokenStore
from hindsight.write import events


# ---------------------------------------------------------------- one key, two servers, one proposal
@pytest.fixture
def two_servers(tmp_path: Path, embedder: Embedder) -> Iterator[tuple[ReviewService, ReviewService]]:
    """Two engines (two servers' worth of connections) on one SQLite file, `kb` reviewed on both."""
    db = tmp_path / "shared.db"
    settings = HindsightSettings(db=db, hygiene=False)
    first = MemoryEngine.open(db, settings=settings, embedder=embedder)
    second = MemoryEngine.open(db, settings=settings, embedder=embedder)
    yield (ReviewService(first, ReviewQueue(first.store), "kb"), ReviewService(second, ReviewQueue(second.store), "kb"))
    first.close()
    second.close()


def _racing(first: ReviewService, second: ReviewService, send: Any) -> list[dict[str, Any]]:
    """`send(service)` on the first server; while its proposal is queued but its key not yet recorded, the same
    request reaches the second server (the window a concurrent retry lands in)."""
    answers: list[dict[str, Any]] = []
    queued = first.queue.add

    def add_then_race(*args: Any, **kwargs: Any) -> Any:
        proposal = queued(*args, **kwargs)
        if not answers:
            answers.append(send(second))
        return proposal

    first.queue.add = add_then_race  # type: ignore[method-assign]
    answers.append(send(first))
    return answers


@pytest.mark.parametrize("text", [
    "Release checklist for the payments service: run the smoke tests, then tag the release.",
    "支付服务的发布清单：先跑冒烟测试，再打发布标签。",
], ids=["en", "zh"])
def test_one_key_sent_to_two_servers_at_once_queues_one_proposal(two_servers: tuple[ReviewService, ReviewService],
                                                                  text: str) -> None:
    first, second = two_servers
    answers = _racing(first, second, lambda service: service.store(
        {"content": text, "namespace": "kb", "type": "semantic"}, "token:agent", idempotency_key="retry-1"))
    pending = first.pending("kb")
    assert len(pending) == 1, [p.id for p in pending]  # main: two proposals for one request
    assert {a["proposal_id"] for a in answers} == {pending[0].id}
    assert pending[0].payload["content"] == text


def test_an_event_retried_on_two_servers_queues_one_proposal(two_servers: tuple[ReviewService, ReviewService]) -> None:
    first, second = two_servers
    event = events.TaskCompleted(goal="Rotate the staging TLS certificate", outcome="renewed with certbot",
                                 namespace="kb")
    answers = _racing(first, second, lambda service: service.record_event(event, "token:agent", "evt-7"))
    pending = first.pending("kb")
    assert len(pending) == 1 and {a["proposal_id"] for a in answers} == {pending[0].id}


def test_a_private_proposal_queued_twice_stays_one_sealed_proposal(tmp_path: Path, embedder: Embedder,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.security.crypto import generate_key

    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    db = tmp_path / "sealed.db"
    settings = HindsightSettings(db=db, hygiene=False)
    engines = [MemoryEngine.open(db, settings=settings, embedder=embedder) for _ in range(2)]
    try:
        first, second = (ReviewService(e, ReviewQueue(e.store), "kb") for e in engines)
        text = "Private: the landlord's bank changed; rent now goes to the new account from May."
        answers = _racing(first, second, lambda service: service.store(
            {"content": text, "namespace": "kb", "private": True}, "token:agent", idempotency_key="p-1"))
        pending = first.pending("kb")
        assert len(pending) == 1 and {a["proposal_id"] for a in answers} == {pending[0].id}
        assert pending[0].payload["content"] == text  # opens with the key: sealed once, bound to its id
        assert text.encode() not in db.read_bytes()
    finally:
        for engine in engines:
            engine.close()


def test_unkeyed_proposals_stay_separate(two_servers: tuple[ReviewService, ReviewService]) -> None:
    first, second = two_servers
    for service in (first, second):
        service.store({"content": "The wiki moved to Confluence.", "namespace": "kb"}, "token:agent")
    assert len(first.pending("kb")) == 2  # without a key, two requests are two proposals


# ---------------------------------------------------------------- a token for a name no memory can have
@pytest.mark.parametrize("name", ["alice,bob", "team-*", "team kb", "kb;drop", "n" * 129])
def test_a_token_for_a_namespace_no_memory_can_have_is_refused(tmp_path: Path, name: str) -> None:
    tokens = TokenStore.open(tmp_path / "t.db")
    try:
        with pytest.raises(InvalidInputError, match="namespace"):
            tokens.create("agent", ["write"], [name])
        assert tokens.list() == []
        tokens.create("agent", ["read"], ["alice", "kb/研发", "team.kb:eu@2", "*"])  # valid names still granted
    finally:
        tokens.close()


# ---------------------------------------------------------------- hashes of what redaction took out
SECRET_LINES = [  # (text, what a guesser enumerates: the redacted value)
    ("Lina said the staging VPN password is kestrel42, keep it handy.", "kestrel42"),
    ("王芳的新手机号是 13912345678，晚上六点后再打。", "13912345678"),
]


@pytest.mark.parametrize(("text", "secret"), SECRET_LINES, ids=["en-password", "zh-phone"])
def test_an_imported_line_without_an_id_keeps_no_hash_of_its_redacted_secret(tmp_path: Path, embedder: Embedder,
                                                                             text: str, secret: str) -> None:
    """metadata.imported_from is shown to every reader; a hash of the unredacted text let one confirm the
    password or phone number redaction removed by trying candidates (found: 'kestrel42' among 5 guesses)."""
    import hashlib
    import json

    db = tmp_path / "import.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    try:
        line = json.dumps({"content": text, "namespace": "kb"}, ensure_ascii=False)
        assert [o.action for o in engine.import_jsonl([line])] == ["created"]
        record = engine.list("kb")[0][0]
        assert secret not in record.content  # redacted
        kept = str(record.metadata["imported_from"])
        assert kept != "sha256:" + hashlib.sha256(f"kb\n{text}".encode()).hexdigest()  # main: equal
        assert kept == "sha256:" + hashlib.sha256(f"kb\n{record.content}".encode()).hexdigest()  # what is stored
        report = engine.import_report([line])  # a re-run still skips the line it imported
        assert report.skipped == 1 and not report.outcomes
    finally:
        engine.close()


def _fingerprints(db: Path, embedder: Embedder, text: str) -> list[str]:
    """The request fingerprints a fresh store keeps after a keyed store and a keyed ingest of `text`."""
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    try:
        request = {"content": text, "namespace": "kb", "type": "semantic"}
        first = engine.store_memory(request, idempotency_key="k-1")
        assert engine.store_memory(request, idempotency_key="k-1").memory_id == first.memory_id  # a retry replays
        messages = [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
        kept = engine.ingest(messages, "s-1", "kb", idempotency_key="conv-1")["kept"]
        assert kept and all(item.get("replayed") for item in engine.ingest(messages, "s-1", "kb",
                                                                           idempotency_key="conv-1")["kept"])
        columns, rows = engine.store.table_rows("idempotency")
        return sorted(str(row[columns.index("request_hash")]) for row in rows)
    finally:
        engine.close()


@pytest.mark.parametrize(("text", "secret"), SECRET_LINES, ids=["en-password", "zh-phone"])
def test_the_fingerprint_of_a_keyed_write_is_taken_after_redaction(tmp_path: Path, embedder: Embedder,
                                                                   text: str, secret: str) -> None:
    """The idempotency table (copied by every .db backup) kept SHA-256 of the request before redaction: rebuilt
    from the stored row, 1,000 candidate phone numbers confirmed the redacted one in 0.03 s. Taken after
    redaction, the fingerprint is the same whichever value was redacted, so it confirms no guess."""
    other = text.replace(secret, secret[:-1] + str((int(secret[-1]) + 1) % 10))
    assert other != text
    kept, kept_other = _fingerprints(tmp_path / "a.db", embedder, text), _fingerprints(tmp_path / "b.db", embedder, other)
    assert len(kept) >= 2 and kept == kept_other  # main: each differs with the redacted value


def test_a_key_still_names_one_request(tmp_path: Path, embedder: Embedder) -> None:
    from hindsight.errors import IdempotencyConflictError

    db = tmp_path / "conflict.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    try:
        engine.store_memory({"content": SECRET_LINES[0][0], "namespace": "kb"}, idempotency_key="k-1")
        with pytest.raises(IdempotencyConflictError):
            engine.store_memory({"content": "The build cache lives on the NAS.", "namespace": "kb"},
                                idempotency_key="k-1")
    finally:
        engine.close()


def test_a_key_recorded_with_the_old_fingerprint_still_replays(tmp_path: Path, embedder: Embedder) -> None:
    """Keys recorded before this round hold the unredacted hash: an identical retry must not become a conflict."""
    import json

    from hindsight.model import MemoryInput
    from hindsight.write.idempotency import memory_id_for, request_hash

    db = tmp_path / "legacy.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    try:
        text, _ = SECRET_LINES[0]
        request = {"content": text, "namespace": "kb"}
        memory_id = memory_id_for("kb", "old-key")
        engine.store_many([request], ids=[memory_id])
        answer = {"memory_id": memory_id, "action": "created", "status": "active", "reason": "", "related_ids": [],
                  "redactions": ["password"]}
        engine.store.put_idempotent("kb", "old-key", json.dumps(answer), 0.0,
                                    request_hash(MemoryInput.model_validate(request).model_dump(mode="json")))
        assert engine.store_memory(request, idempotency_key="old-key").memory_id == memory_id
    finally:
        engine.close()


# ---------------------------------------------------------------- the client's queue file is the owner's alone
@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid"), reason="POSIX file modes")
def test_the_client_queue_file_is_owner_only(tmp_path: Path) -> None:
    """A queued write is the caller's text before any server redacted it (a password, a phone number); the queue
    file was created 0644 under umask 022, readable by every local user, and kept dead letters for good."""
    import os
    import stat

    from hindsight.client.queue import WriteQueue

    old = os.umask(0o022)
    try:
        fresh = tmp_path / "queue.db"
        queue = WriteQueue(fresh)
        queue.add("memory_store", {"content": "The NAS admin password is Tr0ub4dor&3xQ9.", "idempotency_key": "k"})
        queue.close()
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o600  # main: 0o644
        for suffix in ("-wal", "-shm"):
            side = Path(f"{fresh}{suffix}")
            assert not side.exists() or stat.S_IMODE(side.stat().st_mode) & 0o077 == 0

        older = tmp_path / "older.db"
        WriteQueue(older).close()
        older.chmod(0o644)  # what an older client left
        WriteQueue(older).close()
        assert stat.S_IMODE(older.stat().st_mode) == 0o600
    finally:
        os.umask(old)
