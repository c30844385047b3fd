"""Several processes on one SQLite file: write-lock waits (issue 9 item 3) and vector indexes that follow
other processes' writes (issue 9 item 10). Real files, real second processes or connections, no doubles."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import StorageBusyError
from hindsight.model import MemoryRecord, Status
from hindsight.storage.ann_hnsw import HnswVectorIndex
from hindsight.storage.base import MemoryStore, Scope
from hindsight.storage.sqlite_store import SQLiteStore

DIM = 8


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _exact(path: Path) -> SQLiteStore:
    return SQLiteStore(path)


def _hnsw(path: Path) -> SQLiteStore:
    pytest.importorskip("usearch")
    return SQLiteStore(path, vector_index=HnswVectorIndex(Path(f"{path}.ann")))


def _hold_write_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    """A second process takes the write lock (BEGIN IMMEDIATE), says so, and keeps it for `seconds`."""
    code = textwrap.dedent(f"""
        import sqlite3, sys, time
        db = sqlite3.connect({str(path)!r}, isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        time.sleep({seconds})
        db.execute("COMMIT")
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_write_waits_for_a_lock_held_longer_than_five_seconds(tmp_path: Path) -> None:
    """Issue 9 item 3: a writer held the lock 6 s; sqlite3's default 5 s wait failed with 'database is locked'."""
    path = tmp_path / "busy.db"
    store = SQLiteStore(path)  # the default wait (30 s, HINDSIGHT_BUSY_TIMEOUT)
    holder = _hold_write_lock(path, 6.0)
    try:
        rec = MemoryRecord(content="written while another process held the lock")
        store.insert(rec, _vec(1), actor="t")
        assert store.get(rec.id) is not None
    finally:
        holder.wait(timeout=30)
        store.close()


def test_a_lock_held_past_the_limit_is_a_retryable_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    store = SQLiteStore(path, busy_timeout=0.5)
    holder = _hold_write_lock(path, 3.0)
    try:
        rec = MemoryRecord(content="this write must wait and then give up cleanly")
        with pytest.raises(StorageBusyError) as caught:
            store.insert(rec, _vec(1), actor="t")
        assert caught.value.code == "storage_busy" and caught.value.retryable
        assert "HINDSIGHT_BUSY_TIMEOUT" in str(caught.value) and "retry" in str(caught.value)
    finally:
        holder.wait(timeout=30)
    assert store.get(rec.id) is None  # nothing half-written
    store.insert(rec, _vec(1), actor="t")  # and the lock is gone: the same write now succeeds
    assert store.get(rec.id) is not None
    store.close()


BACKENDS: list[tuple[str, Callable[[Path], SQLiteStore]]] = [("exact", _exact), ("hnsw", _hnsw)]


@pytest.fixture(params=[f for _, f in BACKENDS], ids=[n for n, _ in BACKENDS])
def opener(request: pytest.FixtureRequest) -> Callable[[Path], SQLiteStore]:
    return request.param  # type: ignore[no-any-return]


def _top(store: MemoryStore, query: np.ndarray, k: int = 5) -> list[tuple[str, float]]:
    return store.dense_search(Scope("default"), query, k)


def test_a_second_process_writes_are_searchable_without_restart(tmp_path: Path,
                                                                opener: Callable[[Path], SQLiteStore]) -> None:
    """Issue 9 item 10: the server's index saw only its own writes."""
    path = tmp_path / "shared.db"
    server = opener(path)
    server.insert(MemoryRecord(content="seen by the server"), _vec(1), actor="t")
    code = textwrap.dedent(f"""
        import numpy as np
        from hindsight.model import MemoryRecord
        from hindsight.storage.sqlite_store import SQLiteStore
        v = np.random.default_rng(2).normal(size={DIM}).astype(np.float32)
        store = SQLiteStore({str(path)!r})
        rec = MemoryRecord(content="written by the CLI")
        store.insert(rec, v / np.linalg.norm(v), actor="cli")
        print(rec.id)
        store.close()
    """)
    cli_id = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                            env={**os.environ}).stdout.strip()
    hits = _top(server, _vec(2))
    assert hits[0][0] == cli_id and hits[0][1] == pytest.approx(1.0, abs=1e-4)
    server.close()


def test_a_deleted_memorys_vector_never_answers_for_a_new_one(tmp_path: Path,
                                                              opener: Callable[[Path], SQLiteStore]) -> None:
    """Issue 9 item 10: rowids are reused, so the server's stale vector for a deleted memory came back as the
    new memory that took its rowid (a wrong hit at dense rank 1)."""
    path = tmp_path / "shared.db"
    keep = MemoryRecord(content="stays")
    server = opener(path)
    server.insert(keep, _vec(10), actor="t")
    old = MemoryRecord(content="deleted by another process")
    server.insert(old, _vec(11), actor="t")  # the last row: its rowid is the one SQLite hands out next
    other = opener(path)
    other.delete(old.id, actor="cli")
    new = MemoryRecord(content="a new memory, unrelated vector")
    other.insert(new, _vec(12), actor="cli")
    other.close()
    hits = dict(_top(server, _vec(11)))  # the deleted memory's vector as the query
    assert old.id not in hits
    expected = float(_vec(11) @ _vec(12))
    assert hits.get(new.id, expected) == pytest.approx(expected, abs=1e-4)  # its own vector, never the old one
    assert _top(server, _vec(12))[0][0] == new.id
    server.close()


def test_status_changes_by_another_process_apply_to_search(tmp_path: Path,
                                                           opener: Callable[[Path], SQLiteStore]) -> None:
    path = tmp_path / "shared.db"
    server = opener(path)
    rec = MemoryRecord(content="will be forgotten elsewhere")
    server.insert(rec, _vec(20), actor="t")
    assert _top(server, _vec(20))[0][0] == rec.id
    other = opener(path)
    got = other.get(rec.id)
    assert got is not None
    other.replace(got.model_copy(update={"status": Status.forgotten}), None, actor="cli", action="forget")
    other.close()
    assert rec.id not in dict(_top(server, _vec(20)))
    server.close()


def test_catch_up_cost_does_not_grow_with_the_store(tmp_path: Path) -> None:
    """A search reads only log entries after the watermark: n and 10n stored memories, one new write each."""
    counts = []
    for n in (50, 500):
        path = tmp_path / f"scale{n}.db"
        server, other = SQLiteStore(path), SQLiteStore(path)
        for i in range(n):
            server.insert(MemoryRecord(content=f"m{i}"), _vec(1000 + i), actor="t")
        _top(server, _vec(1))
        other.insert(MemoryRecord(content="late"), _vec(7), actor="t")
        from hindsight.storage import ann_sync
        with server._lock:
            counts.append(ann_sync.catch_up(server._db, server._index))
        server.close()
        other.close()
    assert counts == [1, 1]
    _ = time  # timings belong in bench/


def test_two_engines_on_one_file_see_each_others_memories(tmp_path: Path, embedder: Embedder) -> None:
    """The engine level of item 10: a memory stored through a second engine (another server, the CLI) is found
    by the first one's dense channel without a restart."""
    path = tmp_path / "memory.db"
    settings = HindsightSettings(db=path)
    first = MemoryEngine.open(path, settings=settings, embedder=embedder)
    second = MemoryEngine.open(path, settings=settings, embedder=embedder)
    try:
        first.store_memory({"content": "The office coffee machine is on the third floor.", "type": "semantic"})
        zh = second.store_memory({"content": "部署脚本在周五晚上自动运行。", "type": "semantic"})
        top = first.search("部署脚本什么时候运行")[0]
        assert top.memory.id == zh.memory_id and top.why.dense_rank == 1
    finally:
        first.close()
        second.close()
