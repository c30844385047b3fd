"""Attack round 40 (docs/security.md "Attack round 40"): two servers on one PostgreSQL store (and one SQLite file),
kill -9 mid-delete, the console's "restore this version" and a memory restored by hand.

- **A hard delete put back a follower another server had forgotten**: erasing a session turn recomputes the
  context of the turns after it (`write/erase.py`), but it listed them, re-embedded them and stored each computed
  version after the delete's transaction had ended, without the namespace's lock and without checking the version
  it had read: another server's `memory_forget` (or update) of such a follower in that window was written over -
  the forgotten memory came back active, its history `create, forget, erase_context`.
- **A kill between the delete's commit and the followers' recompute left the erased text stored**: the same
  recompute ran in transactions of its own after the delete had committed, so a process killed (or a recompute
  that failed) in between left the erased turn's text in the followers' session context, keyword index, vectors
  and history snapshots, and nothing repaired it after a restart.
- **A memory restored by hand kept its `superseded_by`**: `memory_update` to `active` (the console's Restore,
  a review approval) of a memory hygiene had deprecated kept the deprecation fields: `memory_get` and search named
  the memory that replaced it while calling it current, its importance stayed 0.1, and a later hard delete of that
  replacement re-pointed the restored, current memory at a successor (`relink`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_delete_supersession as deletes
from bag_embedder import BagEmbedder
from conftest import FIXED_NOW
from test_delete_supersession import LINK_KEYS, NEW, NEWER, OLD, _open

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.present import hit_view
from hindsight.read_model import SearchFilters
from hindsight.storage.base import Scope
from hindsight.write.hygiene import deprecate

#: the fixture of tests/test_delete_supersession.py: one engine on SQLite, one on PostgreSQL
engine = deletes.engine

FIRST = "Session turn one: the vendor portal password policy changed to rotate every sixty days"
SECOND = "Session turn two: we agreed to move the nightly export job to the reporting replica"


@pytest.fixture(params=["sqlite", "postgresql"])
def two_servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    target: str | Path = tmp_path / "m.db" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    first, second = _open(target), _open(target)
    yield first, second
    first.close()
    second.close()


def _session(engine: MemoryEngine) -> tuple[str, str]:
    outcomes = engine.store_many([
        {"content": FIRST, "type": "episodic", "session_id": "s1", "namespace": "ops"},
        {"content": SECOND, "type": "episodic", "session_id": "s1", "namespace": "ops"},
    ])
    first, second = (o.memory_id for o in outcomes)
    stored = engine.store.get(second)
    assert stored is not None and FIRST in str(stored.metadata.get("preceding_turn", "")), stored
    return first, second


# ------------------------------------------------------------------ 1. a delete's followers, two servers


def test_a_hard_delete_does_not_put_back_a_follower_another_server_forgot(
        two_servers: tuple[MemoryEngine, MemoryEngine]) -> None:
    """The other server forgets the follower while the delete re-embeds its context. Serialised, the forget comes
    before the delete's recompute (which then keeps it forgotten) or after it: either way it stays forgotten."""
    first, second = two_servers
    turn, follower = _session(first)
    embed = first.embedder.embed_documents
    errors: list[BaseException] = []
    workers: list[threading.Thread] = []

    def forget() -> None:
        try:
            second.forget(follower, "no longer true", namespace="ops")
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            errors.append(exc)

    def hooked(texts: Any, *args: Any) -> Any:  # the delete is re-embedding the follower's new context: the other server acts
        if not workers:
            worker = threading.Thread(target=forget)
            workers.append(worker)
            worker.start()
            worker.join(timeout=3)  # on main the forget ends here; fixed, it waits for the delete to commit
        return embed(texts, *args)

    first.embedder.embed_documents = hooked  # type: ignore[method-assign, assignment]
    first.delete(turn, namespace="ops")
    first.embedder.embed_documents = embed  # type: ignore[method-assign]
    for worker in workers:
        worker.join()
    assert workers and not errors
    stored = second.store.get(follower)
    assert stored is not None and stored.status == Status.forgotten, (
        stored and stored.status, [e.action for e in second.store.history(follower)])
    assert FIRST not in str(stored.metadata.get("preceding_turn", ""))


# ------------------------------------------------------------------ 2. a crash between the delete and its followers


class Killed(BaseException):
    """The process dies here (a BaseException, as SystemExit: nothing on the way catches it)."""


def test_a_delete_and_its_followers_recompute_commit_together(engine: MemoryEngine) -> None:
    """A process dying while the followers are recomputed: on main the delete had committed, and the erased text
    stayed in the follower's context, index and history. Now nothing of the delete is written, or all of it."""
    turn, follower = _session(engine)
    embed = engine.embedder.embed_documents

    def dies(*args: Any, **kwargs: Any) -> Any:
        raise Killed()

    engine.embedder.embed_documents = dies  # type: ignore[method-assign, assignment]
    with pytest.raises(Killed):
        engine.delete(turn, namespace="ops")
    engine.embedder.embed_documents = embed  # type: ignore[method-assign]
    still = engine.store.get(turn)
    after = engine.store.get(follower)
    assert after is not None
    context = str(after.metadata.get("preceding_turn", ""))
    # all or nothing: the turn is still there (and its follower's context with it), or it is gone from both
    assert (still is not None and FIRST in context) or (still is None and FIRST not in context), (still, context)
    assert still is not None, "the delete committed without its followers' recompute"
    engine.delete(turn, namespace="ops")  # the retry erases it everywhere
    after = engine.store.get(follower)
    assert after is not None and FIRST not in str(after.metadata.get("preceding_turn", ""))
    assert all(FIRST not in str(e.after) + str(e.before) for e in engine.store.history(follower))
    assert follower not in {mid for mid, _ in engine.store.keyword_search(Scope("ops"), ["vendor", "portal"], 10)}


# ------------------------------------------------------------------ 3. a memory restored by hand


def _retired(engine: MemoryEngine) -> tuple[str, str]:
    old = engine.store_memory({"content": OLD, "importance": 0.7, "type": "semantic"}).memory_id
    new = engine.store_memory({"content": NEW, "importance": 0.7, "type": "semantic"}).memory_id
    assert deprecate(engine.store, old, new, "a change of the same fact", "hygiene", FIXED_NOW)
    return old, new


def test_a_memory_restored_by_hand_reads_as_current_and_history_says_so(engine: MemoryEngine) -> None:
    old, new = _retired(engine)
    engine.update(old, {"status": "active"}, actor="token:alice")
    restored = engine.get(old, record_access=False)
    assert restored.status == Status.active
    assert not [k for k in LINK_KEYS if k in restored.metadata], restored.metadata
    assert restored.importance == pytest.approx(0.7)  # not the 0.1 of a retired memory
    last = engine.history(old)[-1]
    assert last.action == "update" and new in last.note and "superseded" in last.note, last.note
    hits = engine.search("team standup small meeting room", filters=SearchFilters(), top_k=5)
    view = next(hit_view(h) for h in hits if h.memory.id == old)
    assert view["current"] and view["superseded_by"] is None, view


def test_a_restore_by_hand_keeps_an_importance_it_sets(engine: MemoryEngine) -> None:
    old, _new = _retired(engine)
    engine.update(old, {"status": "active", "importance": 0.4})
    assert engine.get(old, record_access=False).importance == pytest.approx(0.4)


def test_a_restored_memory_is_not_relinked_when_its_old_replacement_is_deleted(engine: MemoryEngine) -> None:
    """On main the restored (active, current) memory was re-pointed at the erased replacement's successor."""
    old, new = _retired(engine)
    newer = engine.store_memory({"content": NEWER, "importance": 0.7, "type": "semantic"}).memory_id
    assert deprecate(engine.store, new, newer, "a change of the same fact", "hygiene", FIXED_NOW)
    engine.update(old, {"status": "active"})
    engine.delete(new)
    restored = engine.get(old, record_access=False)
    assert restored.status == Status.active and "superseded_by" not in restored.metadata, restored.metadata
    assert [e.action for e in engine.history(old)][-1] == "update"


# ------------------------------------------------------------------ 4. memory ids in metadata are not redacted

#: real ids of a live run: their hex holds an 11-digit run that reads as a Chinese mobile number
IDS = ["mem_c5c14056976940a28c85c176b7cd6ba0", "mem_7636f7441be14357926308d50d19e1cc"]


def test_a_promoted_memorys_source_ids_are_not_redacted_as_phone_numbers(tmp_path: Path) -> None:
    """Live: kill -9 round on consolidation, 2 of the promoted memories' `consolidated_from` named an id that does
    not exist (`mem_c5c[REDACTED:phone]a28c85c176b7cd6ba0`); the derived_from edges were right."""
    eng = MemoryEngine.open(tmp_path / "m.db", settings=HindsightSettings(hygiene=False), embedder=BagEmbedder(words=True))
    try:
        meta = {"consolidated_from": IDS, "consolidation": "promote", "method": "extractive", "call": "13812345678"}
        outcome = eng.store_memory({"content": "Deploys fail when the migration times out", "type": "semantic",
                                    "metadata": meta})
        stored = eng.get(outcome.memory_id, record_access=False)
        assert stored.metadata["consolidated_from"] == IDS, stored.metadata
        assert "13812345678" not in str(stored.metadata["call"])  # a phone number as a value is still redacted
    finally:
        eng.close()


# ------------------------------------------------------------------ 5. local Qdrant held by another process


def test_a_local_qdrant_folder_another_process_holds_is_a_typed_error(tmp_path: Path) -> None:
    """Live: `hindsight add` (or a second server) beside a server with HINDSIGHT_VECTOR_BACKEND=qdrant in local mode
    died with qdrant-client's RuntimeError traceback; now a `storage_unavailable` naming the folder and the way out."""
    pytest.importorskip("qdrant_client")
    from hindsight.errors import StorageUnavailableError
    from hindsight.storage.qdrant_index import QdrantVectorIndex

    folder = str(tmp_path / "m.db.qdrant")
    first = QdrantVectorIndex(path=folder)
    try:
        with pytest.raises(StorageUnavailableError) as err:
            QdrantVectorIndex(path=folder)
        assert folder in str(err.value) and "HINDSIGHT_QDRANT_URL" in str(err.value)
    finally:
        first._client.close()
