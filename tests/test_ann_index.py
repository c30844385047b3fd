"""The persisted HNSW index beside the SQLite file: crash consistency, staleness, filtered search.

SQLite is the truth: a process killed after its commit and before the graph was saved must leave a store whose
next open neither loses the committed memory nor resurrects a deleted one.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage import ann_filter
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

pytest.importorskip("usearch")
from hindsight.storage.ann_hnsw import HnswVectorIndex

DIM = 16


def _vecs(n: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _open(path: Path, **kw: object) -> SQLiteStore:
    return SQLiteStore(path, vector_index=HnswVectorIndex(Path(f"{path}.ann"), **kw))  # type: ignore[arg-type]


def _graphs(path: Path) -> list[str]:
    return sorted(p.name for p in Path(f"{path}.ann").glob("hnsw-*.usearch"))


@pytest.mark.parametrize("bulk", [False, True], ids=["insert", "insert_many"])
def test_killed_between_commit_and_save_neither_loses_nor_resurrects(tmp_path: Path, bulk: bool) -> None:
    path = tmp_path / "crash.db"
    vectors = _vecs(40, 1)
    store = _open(path)
    first = [MemoryRecord(content=f"before {i}") for i in range(30)]
    for rec, v in zip(first, vectors):
        store.insert(rec, v, actor="t")
    store.close()  # saves the graph at this watermark
    saved = _graphs(path)
    assert len(saved) == 1
    code = textwrap.dedent(f"""
        import os, signal
        import numpy as np
        from pathlib import Path
        from hindsight.model import MemoryRecord
        from hindsight.storage.ann_hnsw import HnswVectorIndex
        from hindsight.storage.sqlite_store import SQLiteStore
        v = np.load({str(tmp_path / 'v.npy')!r})
        store = SQLiteStore({str(path)!r}, vector_index=HnswVectorIndex(Path({str(path)!r} + ".ann")))
        batch = [(MemoryRecord(content=f"after {{i}}"), v[i]) for i in range(30, 40)]
        if {bulk!r}:
            store.insert_many(batch, actor="t")
        else:
            for rec, vec in batch:
                store.insert(rec, vec, actor="t")
        for rec, _ in batch:
            print(rec.id, flush=True)
        for mid in {[r.id for r in first[:5]]!r}:
            store.delete(mid, actor="t")
        print("committed", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # after the SQLite commits, before any save of the graph
    """)
    np.save(tmp_path / "v.npy", vectors)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == -9, proc.stderr
    lines = proc.stdout.split()
    assert lines[-1] == "committed"
    added = lines[:-1]
    assert _graphs(path) == saved  # the kill left the old graph: the reopen has to catch up

    reopened = _open(path)
    try:
        for i, mid in enumerate(added):
            assert reopened.dense_search(Scope("default"), vectors[30 + i], 1)[0][0] == mid
        for i in range(5):
            hits = dict(reopened.dense_search(Scope("default"), vectors[i], 40))
            assert first[i].id not in hits
        assert len(reopened._index) == 35
    finally:
        reopened.close()
    assert _graphs(path) != saved  # saved again at the new watermark


def test_a_graph_ahead_of_the_file_or_unreadable_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "stale.db"
    vectors = _vecs(12, 2)
    store = _open(path)
    recs = [MemoryRecord(content=f"m{i}") for i in range(12)]
    for rec, v in zip(recs, vectors):
        store.insert(rec, v, actor="t")
    store.close()
    graph = Path(f"{path}.ann") / _graphs(path)[0]
    ahead = graph.with_name(graph.name.rsplit("-", 1)[0] + f"-{10**12:016d}.usearch")
    graph.rename(ahead)  # claims a watermark the file never reached (e.g. a graph of a later copy)
    reopened = _open(path)
    assert reopened.dense_search(Scope("default"), vectors[3], 1)[0][0] == recs[3].id
    reopened.close()
    for stale in Path(f"{path}.ann").glob("*.usearch"):
        stale.write_bytes(b"not a graph")
    again = _open(path)
    assert again.dense_search(Scope("default"), vectors[7], 1)[0][0] == recs[7].id
    assert len(again._index) == 12
    again.close()


def _exact_top(allowed: dict[str, np.ndarray], query: np.ndarray, k: int) -> list[str]:
    ids = list(allowed)
    scores = np.stack([allowed[i] for i in ids]) @ query
    return [ids[i] for i in np.argsort(-scores)[:k]]


@pytest.mark.parametrize("shortcut", [True, False], ids=["exact-when-selective", "always-ann"])
def test_filtered_search_matches_exact_and_never_leaves_scope(tmp_path: Path, shortcut: bool,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not shortcut:
        monkeypatch.setattr(ann_filter, "EXACT_MAX_ROWS", 0)
        monkeypatch.setattr(ann_filter, "EXACT_MAX_FRACTION", 0.0)
    n = 3000
    vectors = _vecs(n, 3)
    rng = np.random.default_rng(4)
    store = _open(tmp_path / "filter.db")
    records = []
    with store.transaction():  # one transaction: the index catches up once, after it
        for i in range(n):
            rec = MemoryRecord(content=f"m{i}", namespace="rare" if i % 100 == 0 else "default",
                               type=MemoryType.semantic if rng.random() < 0.3 else MemoryType.episodic,
                               status=Status.deprecated if rng.random() < 0.1 else Status.active)
            store.insert(rec, vectors[i], actor="t")
            records.append(rec)
    scopes = [Scope("default"), Scope("rare"), Scope("default", types=(MemoryType.semantic,)),
              Scope("default", statuses=(Status.deprecated,))]
    queries = _vecs(20, 5)
    for scope in scopes:
        allowed = {r.id: vectors[i] for i, r in enumerate(records)
                   if r.namespace == scope.namespace and r.status in scope.statuses
                   and (scope.types is None or r.type in scope.types)}
        found = 0
        for q in queries:
            got = [mid for mid, _ in store.dense_search(scope, q, 10)]
            assert set(got) <= set(allowed), scope  # never out of scope
            assert len(got) == min(10, len(allowed))
            found += len(set(got) & set(_exact_top(allowed, q, 10)))
        assert found / (10 * len(queries)) >= 0.9, (scope, found)
    store.close()
