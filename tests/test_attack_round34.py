"""Attack round 34 (docs/security.md "Attack round 34"): an outside attacker with the README and docs/security.md
against `hindsight serve --transport http`, the resilient client and its queue file.

- **An endpoint's credentials reached every reader**: `HINDSIGHT_EMBEDDER=openai:<model>@<base_url>` with the
  credentials in the URL (`https://user:secret@host/v1`, as a proxy in front of vLLM / Ollama takes them) became the
  embedder's name, which the store records (`meta.embedding_model`), `memory_stats` returns to any `read` token,
  `hindsight stats` prints and every backup's header holds; an endpoint failure answered every caller (a `read`
  token's search embeds its query) with the URL as written, and the LLM client logged its URL on every failure.
- **A private write queued in the clear**: the client sealed a queued write only when `private is True`; a caller's
  `private=1` / `"true"` / numpy's `True_` was queued as plain JSON (the server would read all of them as private,
  or refuse them).
- **A full disk answered a raw `sqlite3.OperationalError`**: a write the server could not take and the queue file
  could not hold came back as SQLite's own exception, not as the typed error naming `queue_path`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from bag_embedder import BagEmbedder
from local_http import json_endpoint

from hindsight.client.queue import WriteQueue
from hindsight.config import HindsightSettings
from hindsight.embeddings.openai_provider import OpenAIEmbedder
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, ProviderUnavailableError
from hindsight.llm import LLMClient
from hindsight.security.crypto import MemoryCipher

SECRET = "s3cretPW9"
DIM = 16


def _vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255.0 for b in digest[:DIM]]


class Endpoint:
    """An OpenAI-compatible `/embeddings` peer that can be told to fail (401, as a proxy refusing)."""

    def __init__(self) -> None:
        self.failing = False

    def __call__(self, body: dict[str, Any], path: str) -> tuple[int, dict[str, Any] | None]:
        if self.failing:
            return 401, {"error": "unauthorized"}
        texts = body["input"]
        return 200, {"data": [{"index": i, "embedding": _vector(t)} for i, t in enumerate(texts)]}


@pytest.fixture
def endpoint() -> Iterator[tuple[Endpoint, str]]:
    peer = Endpoint()
    with json_endpoint(peer) as url:
        yield peer, url.replace("http://", f"http://proxyuser:{SECRET}@")


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.is_file() and p.name.startswith(db.name))


# ------------------------------------------------------------------ 1. an endpoint's credentials


def test_the_embedders_credentials_are_not_in_its_name_the_store_or_stats(tmp_path: Path,
                                                                          endpoint: tuple[Endpoint, str]) -> None:
    """On main the name is `openai:m@http://proxyuser:s3cretPW9@...`: in `memory_stats` of any reader, in the
    store's meta, in `hindsight stats`."""
    _, url = endpoint
    embedder = OpenAIEmbedder("m", url)
    assert SECRET not in embedder.name and "proxyuser" in embedder.name  # who, not the secret
    settings = HindsightSettings(db=tmp_path / "e.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    try:
        engine.store_memory({"content": "The staging proxy rotates its certificate monthly.", "namespace": "ops"})
        stats = engine.stats("ops")
        assert stats.embedding_model and SECRET not in stats.embedding_model
    finally:
        engine.close()
    sqlite3.connect(tmp_path / "e.db").execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    assert SECRET.encode() not in _file_bytes(tmp_path / "e.db")


def test_an_endpoint_failure_does_not_tell_the_caller_the_credentials(tmp_path: Path,
                                                                      endpoint: tuple[Endpoint, str]) -> None:
    """A `read` token's search embeds its query: on main the error said `... for url 'http://proxyuser:s3cretPW9@...'`
    to whoever searched."""
    peer, url = endpoint
    settings = HindsightSettings(db=tmp_path / "e.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=OpenAIEmbedder("m", url))
    try:
        peer.failing = True
        with pytest.raises(ProviderUnavailableError) as raised:
            engine.search("certificate rotation", namespace="ops")
        assert SECRET not in str(raised.value) and "401" in str(raised.value)
        with pytest.raises(ProviderUnavailableError) as raised:
            engine.store_memory({"content": "The staging proxy rotates its certificate monthly.", "namespace": "ops"})
        assert SECRET not in str(raised.value)
    finally:
        engine.close()


def test_a_store_that_recorded_the_unmasked_name_is_not_embedded_again(tmp_path: Path,
                                                                       endpoint: tuple[Endpoint, str]) -> None:
    """A store an older version opened holds the name with the secret: it opens as the same model (no second
    embedding of every memory) and the recorded name loses the secret."""
    _, url = endpoint
    embedder = OpenAIEmbedder("m", url)
    settings = HindsightSettings(db=tmp_path / "e.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    engine.store_memory({"content": "The staging proxy rotates its certificate monthly.", "namespace": "ops"})
    engine.store.set_embedding_model(f"openai:m@{url}")  # as main recorded it
    engine.close()
    calls: list[int] = []
    reopened_embedder = OpenAIEmbedder("m", url)
    original = reopened_embedder.embed_documents

    def counting(texts: Any) -> np.ndarray:
        calls.append(len(texts))
        return original(texts)

    reopened_embedder.embed_documents = counting  # type: ignore[method-assign]
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=reopened_embedder)
    try:
        assert calls == [], "the store was embedded again for a name that differs only by the masked secret"
        assert engine.store.embedding_model == reopened_embedder.name and SECRET not in reopened_embedder.name
    finally:
        engine.close()


def test_a_backup_of_a_store_an_older_version_opened_holds_no_credentials(tmp_path: Path) -> None:
    """A store whose meta an older version wrote with the secret (opened raw, as `hindsight backup` of a JSON-lines
    file reads it): the backup's header shows the masked name, and restoring an older backup whose header holds the
    secret takes its vectors as the same model's (no second embedding)."""
    import io

    from hindsight.backup import restore_jsonl, write_jsonl

    settings = HindsightSettings(db=tmp_path / "o.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    engine.store_memory({"content": "The staging proxy rotates its certificate monthly.", "namespace": "ops"})
    unmasked = f"openai:m@http://proxyuser:{SECRET}@127.0.0.1:9/v1"
    engine.store.set_embedding_model(unmasked)
    out = io.StringIO()
    write_jsonl(engine.store, out)
    engine.close()
    assert SECRET not in out.getvalue()
    old_backup = out.getvalue().replace("proxyuser:***@", f"proxyuser:{SECRET}@")
    assert SECRET in old_backup

    class Named(BagEmbedder):
        def __init__(self) -> None:
            super().__init__(words=True)
            self.name = "openai:m@http://proxyuser:***@127.0.0.1:9/v1"
            self.embedded = 0

        def _embed(self, texts: Any, is_query: bool) -> np.ndarray:
            self.embedded += len(texts)
            return super()._embed(texts, is_query)

    named = Named()
    settings = HindsightSettings(db=tmp_path / "n.db", hygiene=False, guard="off")
    target = MemoryEngine.open(settings.db, settings=settings, embedder=named)
    try:
        before = named.embedded
        restore_jsonl(target, iter(old_backup.splitlines()))
        assert named.embedded == before, "the backup's vectors were embedded again for a name with the secret"
    finally:
        target.close()


def test_the_llm_client_logs_its_endpoint_without_the_credentials(caplog: pytest.LogCaptureFixture) -> None:
    """On main every failed call logged `LLM call to http://proxyuser:s3cretPW9@.../chat/completions failed`."""
    with json_endpoint(lambda body, path: (500, {"error": "down"})) as url:
        client = LLMClient(url.replace("http://", f"http://proxyuser:{SECRET}@"), "m", timeout=5)
        with caplog.at_level(logging.WARNING, logger="hindsight.llm"):
            assert client.complete("system", "user") is None
    assert caplog.records and all(SECRET not in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ 2. a private write in the queue file


@pytest.mark.parametrize("flag", [1, "true", np.True_], ids=["one", "string", "numpy"])
def test_a_write_marked_private_another_way_is_queued_sealed(tmp_path: Path, flag: object) -> None:
    """On main only `private is True` was sealed: the text sat in the queue file as sent."""
    queue = WriteQueue(tmp_path / "q.db", MemoryCipher(secrets.token_bytes(32)))
    queue.add("memory_store", {"content": "Diagnosis PRIVWORD77 confirmed", "private": flag, "idempotency_key": "k"})
    head = queue.head()
    queue.close()
    assert head is not None and head.arguments["content"] == "Diagnosis PRIVWORD77 confirmed"
    assert b"PRIVWORD77" not in _file_bytes(tmp_path / "q.db")


def test_a_write_marked_private_another_way_without_a_key_is_refused_not_queued(tmp_path: Path) -> None:
    queue = WriteQueue(tmp_path / "q.db", None)
    with pytest.raises(ProviderUnavailableError):
        queue.add("memory_store", {"content": "Diagnosis PRIVWORD77 confirmed", "private": 1})
    assert len(queue) == 0
    queue.add("memory_store", {"content": "A plain note", "private": False})
    queue.add("memory_store", {"content": "Another plain note", "private": None})
    assert len(queue) == 2
    queue.close()


# ------------------------------------------------------------------ 3. a full disk under the queue file


def test_a_queue_file_that_cannot_grow_is_a_typed_error_naming_the_queue(tmp_path: Path) -> None:
    """SQLITE_FULL (a full disk; here the file's page limit): on main a raw `sqlite3.OperationalError` reached the
    caller of `store`, which the client's own callers do not expect from a write."""
    queue = WriteQueue(tmp_path / "q.db", None)
    queue.add("memory_store", {"content": "first", "idempotency_key": "k0"})
    pages = queue._db.execute("PRAGMA page_count").fetchone()[0]
    queue._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(HindsightError) as raised:
        for i in range(200):
            queue.add("memory_store", {"content": "x" * 4000 + str(i), "idempotency_key": f"k{i + 1}"})
    message = str(raised.value)
    assert "queue_path" in message and "not queued" in message
    assert raised.value.retryable
    head = queue.head()
    assert head is not None and head.arguments["content"] == "first"  # what it held is still there
    queue.close()


# ------------------------------------------------------------------ 4. a CSRF field that is not ASCII


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    from test_attack_round32 import Server

    running = Server(tmp_path, reviewed="rev")
    try:
        yield running
    finally:
        running.close()


@pytest.mark.parametrize("path", ["/console/bulk", "/console/logout", "/console/memory/mem_x/forget", "/review/logout",
                                  "/review/prop_x/approve"])
def test_a_csrf_field_that_is_not_ascii_is_a_refused_form_not_a_500(server: Any, path: str) -> None:
    """`hmac.compare_digest` refuses str with non-ASCII characters (TypeError): on main `csrf=é` posted by any
    signed-in caller (anyone on loopback with auth off) was `500 Internal Server Error` with a traceback in the log,
    on every form of `/console` and `/review`. Now the form is refused as a wrong CSRF field is (403)."""
    import httpx

    token = server.admin if path.startswith("/review") else server.reader
    headers = {"authorization": f"Bearer {token}", "content-type": "application/x-www-form-urlencoded"}
    for _ in range(10):  # more than the call cap's 8 slots: a refused form holds none
        answer = httpx.post(f"{server.base}{path}", content=b"csrf=%C3%A9&ns=ops&id=mem_x", headers=headers,
                            timeout=60)
        assert answer.status_code == 403, answer.text[:200]
    assert httpx.get(f"{server.base}/console?ns=ops", headers=headers, timeout=60).status_code == 200


# ------------------------------------------------------------------ 5. working memory across every namespace


def test_working_memory_is_bounded_across_namespaces_and_a_hog_pays_first() -> None:
    """Each namespace's quota (round 5) bounded one namespace; a token over `*` names as many namespaces as it likes,
    each with its own 1,000 sessions and 2,000,000 characters, so on main what the process held grew with every new
    namespace (here: 300 namespaces past a server-wide bound of 100 sessions, all kept). Now the process holds at
    most its server-wide bounds, and what goes first is the namespace holding the most, least recently used."""
    from hindsight import working as working_module
    from hindsight.working import WorkingMemory

    if not hasattr(working_module, "MAX_SESSIONS_TOTAL"):
        pytest.fail("no server-wide bound: every new namespace adds its own quota")
    memory = WorkingMemory(turns_per_session=500, max_sessions=1000, max_chars=100_000)
    memory.max_sessions_total, memory.max_chars_total = 100, 50_000
    memory.append("team", "live", "user", "The release train leaves at noon.")
    for i in range(300):
        memory.append(f"hog{i}", "s", "user", "x" * 100)
        memory.append("team", "live", "user", "Still here.")  # the team keeps using its session
    assert memory.sessions_held() <= 100 and memory.chars_held() <= 50_000
    assert [t.content for t in memory.recent("team", "live")][0] == "The release train leaves at noon."
    for i in range(60):  # one namespace flooding characters goes before the others
        memory.append("hog-big", f"s{i}", "user", "y" * 2_000)
    assert memory.chars_held() <= 50_000 and memory.recent("team", "live")
    assert memory.recent("hog-big", "s59")  # the turn just appended is kept


# ------------------------------------------------------------------ 6. the embedding cache across namespaces


class _Counting(BagEmbedder):
    """BagEmbedder that records every text it really embeds (a cache hit never reaches it)."""

    def __init__(self) -> None:
        super().__init__(words=True)
        self.embedded: list[str] = []

    def _embed(self, texts: Any, is_query: bool) -> np.ndarray:
        self.embedded.extend(texts)
        return super()._embed(texts, is_query)


def test_another_namespaces_cached_query_is_no_hit(tmp_path: Path) -> None:
    """One `CachedEmbedder` served every namespace: a search whose exact text another tenant had just searched was
    a cache hit and answered in about half the time (the default embedder: 219 ms against 394 ms, 40 of 40 pairs
    told apart), so a reader of `a` could confirm a guess of `b`'s recent query. On main the second search below
    embedded nothing; now each namespace's searches and writes hit its own entries only."""
    from hindsight.embeddings.base import CachedEmbedder

    inner = _Counting()
    settings = HindsightSettings(db=tmp_path / "c.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=CachedEmbedder(inner))
    try:
        engine.store_memory({"content": "Ward 4 rounds start at eight.", "namespace": "a"})
        engine.store_memory({"content": "Follow-up visits are on Thursdays.", "namespace": "b"})
        guess = "does patient Ines Duarte have a confirmed diagnosis"
        engine.search(guess, namespace="b")  # the victim's query
        before = inner.embedded.count(guess)
        engine.search(guess, namespace="a")  # the attacker's probe in its own namespace
        assert inner.embedded.count(guess) == before + 1, "a's search was answered from b's cached vector"
        engine.search(guess, namespace="a")  # a's own repeat is still a hit
        assert inner.embedded.count(guess) == before + 1
        note = "The locker code changed on Monday."
        engine.store_memory({"content": note, "namespace": "b"})
        stored_before = sum(note in t for t in inner.embedded)
        engine.store_memory({"content": note, "namespace": "a"})
        assert sum(note in t for t in inner.embedded) > stored_before, "a's write was answered from b's cache"
    finally:
        engine.close()
