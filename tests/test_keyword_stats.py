"""Per-namespace BM25 statistics of the SQLite store (storage/keyword_stats.py): a single-namespace store scores
exactly as FTS5's bm25() did, the totals follow every write, and a store written before schema v10 gets them on
open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from hindsight.field_rules import SESSION_CONTEXT_KEY
from hindsight.model import MemoryRecord
from hindsight.storage import keyword_stats
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.tokenize import query_terms

TEXTS = ["Kestrel is the code name of the migration project", "the kestrel kestrel falcon nests near the tower",
         "lunch with the migration team on friday", "Raised max_connections to 200 after errors",
         "处理数据库迁移时遇到锁表问题", "the falcon project ships in May; migration first",
         "nothing to see here", "connection errors again after the migration"]
QUERIES = ["Kestrel", "kestrel migration", "migration project falcon", "errors connections", "数据库迁移", "friday"]


def _vec(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=8).astype(np.float32)


def _fill(store: SQLiteStore, namespace: str = "default") -> None:
    for i, text in enumerate(TEXTS):
        neighbours = {SESSION_CONTEXT_KEY: TEXTS[i - 1]} if i else {}
        store.insert(MemoryRecord(content=text, namespace=namespace, metadata=neighbours), _vec(i), actor="t")


def _fts5(store: SQLiteStore, terms: list[str], weight: float = 0.5) -> dict[str, float]:
    match = " OR ".join(f'"{t}"' for t in terms)
    rows = store._db.execute(f"SELECT m.id, bm25(memories_fts, 1.0, {weight}) FROM memories_fts JOIN memories m "
                             "ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ?", (match,)).fetchall()
    return {row[0]: -float(row[1]) for row in rows}


def test_a_single_namespace_scores_exactly_as_fts5(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "k.db")
    _fill(store)
    for query in QUERIES:
        for weight in (0.5, 0.0, 1.0):
            terms = query_terms(query)
            got = dict(store.keyword_search(Scope("default"), terms, 50, weight))
            assert got == pytest.approx(_fts5(store, terms, weight), rel=1e-9, abs=1e-12), (query, weight)
    store.close()


def test_totals_follow_inserts_replaces_and_deletes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "k.db")
    _fill(store, "a")
    rec = MemoryRecord(content="one two three", namespace="b")
    store.insert(rec, _vec(1), actor="t")
    assert keyword_stats.totals(store._db, "b") == (1, 3)
    store.replace(rec.model_copy(update={"content": "one two three four five"}), None, actor="t", action="update")
    assert keyword_stats.totals(store._db, "b") == (1, 5)
    store.delete(rec.id, actor="t")
    assert keyword_stats.totals(store._db, "b") == (0, 0)
    docs, tokens = keyword_stats.totals(store._db, "a")
    assert docs == len(TEXTS) and tokens == sum(
        len(body) + len(neighbours) for body, neighbours in keyword_stats.tokenize(
            store._db.execute("SELECT body, neighbours FROM memories_fts JOIN memories m ON m.rowid = "
                              "memories_fts.rowid WHERE m.namespace = 'a'").fetchall()))
    store.close()


def test_a_store_written_before_v10_gets_its_statistics_on_open(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = SQLiteStore(path)
    _fill(store, "bob")
    _fill(store, "ops")
    want = {q: store.keyword_search(Scope("bob"), query_terms(q), 20) for q in QUERIES}
    totals = keyword_stats.totals(store._db, "bob")
    store.close()
    db = sqlite3.connect(path)  # as hindsight before v10 left it
    db.executescript("DROP TABLE keyword_stats; DROP TABLE memories_fts_v; DELETE FROM meta WHERE key = 'keyword_stats_built'; "
                     "PRAGMA user_version = 9;")
    db.close()
    store = SQLiteStore(path)
    assert keyword_stats.totals(store._db, "bob") == totals
    assert {q: store.keyword_search(Scope("bob"), query_terms(q), 20) for q in QUERIES} == want
    store.close()


def test_phrases_count_consecutive_tokens() -> None:
    sizes, counts = keyword_stats.phrase_counts([("a b a b c", "b a"), ("c", "")], [("a", "b"), ("b", "a"), ("c",)])
    assert sizes == [7, 1] and counts == [[(2, 0), (1, 1), (1, 0)], [(0, 0), (0, 0), (1, 0)]]
    assert keyword_stats.tokenize([("Running Café don't", "x")]) == [(["run", "cafe", "don", "t"], ["x"])]


def test_common_terms_rank_the_newest_matches_with_the_namespaces_own_lengths(tmp_path: Path) -> None:
    """Every query term over the cost cap: the newest cap matches are ranked, each term weighing 1, with the
    namespace's own average length, so another namespace's writes still move nothing."""
    store = SQLiteStore(tmp_path / "k.db")
    store.keyword_term_cap = 2
    _fill(store, "bob")
    want = store.keyword_search(Scope("bob"), ["migration"], 2)
    assert len(want) == 2 and all(score > 0 for _, score in want)
    store.insert_many([(MemoryRecord(content="migration " * 40, namespace="ops"), None) for _ in range(5)], actor="t")
    assert store.keyword_search(Scope("bob"), ["migration"], 2) == want
    store.close()
