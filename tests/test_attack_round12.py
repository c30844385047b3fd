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
