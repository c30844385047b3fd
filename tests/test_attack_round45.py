"""Attack round 45: value digests, crafted files, private memories from outside (docs/security.md "Attack round 45").

Each finding's test failed on main before its fix; the tests marked *held* pin what the live attack found holding.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import HindsightError, MemoryNotFoundError
from hindsight.security.crypto import MemoryCipher, cipher_from_text, generate_key
from hindsight.security.rotate import rotate_key
from hindsight.storage import encrypted

PUBLIC = "The office plants are watered on Mondays"
FIRST = "First private note: the quarterly budget review moved to May"
LATE = "Late private note: the vault combination changed after the audit"
LAST = "Last private note: the hiring plan for spring has two roles"


def _open(db: Path | str, key: str, monkeypatch: pytest.MonkeyPatch, embedder: Embedder) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    settings = HindsightSettings(db=db, hygiene=False)
    return MemoryEngine.open(db, settings=settings, embedder=embedder)


def _split(db: Path | str, monkeypatch: pytest.MonkeyPatch, embedder: Embedder) -> tuple[MemoryEngine, str]:
    """A store one of whose private memories is sealed under a key that is gone: a server kept writing with the old
    key while `rotate-key` ran (docs/security.md: "stop servers first, or rerun"), and the old key was then thrown
    away. Returns an engine opened with the new key and the id of the memory it cannot open."""
    old, new = generate_key(), generate_key()
    server = _open(db, old, monkeypatch, embedder)  # the running server, holding the old key
    server.store_memory({"content": PUBLIC, "type": "semantic"})
    server.store_memory({"content": FIRST, "type": "semantic", "private": True})
    rotate_key(server.store, _cipher(old), _cipher(new))  # `hindsight rotate-key` from another process
    # since attack round 46 the server re-reads the store's key canary before each value it seals, so it refuses a
    # private write after the rotation; a value sealed under the old key still lands where the rotation commits
    # between that check and the write's own commit (the check passes, as it did before the rotation)
    with monkeypatch.context() as window:
        window.setattr(encrypted, "recheck_key", lambda backend, cipher, seen: seen)
        late = server.store_memory({"content": LATE, "type": "semantic", "private": True}).memory_id  # old key
    server.close()
    engine = _open(db, new, monkeypatch, embedder)  # restarted with the new key; the old one deleted
    engine.store_memory({"content": LAST, "type": "semantic", "private": True})
    return engine, late


@pytest.fixture
def split_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embedder: Embedder
                ) -> Iterator[tuple[MemoryEngine, str]]:
    """`_split` on a SQLite file, with the real embedder (the CLI test opens the store with the default one)."""
    engine, late = _split(tmp_path / "split.db", monkeypatch, embedder)
    yield engine, late
    engine.close()


def _cipher(key: str) -> MemoryCipher:
    return cipher_from_text(key, "HINDSIGHT_ENCRYPTION_KEY")


def test_a_memory_the_key_cannot_open_is_named_where_it_stops_a_read(split_store: tuple[MemoryEngine, str]) -> None:
    engine, late = split_store
    for read in (lambda: engine.search("office plants watered", top_k=5), lambda: engine.list(limit=20),
                 lambda: engine.get(late), lambda: engine.history(late), lambda: engine.summarize([late]),
                 lambda: engine.consolidate()):
        with pytest.raises(HindsightError) as info:
            read()
        assert late in str(info.value)
        assert "hindsight delete" in str(info.value)
        assert getattr(info.value, "code", "") == "encryption_unavailable"  # not a retryable provider outage


def test_a_memory_the_key_cannot_open_can_be_hard_deleted(split_store: tuple[MemoryEngine, str]) -> None:
    engine, late = split_store
    deleted = engine.delete(late, reason="sealed under a key that is gone")
    assert deleted.id == late
    assert [hit.memory.content for hit in engine.search("office plants watered", top_k=5)][0] == PUBLIC
    contents = {record.content for record in engine.list(limit=20)[0]}
    assert contents == {PUBLIC, FIRST, LAST}
    assert engine.store.get(late) is None
    assert engine.history(late)[-1].action == "delete"


def test_the_delete_of_an_unopened_memory_never_reads_another_one_as_locked(
        split_store: tuple[MemoryEngine, str]) -> None:
    """Only the memory being erased may read as locked: every other one still opens or stops the call."""
    engine, late = split_store
    first = next(r.id for r in engine.store.iter_sealed() if r.encrypted and r.id != late
                 and engine.store.open_text(r.content, r.id) == FIRST)
    engine.delete(first)
    with pytest.raises(HindsightError, match=late):
        engine.list(limit=20)


def test_the_cli_delete_the_message_names_erases_it(split_store: tuple[MemoryEngine, str],
                                                     monkeypatch: pytest.MonkeyPatch, embedder: Embedder) -> None:
    """`hindsight delete ID --namespace NS --yes`, as the refusal says, in process (the CLI's own code path)."""
    from typer.testing import CliRunner

    from hindsight.cli import app

    engine, late = split_store
    db, key = engine.settings.db, os.environ["HINDSIGHT_ENCRYPTION_KEY"]
    engine.close()
    result = CliRunner().invoke(app, ["delete", late[:12], "--namespace", "default", "--yes", "--db", str(db)],
                                env={"HINDSIGHT_ENCRYPTION_KEY": str(key)})
    assert result.exit_code == 0, result.output
    reopened = _open(Path(str(db)), str(key), monkeypatch, embedder)
    assert {record.content for record in reopened.list(limit=20)[0]} == {PUBLIC, FIRST, LAST}
    reopened.close()


def test_a_memory_the_key_cannot_open_is_not_found_from_another_namespace(
        split_store: tuple[MemoryEngine, str]) -> None:
    """The refusal names the memory, so it must not answer a caller of another namespace (that is `not_found`: a
    memory's existence does not leak across namespaces)."""
    engine, late = split_store
    for call in (lambda: engine.get(late, "other"), lambda: engine.resolve_id(late, "other"),
                 lambda: engine.history(late, "other"), lambda: engine.summarize([late], namespace="other"),
                 lambda: engine.update(late, {"importance": 0.9}, namespace="other"),
                 lambda: engine.forget(late, namespace="other"), lambda: engine.delete(late, namespace="other")):
        with pytest.raises(MemoryNotFoundError):
            call()


def test_a_memory_the_key_cannot_open_is_named_and_erased_on_postgresql(
        pg_url: str, monkeypatch: pytest.MonkeyPatch, embedder: Embedder) -> None:
    engine, late = _split(pg_url, monkeypatch, embedder)
    try:
        with pytest.raises(HindsightError, match=late):
            engine.search("office plants watered", top_k=5)
        engine.delete(late)
        assert {record.content for record in engine.list(limit=20)[0]} == {PUBLIC, FIRST, LAST}
    finally:
        engine.close()


def test_the_console_pages_over_an_unopened_memory_answer_its_refusal_never_a_500(
        split_store: tuple[MemoryEngine, str]) -> None:
    """The health page (counts and plots over the namespace's memories) raised the refusal out of the page: a bare
    `500 Internal Server Error` with a traceback in the log, where browse, search and export show it by name."""
    from starlette.testclient import TestClient

    from hindsight.server.mcp_server import build_server

    engine, late = split_store
    with TestClient(build_server(engine).http_app(), base_url="http://127.0.0.1") as client:
        for page in ("/console/health?ns=default", "/console/health", "/console?ns=default",
                     "/console?ns=default&q=plants"):
            answer = client.get(page)
            assert answer.status_code < 500, page
            assert late in answer.text and "encryption_unavailable" in answer.text, page
