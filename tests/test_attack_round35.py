"""Attack round 35 (docs/security.md "Attack round 35"): many servers on one store, the review queue, scopes, the
encryption key, resource use and crashes.

- **A wrong key at start split the store for good**: a server (or CLI) started with a `HINDSIGHT_ENCRYPTION_KEY`
  that does not open the store's private memories opened without a word; every search of a namespace holding a
  private memory failed, and every private write it took was sealed under the wrong key, so after a restart with the
  right key the searches kept failing on the row the wrong key wrote, and `rotate-key` refused the store.
- **An approval overwrote a change made after its version check**: `ReviewService.approve` checked the memory was
  unchanged since the proposal, then the engine read it again to apply the proposal; a correction another server
  (or request) made in between was overwritten, and the proposal recorded as approved.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import EncryptionUnavailableError, VersionConflictError
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.security.crypto import generate_key


def _engine(db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    settings = HindsightSettings(db=db, hygiene=False)
    return MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))


@pytest.fixture
def keyed_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    db, key = tmp_path / "m.db", generate_key()
    engine = _engine(db, key, monkeypatch)
    engine.store_memory({"content": "Kingsley had surgery on his knee", "namespace": "ops", "private": True})
    engine.store_memory({"content": "The deploy runs on Fridays", "namespace": "ops"})
    engine.close()
    yield db, key


# ------------------------------------------------------------------ 1. a wrong key at start


def _rows(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as raw:
        return sorted(raw.execute("SELECT id, content FROM memories").fetchall())


def test_a_key_that_does_not_open_the_stores_private_memories_is_refused_at_open(
        keyed_store: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """On main the wrong key opened the store, every search of `ops` failed and a private write was sealed under
    it; restarted with the right key, `ops`' search still failed on that row."""
    db, key = keyed_store
    before = _rows(db)
    with pytest.raises(EncryptionUnavailableError, match="HINDSIGHT_ENCRYPTION_KEY") as refused:
        engine = _engine(db, generate_key(), monkeypatch)
        try:  # on main: the store opened, so the damage a server with the wrong key does
            engine.store_memory({"content": "Vendramin is allergic to penicillin", "namespace": "ops",
                                 "private": True})
        finally:
            engine.close()
    assert "wrong key" in str(refused.value) and key not in str(refused.value)
    assert _rows(db) == before  # nothing written
    engine = _engine(db, key, monkeypatch)
    try:
        assert [h.memory.content for h in engine.search("deploy Fridays", namespace="ops")][:1] == [
            "The deploy runs on Fridays"]
    finally:
        engine.close()


def test_the_store_only_commands_still_open_with_any_key(keyed_store: tuple[Path, str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens, the audit log and `rotate-key` (which checks every sealed value itself) open the store alone."""
    from hindsight.cli_common import open_store_only

    db, _ = keyed_store
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    with open_store_only(db) as store:
        assert store.get_many([]) == {}  # opened


def test_a_store_left_under_two_keys_opens_with_either(keyed_store: tuple[Path, str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """After `rotate-key` while a server kept writing with the old key, both keys open the store, so the documented
    remedy (run `rotate-key` again) and the servers keep working; a third key is refused, and after the second run
    the old key too."""
    from hindsight.security.crypto import cipher_from_text
    from hindsight.security.rotate import rotate_key
    from hindsight.storage.factory import open_store

    db, old = keyed_store
    new = generate_key()
    settings = HindsightSettings(db=db, hygiene=False)

    def rotate() -> None:
        store = open_store(db, settings, cipher=cipher_from_text(old, "old"), verify_key=False)
        try:
            rotate_key(store, cipher_from_text(old, "old"), cipher_from_text(new, "new"))
        finally:
            store.close()

    rotate()
    with pytest.raises(EncryptionUnavailableError):
        _engine(db, old, monkeypatch).close()  # rotated: the old key opens nothing any more
    # a server that kept the old key (opened before the rotation) writes one more private memory
    stale = MemoryEngine(open_store(db, settings, cipher=cipher_from_text(old, "old"), verify_key=False),
                         BagEmbedder(words=True), settings)
    stale.store_memory({"content": "Locker 7 holds the blue binder", "namespace": "ops", "private": True})
    stale.close()
    for key in (old, new):
        _engine(db, key, monkeypatch).close()
    with pytest.raises(EncryptionUnavailableError):
        _engine(db, generate_key(), monkeypatch).close()
    rotate()  # the second run finishes the job
    with pytest.raises(EncryptionUnavailableError):
        _engine(db, old, monkeypatch).close()
    engine = _engine(db, new, monkeypatch)
    try:
        assert [h.memory.content for h in engine.search("Locker blue binder", namespace="ops")][:1] == [
            "Locker 7 holds the blue binder"]
    finally:
        engine.close()


def test_a_store_without_private_memories_takes_any_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "plain.db"
    _engine(db, generate_key(), monkeypatch).close()
    engine = _engine(db, generate_key(), monkeypatch)
    try:
        assert engine.store_memory({"content": "Secret plan", "private": True}).memory_id
    finally:
        engine.close()


# ------------------------------------------------------------------ 2. an approval racing another server's change


@pytest.fixture
def review_service(tmp_path: Path) -> Iterator[ReviewService]:
    settings = HindsightSettings(db=tmp_path / "kb.db", hygiene=False)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    yield ReviewService(engine, ReviewQueue(engine.store), "kb")
    engine.close()


@pytest.mark.parametrize("action", ["update", "forget"])
def test_an_approval_does_not_overwrite_a_change_made_after_its_check(review_service: ReviewService,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      action: str) -> None:
    """`approve` checked that the memory had not changed since the proposal (round 21), then wrote the proposal
    through `engine.update` / `engine.forget`, which read the memory again: a correction another server made between
    the two (here: run from inside the check) was overwritten on main, the proposal recorded as approved."""
    import hindsight.review.service as service

    engine = review_service.engine
    memory_id = engine.store_memory({"content": "The backup runs at 2 am", "namespace": "kb"}).memory_id
    if action == "update":
        proposed = review_service.update(memory_id, {"content": "The backup runs at 4 am"}, "kb", "token:writer")
    else:
        proposed = review_service.forget(memory_id, "no longer true", "kb", "token:writer")
    real_check = service.check_version
    raced: list[str] = []

    def check_then_race(record: Any, expected: str | None, *args: Any) -> None:
        real_check(record, expected, *args)
        if not raced:  # the other server's correction lands right after the check passed
            raced.append(engine.update(memory_id, {"content": "The backup runs at 3 am"}, "kb", "token:other").id)

    monkeypatch.setattr(service, "check_version", check_then_race)
    with pytest.raises(VersionConflictError, match="expected_version"):
        review_service.approve(proposed["proposal_id"], "token:admin", namespace="kb")
    assert raced
    current = engine.get(memory_id, "kb", record_access=False)
    assert current.content == "The backup runs at 3 am" and current.status.value == "active"
    assert review_service.queue.get(proposed["proposal_id"]).status == "pending"
    monkeypatch.setattr(service, "check_version", real_check)
    # the reviewer reads the memory as it is now and applies the proposal over it knowingly
    version = review_service.view(review_service.queue.get(proposed["proposal_id"]))["current_version"]
    review_service.approve(proposed["proposal_id"], "token:admin", namespace="kb", expected_version=version)
    after = engine.get(memory_id, "kb", record_access=False)
    assert (after.content == "The backup runs at 4 am") if action == "update" else (after.status.value == "forgotten")


# ------------------------------------------------------------------ 3. two imports of one file at once (fixed in round 36)


def test_two_imports_of_one_file_at_once_store_each_line_once(tmp_path: Path) -> None:
    """A re-run of an import while the first still runs (a job retried after a timeout, two operators): each run
    reads the import keys already in the namespace once, before writing, so both write every line (live: 40 lines,
    75 active memories; hygiene merged 5)."""
    import json

    settings = HindsightSettings(db=tmp_path / "m.db", guard="off")
    first = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    second = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    lines = [json.dumps({"id": f"src_{i}", "content": f"Shelf {i} in aisle {i % 7} holds item number {i * 13}",
                         "namespace": "ops"}) for i in range(40)]
    write_many = first.writer.write_many
    raced: list[int] = []

    def second_run_meanwhile(items: Any, actor: str, restores: Any, **kwargs: Any) -> Any:
        if not raced:  # the second run starts after the first read what was done, before its first chunk lands
            raced.append(len(second.import_jsonl(lines, "import-b")))
        return write_many(items, actor, restores, **kwargs)

    try:
        first.writer.write_many = second_run_meanwhile  # type: ignore[method-assign]
        first.import_jsonl(lines, "import-a")
        active = [r for r in first.store.iter_all("ops") if r.status.value == "active"]
        assert raced == [40]
        assert len(active) == 40
    finally:
        first.close()
        second.close()
