"""Filtered search reads the rows in scope through indexes (schema v8, storage/sqlite_scope.py): the same rows
and the same results as the generic scope condition, work that follows the scope and not the store, and an old
file that upgrades in place. Real SQLite files throughout; the vectors are small random ones (no model)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from hindsight.model import MemoryRecord, MemoryType, Source, Status
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

DIM = 16
T0 = datetime(2025, 1, 1, tzinfo=UTC)
TAGS = ["部署", "db", "旅行", "ui", "python"]


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _record(rng: random.Random, i: int) -> MemoryRecord:
    at = T0 + timedelta(days=rng.uniform(0, 700))
    return MemoryRecord(
        content=f"memory {i} 记忆", namespace=rng.choice(["default", "default", "other"]),
        type=rng.choice(list(MemoryType)), status=rng.choice([Status.active] * 4 + list(Status)),
        source=rng.choice(list(Source)), importance=round(rng.uniform(0, 1), 2),
        tags=rng.sample(TAGS, rng.randint(0, 3)), event_time=at if rng.random() < 0.8 else None,
        created_at=at - timedelta(days=rng.uniform(0, 30)), session_id=rng.choice([None, "s1", "s2"]),
        source_task_id=rng.choice([None, "task-1"]))


def _scope(rng: random.Random) -> Scope:
    a, b = sorted(T0 + timedelta(days=rng.uniform(-10, 710)) for _ in range(2))
    return Scope(
        namespace=rng.choice(["default", "other", "nobody"]),
        statuses=tuple(rng.sample(list(Status), rng.randint(1, 2))),
        types=tuple(rng.sample(list(MemoryType), rng.randint(1, 2))) if rng.random() < 0.6 else None,
        tags=tuple(rng.sample(TAGS + ["absent"], rng.randint(1, 2))) if rng.random() < 0.6 else None,
        time_from=a if rng.random() < 0.5 else None, time_to=b if rng.random() < 0.4 else None,
        min_importance=rng.uniform(0, 1) if rng.random() < 0.2 else None,
        source_task_id="task-1" if rng.random() < 0.1 else None,
        session_id=rng.choice(["s1", "s2"]) if rng.random() < 0.15 else None,
        sources=tuple(rng.sample(list(Source), 2)) if rng.random() < 0.15 else None)


def _generic_keys(store: SQLiteStore, scope: Scope) -> list[int]:
    """The rows the generic scope condition allows (the reference, as the search read them before v8)."""
    where, params = store._scope_sql(scope)
    sql = f"SELECT v.vkey FROM memories m JOIN vectors v ON v.memory_rowid = m.rowid WHERE {where}"
    return sorted(int(r[0]) for r in store._db.execute(sql, params))


def _store_with_history(path: Path, n: int = 1200) -> SQLiteStore:
    """A store written through every path: bulk insert, single insert, replace (tags, status, type, time,
    namespace change), delete."""
    rng, nrng = random.Random(7), np.random.default_rng(7)
    store = SQLiteStore(path)
    records = [_record(rng, i) for i in range(n)]
    vectors = _unit(nrng, n)
    store.insert_many(list(zip(records[: n - 100], vectors[: n - 100])), actor="t")
    for rec, vec in zip(records[n - 100 :], vectors[n - 100 :]):
        store.insert(rec, vec, actor="t")
    for rec in rng.sample(records, 200):
        changed = rec.model_copy(update={
            "tags": rng.sample(TAGS, rng.randint(0, 3)), "status": rng.choice(list(Status)),
            "type": rng.choice(list(MemoryType)), "event_time": T0 + timedelta(days=rng.uniform(0, 700)),
            "namespace": rng.choice(["default", "other"])})
        store.replace(changed, _unit(nrng, 1)[0] if rng.random() < 0.5 else None, actor="t", action="update")
    for rec in rng.sample(records, 100):
        store.delete(rec.id, actor="t")
    return store


def test_scope_rows_equal_the_generic_condition_after_every_kind_of_write(tmp_path: Path) -> None:
    from hindsight.storage.sqlite_scope import scope_vkeys

    store = _store_with_history(tmp_path / "s.db")
    try:
        # tag_scope is exactly tags joined with their memories' scope fields, whatever wrote them
        derived = sorted(tuple(r) for r in store._db.execute(
            "SELECT m.namespace, g.tag, m.status, m.type, COALESCE(m.event_time, m.created_at), g.memory_rowid "
            "FROM tags g JOIN memories m ON m.rowid = g.memory_rowid"))
        kept = sorted(tuple(r) for r in store._db.execute(
            "SELECT namespace, tag, status, type, t, memory_rowid FROM tag_scope"))
        assert kept == derived and len(kept) > 500
        rng = random.Random(11)
        nonempty = 0
        for _ in range(400):
            scope = _scope(rng)
            expected = _generic_keys(store, scope)
            assert scope_vkeys(store._db, scope).tolist() == expected, scope
            nonempty += bool(expected)
        assert nonempty > 150
    finally:
        store.close()


@pytest.mark.parametrize("index", ["exact", "hnsw"])
def test_filtered_dense_search_equals_exact_search_over_the_scope(tmp_path: Path, index: str) -> None:
    """Narrow scopes: the same ids in the same order and the same scores as exact cosine over the rows the
    generic condition allows (vectors as the index holds them: f16 in the HNSW graph)."""
    store = _store_with_history(tmp_path / "s.db")
    if index == "hnsw":
        pytest.importorskip("usearch")
        from hindsight.storage.ann_hnsw import HnswVectorIndex

        store.close()
        store = SQLiteStore(tmp_path / "s.db", vector_index=HnswVectorIndex(tmp_path / "s.db.ann"))
    try:
        rng, qrng = random.Random(3), np.random.default_rng(3)
        checked = 0
        for _ in range(150):
            scope = _scope(rng)
            if not (scope.types or scope.tags or scope.time_from or scope.time_to):
                continue
            query = _unit(qrng, 1)[0]
            keys = np.asarray(_generic_keys(store, scope), dtype=np.int64)
            have, matrix = store._index.vectors(keys)
            scores = matrix @ query if len(have) else np.zeros(0)
            order = np.argsort(-scores, kind="stable")[:10]
            ids = dict(store._db.execute(f"SELECT v.vkey, m.id FROM vectors v JOIN memories m ON m.rowid = "
                                         f"v.memory_rowid WHERE v.vkey IN ({','.join(map(str, have.tolist()))})")
                       ) if len(have) else {}
            expected = [(ids[int(have[i])], float(scores[i])) for i in order]
            got = store.dense_search(scope, query, 10)
            assert [m for m, _ in got] == [m for m, _ in expected], scope
            assert np.allclose([s for _, s in got], [s for _, s in expected], atol=1e-6)
            checked += bool(expected)
        assert checked > 40
    finally:
        store.close()


def _layered_store(path: Path, n: int) -> SQLiteStore:
    """n memories where every single filter of the narrow scope (semantic, tag 部署, recent) allows ~2/3 of the
    store, plus 30 memories that pass all three: a one-index plan reads ~n rows, the scope is 30."""
    rng = np.random.default_rng(n)
    old, recent = T0, T0 + timedelta(days=600)
    layers = [dict(type=MemoryType.semantic, tags=["部署"], event_time=old),
              dict(type=MemoryType.semantic, tags=["db"], event_time=recent),
              dict(type=MemoryType.episodic, tags=["部署"], event_time=recent)]
    items = [(MemoryRecord(content=f"m{i}", **layers[i % 3]), v) for i, v in enumerate(_unit(rng, n))]  # type: ignore[arg-type]
    items += [(MemoryRecord(content=f"hit{i} rollout note", type=MemoryType.semantic, tags=["部署"], event_time=recent), v)
              for i, v in enumerate(_unit(rng, 30))]
    store = SQLiteStore(path)
    for start in range(0, len(items), 2000):
        store.insert_many(items[start : start + 2000], actor="t")
    return store


def _steps(store: SQLiteStore, search: Callable[[], list[tuple[str, float]]]) -> tuple[int, list[tuple[str, float]]]:
    """SQLite VM steps (in units of 100) one search takes on this thread's read connection."""
    steps = [0]
    search()  # the index catches up outside the count
    with store._read() as db:
        db.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1) or 0, 100)
        try:
            hits = search()
        finally:
            db.set_progress_handler(None, 100)
    return steps[0], hits


def test_narrow_filtered_search_work_follows_the_scope_not_the_store(tmp_path: Path) -> None:
    """The same 30-row scope in a store of n and of 10n: SQLite work (VM steps) must not grow with the store, for
    dense search (the scope read through its index) and for keyword search (30 rows match the term; the tag,
    carried by 2/3 of the store, is checked per match instead of listed first)."""
    scope = Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=T0 + timedelta(days=300))
    query = _unit(np.random.default_rng(0), 1)[0]
    work: dict[tuple[str, int], int] = {}
    for n in (1_500, 15_000):
        store = _layered_store(tmp_path / f"n{n}.db", n)
        try:
            searches = {"dense": lambda s=store: s.dense_search(scope, query, 10),
                        "keyword": lambda s=store: s.keyword_search(scope, ["rollout"], 10)}
            for channel, search in searches.items():
                steps, hits = _steps(store, search)
                assert len(hits) == 10 and all(store.get(m).content.startswith("hit") for m, _ in hits), channel  # type: ignore[union-attr]
                work[channel, n] = steps
        finally:
            store.close()
    for channel in ("dense", "keyword"):
        assert work[channel, 15_000] <= 1.5 * work[channel, 1_500] + 20, work


def test_scope_queries_are_driven_by_an_index(tmp_path: Path) -> None:
    """EXPLAIN QUERY PLAN for each shape of scope: a SEARCH on a v8 scope index, never a SCAN."""
    from hindsight.storage.sqlite_scope import scope_rows_sql, scope_vkeys_sql

    store = SQLiteStore(tmp_path / "p.db")
    try:
        t = T0 + timedelta(days=100)
        shapes = {
            "tags+type+time": (Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=t),
                               "USING PRIMARY KEY (namespace=? AND tag=? AND status=? AND type=? AND t>?)"),
            "two tags": (Scope("default", tags=("部署", "db"), time_to=t), "USING PRIMARY KEY"),
            "tags+session": (Scope("default", tags=("db",), session_id="s1"), "USING PRIMARY KEY"),
            "type+time": (Scope("default", types=(MemoryType.semantic,), time_from=t),
                          "idx_memories_scope_time (namespace=? AND status=? AND type=? AND <expr>>?)"),
            "time only": (Scope("default", time_from=t, time_to=t + timedelta(days=9)),
                          "idx_memories_scope_time (namespace=? AND status=? AND type=? AND <expr>>? AND <expr><?)"),
            "importance": (Scope("default", min_importance=0.5), "idx_memories_scope_time"),
        }
        for name, (scope, expected) in shapes.items():
            sql, params = scope_vkeys_sql(scope)
            plan = [str(r[3]) for r in store._db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
            assert expected in plan[0] and plan[0].startswith("SEARCH"), (name, plan)
            assert not any(step.startswith("SCAN") for step in plan), (name, plan)
        for scope, _ in (shapes["tags+type+time"], shapes["type+time"], shapes["time only"]):
            sql, params = scope_rows_sql(scope, vkeys=False)  # sizing: the index entries alone
            plan = [str(r[3]) for r in store._db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
            assert len(plan) == 1 and ("COVERING INDEX" in plan[0] or "PRIMARY KEY" in plan[0]), plan
    finally:
        store.close()


def test_a_v6_file_upgrades_in_place_and_its_tags_are_indexed(tmp_path: Path) -> None:
    from hindsight.storage.migrations import MIGRATIONS, SCHEMA_VERSION, _statements

    path = tmp_path / "v6.db"
    old = sqlite3.connect(path, isolation_level=None)
    for version, script in enumerate(MIGRATIONS[:6]):
        for statement in _statements(script):
            old.execute(statement)
        old.execute(f"PRAGMA user_version = {version + 1}")
    vectors = _unit(np.random.default_rng(1), 3)
    rows = [(1, "mem_a", "semantic", ["部署", "db"], 600), (2, "mem_b", "episodic", ["部署"], 600),
            (3, "mem_c", "semantic", ["部署"], 10)]
    for (rowid, mid, kind, tags, day), vec in zip(rows, vectors):
        at = (T0 + timedelta(days=day)).timestamp()
        old.execute("INSERT INTO memories(rowid, id, namespace, content, type, importance, source, credibility, "
                    "status, created_at, updated_at, event_time) VALUES (?, ?, 'default', ?, ?, 0.5, 'user', 0.9, "
                    "'active', ?, ?, ?)", (rowid, mid, f"content of {mid}", kind, at, at, at))
        old.executemany("INSERT INTO tags(memory_rowid, tag, position) VALUES (?, ?, ?)",
                        [(rowid, tag, i) for i, tag in enumerate(tags)])
        old.execute("INSERT INTO vectors(memory_rowid, vector) VALUES (?, ?)", (rowid, vec.tobytes()))
    old.close()
    store = SQLiteStore(path)
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 8
        assert store._db.execute("SELECT COUNT(*) FROM tag_scope").fetchone()[0] == 4
        names = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "idx_memories_scope_time" in names and "idx_memories_scope" not in names
        scope = Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=T0 + timedelta(days=300))
        assert [m for m, _ in store.dense_search(scope, vectors[0], 5)] == ["mem_a"]
        store.replace(store.get("mem_c").model_copy(update={"event_time": T0 + timedelta(days=650)}),  # type: ignore[union-attr]
                      None, actor="t", action="update")
        assert {m for m, _ in store.dense_search(scope, vectors[0], 5)} == {"mem_a", "mem_c"}
    finally:
        store.close()
