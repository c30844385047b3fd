"""Conformance suite for `MemoryStore`: every backend must pass these (parametrise `store` to add one)."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from conftest import FIXED_NOW

from hindsight.errors import StorageError
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage import ann_filter
from hindsight.storage.ann_hnsw import HnswVectorIndex
from hindsight.storage.base import Edge, MemoryStore, Scope
from hindsight.storage.encrypted import LOCKED as LOCKED_TEXT
from hindsight.storage.encrypted import EncryptedStore
from hindsight.storage.postgres_store import PostgresStore
from hindsight.storage.qdrant_index import QdrantVectorIndex
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.tokenize import query_terms

DIM = 8


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


Factory = Callable[[pytest.FixtureRequest, Path, pytest.MonkeyPatch], Callable[[], MemoryStore]]


def _exact(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """SQLite with the exact in-process vector index."""
    return lambda: SQLiteStore(tmp_path / "conf.db")


def _hnsw(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """The persisted HNSW graph, with the exact-search shortcut for selective scopes switched off, so every
    scoped query goes through the approximate path (oversampling, post-filter, exact fallback)."""
    pytest.importorskip("usearch")
    monkeypatch.setattr(ann_filter, "EXACT_MAX_ROWS", 0)
    monkeypatch.setattr(ann_filter, "EXACT_MAX_FRACTION", 0.0)
    return lambda: SQLiteStore(tmp_path / "conf.db", vector_index=HnswVectorIndex(tmp_path / "conf.db.ann"))


def _qdrant(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """Qdrant in qdrant-client local mode (on disk), filtering by payload conditions."""
    pytest.importorskip("qdrant_client")
    return lambda: SQLiteStore(tmp_path / "conf.db", vector_index=QdrantVectorIndex(path=str(tmp_path / "qdrant")))


def _qdrant_server(request: pytest.FixtureRequest, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """A real Qdrant server, when HINDSIGHT_QDRANT_URL names one (payload indexes are used there)."""
    url = os.environ.get("HINDSIGHT_QDRANT_URL")
    if not url:
        pytest.skip("no Qdrant server: set HINDSIGHT_QDRANT_URL to run the suite against one")
    name = f"conformance_{uuid.uuid4().hex[:12]}"
    return lambda: SQLiteStore(tmp_path / "conf.db", vector_index=QdrantVectorIndex(url=url, collection=name))


def _postgres(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """PostgreSQL + pgvector (a real server from `pgserver`)."""
    url = request.getfixturevalue("pg_url")
    return lambda: PostgresStore(url)


#: Every backend the suite runs on: (name, factory). Add one line per backend.
BACKENDS: list[tuple[str, Factory]] = [
    ("sqlite", _exact),
    ("sqlite+hnsw", _hnsw),
    ("sqlite+qdrant", _qdrant),
    ("sqlite+qdrant-server", _qdrant_server),
    ("postgres", _postgres),
]


@pytest.fixture(params=[factory for _, factory in BACKENDS], ids=[name for name, _ in BACKENDS])
def reopen(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], MemoryStore]:
    """Opens the same backend again each call."""
    return request.param(request, tmp_path, monkeypatch)  # type: ignore[no-any-return]


@pytest.fixture
def store(reopen: Callable[[], MemoryStore]) -> Iterator[MemoryStore]:
    backend = reopen()
    yield backend
    backend.close()


def _record(content: str, **kw: object) -> MemoryRecord:
    return MemoryRecord(content=content, **kw)  # type: ignore[arg-type]


def test_insert_get_roundtrip(store: MemoryStore) -> None:
    rec = _record("用户偏好 TypeScript", tags=["Pref", "lang"], metadata={"k": [1, 2]}, event_time=FIXED_NOW)
    store.insert(rec, _vec(1), actor="t")
    got = store.get(rec.id)
    assert got is not None
    assert got.content == rec.content and got.tags == ["pref", "lang"] and got.metadata == {"k": [1, 2]}
    assert got.event_time == FIXED_NOW
    assert store.get("mem_missing") is None


def test_keyword_search_segments_chinese(store: MemoryStore) -> None:
    a = _record("处理数据库迁移时遇到锁表问题")
    b = _record("今天天气很好，适合散步")
    store.insert(a, _vec(1), actor="t")
    store.insert(b, _vec(2), actor="t")
    hits = store.keyword_search(Scope("default"), query_terms("数据库"), 10)
    assert [h[0] for h in hits] == [a.id]


def test_keyword_search_english_stemming_and_identifiers(store: MemoryStore) -> None:
    a = _record("Raised max_connections to 200 after ERR_CONNECTION_REFUSED errors")
    store.insert(a, _vec(1), actor="t")
    for query in ["max_connections", "error", "ERR_CONNECTION_REFUSED"]:
        assert store.keyword_search(Scope("default"), query_terms(query), 5)[0][0] == a.id, query


def test_dense_search_respects_scope(store: MemoryStore) -> None:
    recs = [
        _record("a", namespace="ns1", type=MemoryType.semantic),
        _record("b", namespace="ns1", type=MemoryType.episodic),
        _record("c", namespace="ns2", type=MemoryType.semantic),
        _record("d", namespace="ns1", type=MemoryType.semantic, status=Status.deprecated),
    ]
    for i, r in enumerate(recs):
        store.insert(r, _vec(i), actor="t")
    query = _vec(0)
    ids = [mid for mid, _ in store.dense_search(Scope("ns1"), query, 10)]
    assert set(ids) == {recs[0].id, recs[1].id} and ids[0] == recs[0].id
    ids = [mid for mid, _ in store.dense_search(Scope("ns1", types=(MemoryType.episodic,)), query, 10)]
    assert ids == [recs[1].id]
    ids = [mid for mid, _ in store.dense_search(Scope("ns1", statuses=(Status.deprecated,)), query, 10)]
    assert ids == [recs[3].id]


def test_time_tag_importance_filters(store: MemoryStore) -> None:
    old = _record("old note", event_time=FIXED_NOW - timedelta(days=40), tags=["db"], importance=0.9)
    new = _record("new note", event_time=FIXED_NOW - timedelta(days=2), tags=["ui"], importance=0.2)
    store.insert(old, _vec(1), actor="t")
    store.insert(new, _vec(2), actor="t")
    recent = Scope("default", time_from=FIXED_NOW - timedelta(days=7))
    assert [m.id for m in store.list(recent, limit=10)] == [new.id]
    assert [m.id for m in store.list(Scope("default", tags=("db",)), limit=10)] == [old.id]
    assert [m.id for m in store.list(Scope("default", min_importance=0.5), limit=10)] == [old.id]
    assert store.count(Scope("default")) == 2


def test_replace_keeps_history_and_reindexes(store: MemoryStore) -> None:
    rec = _record("uses MySQL")
    store.insert(rec, _vec(1), actor="t")
    changed = rec.model_copy(update={"content": "uses PostgreSQL"})
    before = store.replace(changed, _vec(2), actor="u", action="update")
    assert before.content == "uses MySQL"
    assert store.keyword_search(Scope("default"), ["mysql"], 5) == []
    assert store.keyword_search(Scope("default"), ["postgresql"], 5)[0][0] == rec.id
    hist = store.history(rec.id)
    assert [h.action for h in hist] == ["create", "update"]
    assert hist[1].before["content"] == "uses MySQL" and hist[1].after["content"] == "uses PostgreSQL"


def test_delete_removes_from_all_channels_but_not_history(store: MemoryStore) -> None:
    rec = _record("delete me please")
    store.insert(rec, _vec(3), actor="t")
    assert store.delete(rec.id, actor="t") is not None
    assert store.get(rec.id) is None
    assert store.dense_search(Scope("default"), _vec(3), 5) == []
    assert store.keyword_search(Scope("default"), ["delete"], 5) == []
    assert [h.action for h in store.history(rec.id)] == ["create", "delete"]
    assert store.delete(rec.id, actor="t") is None


def test_access_edges_stats_embeddings(store: MemoryStore) -> None:
    a, b = _record("a"), _record("b", type=MemoryType.semantic)
    store.insert(a, _vec(1), actor="t")
    store.insert(b, _vec(2), actor="t")
    store.record_access([a.id], FIXED_NOW)
    assert store.get(a.id).access_count == 1  # type: ignore[union-attr]
    store.add_edge(Edge(b.id, a.id, "derived_from"))
    assert [(e.src, e.dst, e.kind) for e in store.edges([a.id])] == [(b.id, a.id, "derived_from")]
    stats = store.stats()
    assert stats.total == 2 and stats.by_type == {"episodic": 1, "semantic": 1}
    vectors = store.get_embeddings([a.id])
    assert np.allclose(vectors[a.id], _vec(1))
    assert [r.id for r in store.iter_all()] == [a.id, b.id]


def test_reopen_keeps_everything(reopen: Callable[[], MemoryStore]) -> None:
    first = reopen()
    rec = _record("persist me 持久化")
    first.insert(rec, _vec(5), actor="t")
    first.close()
    second = reopen()
    assert second.get(rec.id).content == "persist me 持久化"  # type: ignore[union-attr]
    assert second.dense_search(Scope("default"), _vec(5), 1)[0][0] == rec.id
    assert second.keyword_search(Scope("default"), query_terms("持久化"), 1)[0][0] == rec.id
    second.close()


def test_failed_insert_changes_nothing(store: MemoryStore) -> None:
    rec = _record("unique")
    store.insert(rec, _vec(1), actor="t")
    with pytest.raises(Exception):  # noqa: B017  (each backend raises its driver's integrity error)
        store.insert(rec, _vec(1), actor="t")
    assert store.count(Scope("default")) == 1
    assert [h.action for h in store.history(rec.id)] == ["create"]


def test_check_then_insert_under_the_namespace_lock_is_one_writer_across_stores(
        reopen: Callable[[], MemoryStore]) -> None:
    """What an import's `once` write relies on (`WritePipeline._persist`, attack round 36): two store objects on one
    database (two processes, two servers) each `get` an id and `insert` it if absent under `namespace_lock`, at
    once; the id is inserted once and the other sees it, no integrity error."""
    first = reopen()
    try:
        second = reopen()
    except Exception as exc:  # noqa: BLE001  (qdrant's local mode: one open client per folder)
        first.close()
        pytest.skip(f"this backend opens once per folder: {exc}")
    record = _record("imported once 只导入一次")
    barrier = threading.Barrier(2)
    inserted: list[int] = []
    errors: list[BaseException] = []

    def write(which: int, backend: MemoryStore) -> None:
        try:
            barrier.wait(timeout=60)
            with backend.namespace_lock("default"):
                if backend.get(record.id) is None:
                    with backend.transaction("default"):
                        backend.insert(record.model_copy(), _vec(1), actor="t")
                    inserted.append(which)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n, s)) for n, s in enumerate((first, second))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == [] and len(inserted) == 1
        assert first.count(Scope("default")) == second.count(Scope("default")) == 1
    finally:
        first.close()
        second.close()


def test_insert_many_is_one_batch_in_every_channel(store: MemoryStore) -> None:
    batch = [(_record("批量导入的第一条记忆", tags=["bulk"]), _vec(21)), (_record("second bulk memory"), _vec(22)),
             (_record("no vector here"), None)]
    store.insert_many(batch, actor="t", note="bulk")
    got = store.get_many([r.id for r, _ in batch])
    assert [got[r.id].content for r, _ in batch] == [r.content for r, _ in batch]
    assert got[batch[0][0].id].tags == ["bulk"]
    for record, vector in batch[:2]:
        assert store.dense_search(Scope("default"), vector, 1)[0][0] == record.id  # type: ignore[arg-type]
        assert [(h.action, h.actor, h.note) for h in store.history(record.id)] == [("create", "t", "bulk")]
    assert store.keyword_search(Scope("default"), query_terms("批量导入"), 1)[0][0] == batch[0][0].id
    assert set(store.get_embeddings([r.id for r, _ in batch])) == {batch[0][0].id, batch[1][0].id}
    # an id that exists already, or twice in one batch, fails the whole batch: nothing of it is stored
    fresh = _record("fresh 新的")
    for bad in ([(fresh, _vec(23)), (batch[1][0], _vec(22))], [(fresh, _vec(23)), (fresh, _vec(23))]):
        with pytest.raises(StorageError, match="already exists"):
            store.insert_many(bad, actor="t")
        assert store.get(fresh.id) is None and store.count(Scope("default")) == 3
        assert store.keyword_search(Scope("default"), query_terms("新的"), 5) == []
        assert fresh.id not in dict(store.dense_search(Scope("default"), _vec(23), 5))


def test_session_neighbours_are_ids_in_write_order_within_scope(store: MemoryStore) -> None:
    at = [FIXED_NOW + timedelta(seconds=s) for s in (0, 1, 2, 3, 4, 4)]  # turns 4 and 5 share a created time
    turns = [_record(f"turn {i}", session_id="s1", created_at=at[i]) for i in range(6)]
    turns[2] = turns[2].model_copy(update={"status": Status.deprecated})
    elsewhere = [
        _record("another session, same minute", session_id="s2", created_at=at[3]),
        _record("no session", created_at=at[3]),
        _record("same session id, another namespace", namespace="other", session_id="s1", created_at=at[3]),
    ]
    # written out of created order (turn 1 last among the first four): created time decides, then insertion
    order = [turns[0], turns[3], elsewhere[0], turns[2], turns[1], elsewhere[1], turns[4], turns[5], elsewhere[2]]
    store.insert_many([(r, _vec(i)) for i, r in enumerate(order)], actor="t")
    t = [r.id for r in turns]
    active = Scope("default")

    around = store.session_neighbours(active, [t[3], t[0], t[5], elsewhere[1].id, "mem_missing", elsewhere[2].id], 1)
    assert around == {t[3]: [(t[1], -1), (t[4], 1)], t[0]: [(t[1], 1)], t[5]: [(t[4], -1)]}, \
        "the deprecated turn is skipped; no session, unknown, or another namespace: no entry"
    assert store.session_neighbours(active, [t[3]], 2) == {t[3]: [(t[0], -2), (t[1], -1), (t[4], 1), (t[5], 2)]}
    with_deprecated = Scope("default", statuses=(Status.active, Status.deprecated))
    assert store.session_neighbours(with_deprecated, [t[3]], 1) == {t[3]: [(t[2], -1), (t[4], 1)]}
    assert store.session_neighbours(Scope("other"), [t[3]], 1) == {}, "an anchor outside the namespace"
    assert not store.session_neighbours(Scope("default", session_id="s2"), [t[3]], 1).get(t[3])
    assert store.session_neighbours(active, [t[3]], 0) == {} and store.session_neighbours(active, [], 1) == {}
    assert EncryptedStore(store, None).session_neighbours(active, [t[3]], 1) == {t[3]: [(t[1], -1), (t[4], 1)]}


def test_qdrant_collection_survives_reopen_and_heals_when_lost(tmp_path: Path) -> None:
    pytest.importorskip("qdrant_client")
    path, qdrant = tmp_path / "reopen.db", str(tmp_path / "qdrant")
    first = SQLiteStore(path, vector_index=QdrantVectorIndex(path=qdrant))
    records = [_record(f"memory {i}") for i in range(3)]
    for i, rec in enumerate(records):
        first.insert(rec, _vec(10 + i), actor="t")
    first.close()
    second = SQLiteStore(path, vector_index=QdrantVectorIndex(path=qdrant))
    assert second.dense_search(Scope("default"), _vec(11), 1)[0][0] == records[1].id
    second.close()
    # the collection is derived: losing it costs a re-upload from SQLite, not data
    third = SQLiteStore(path, vector_index=QdrantVectorIndex(path=str(tmp_path / "fresh-qdrant")))
    assert third.dense_search(Scope("default"), _vec(12), 1)[0][0] == records[2].id
    third.close()


def test_transaction_commits_together_or_not_at_all(store: MemoryStore) -> None:
    kept, dropped = _record("kept 保留"), _record("dropped 丢弃")
    store.insert(kept, _vec(1), actor="t")
    with pytest.raises(RuntimeError), store.transaction("default"):
        store.insert(dropped, _vec(2), actor="t")
        store.replace(kept.model_copy(update={"status": Status.deprecated}), None, actor="t", action="deprecate")
        store.add_edge(Edge(dropped.id, kept.id, "supersedes"))
        raise RuntimeError("hygiene failed half-way")
    assert store.get(dropped.id) is None and store.get(kept.id).status == Status.active  # type: ignore[union-attr]
    assert [m for m, _ in store.dense_search(Scope("default"), _vec(2), 5)] == [kept.id]
    assert store.keyword_search(Scope("default"), query_terms("丢弃"), 5) == []
    assert store.edges([kept.id]) == [] and store.history(dropped.id) == []
    # a failed statement inside a transaction undoes only itself
    other = _record("other")
    with store.transaction("default"):
        with pytest.raises(Exception):  # noqa: B017
            store.insert(kept, _vec(1), actor="t")
        store.insert(other, _vec(3), actor="t")
    assert store.get(other.id) is not None and store.count(Scope("default")) == 2


def test_tokens_audit_proposals_idempotency_live_in_the_store(store: MemoryStore) -> None:
    store.token_add("tok_1", "agent", "hash1", '["write"]', '["ns"]', 1.0)
    assert store.token_by_hash("hash1") == ("agent", '["write"]', '["ns"]')
    assert store.token_revoke("tok_1", 2.0) and not store.token_revoke("tok_1", 3.0)
    assert store.token_by_hash("hash1") is None and store.token_rows()[0][5] == 2.0
    rec = _record("audited", namespace="ns")
    store.insert(rec, _vec(1), actor="token:agent")
    store.audit_add(9e9, "token:other", "memory_get", "denied", "ns", rec.id, "no grant")
    rows = store.audit_rows(10)
    assert rows[0][1:6] == ("token:other", "memory_get", "ns", rec.id, "denied")
    assert rows[1][1:6] == ("token:agent", "create", "ns", rec.id, "ok")
    # a coalesced denial rewrites its own row's detail only (attack round 32: security/audit.py)
    store.audit_add(9e9 + 1, "token:other", "memory_get", "denied", "ns", rec.id, "no grant")
    assert store.audit_count(9e9 + 1, "token:other", "memory_get", "[2 times] no grant") == 1
    assert [r[6] for r in store.audit_rows(10)[:2]] == ["[2 times] no grant", "no grant"]
    store.proposal_add({"id": "prop_1", "namespace": "ns", "action": "store", "memory_id": None, "payload": "{}",
                        "reason": "", "proposed_by": "agent", "proposed_at": 5.0})
    assert store.proposal_count("ns", "pending") == 1
    assert store.proposal_transition("prop_1", "pending", "applying")
    assert not store.proposal_transition("prop_1", "pending", "applying")  # compare-and-set
    assert store.proposal_transition("prop_1", "applying", "approved", reviewer="alice", at=6.0)
    assert store.proposal_rows(proposal_id="prop_1")[0]["reviewed_by"] == "alice"
    assert store.proposal_rows(namespace="other") == []
    assert store.get_idempotent("ns", "k1") is None
    with store.transaction("ns"):
        assert store.put_idempotent("ns", "k1", '{"memory_id": "a"}', 1.0, "hash-a") == ('{"memory_id": "a"}', "hash-a")
    # first wins, with the fingerprint of its request
    assert store.put_idempotent("ns", "k1", '{"memory_id": "b"}', 2.0, "hash-b") == ('{"memory_id": "a"}', "hash-a")
    assert store.get_idempotent("ns", "k1") == ('{"memory_id": "a"}', "hash-a")
    assert store.get_idempotent("other", "k1") is None



def test_a_kept_secret_is_created_once_and_read_by_every_opener(reopen: Callable[[], MemoryStore]) -> None:
    """The console's CSRF key: every server of one store, and every later run, reads the one the first created."""
    first = reopen()
    secret = first.kept_secret("console_secret")
    assert len(secret) == 64 and first.kept_secret("console_secret") == secret
    assert first.kept_secret("other_secret") != secret
    first.close()
    second = reopen()
    try:
        assert second.kept_secret("console_secret") == secret
        assert EncryptedStore(second, None).kept_secret("console_secret") == secret
    finally:
        second.close()

def test_rotating_the_key_reseals_private_rows_and_history(store: MemoryStore) -> None:
    from hindsight.security.crypto import cipher_from_text, generate_key
    from hindsight.security.rotate import rotate_key
    from hindsight.storage.encrypted import EncryptedStore

    old, new = cipher_from_text(generate_key(), "old"), cipher_from_text(generate_key(), "new")
    sealed = EncryptedStore(store, old)
    private = _record("the vault combination is 31-7-22", encrypted=True, context="basement")
    sealed.insert(private, _vec(1), actor="t")
    sealed.replace(private.model_copy(update={"content": "the vault combination is 31-7-23"}), _vec(2), actor="t",
                   action="update")
    sealed.insert(_record("enc:v1:looks sealed but is a plain note"), _vec(3), actor="t")
    report = rotate_key(sealed, old, new)
    assert (report.memories, report.history) == (1, 2)
    opened = EncryptedStore(store, new).get(private.id)
    assert opened is not None and opened.content == "the vault combination is 31-7-23" and opened.context == "basement"
    snapshot = store.history(private.id)[-1].after or {}
    assert new.decrypt(str(snapshot["content"]), private.id) == "the vault combination is 31-7-23"
    # the row (content, context) and three snapshots (create: after; update: before, after) of two values each
    assert rotate_key(sealed, old, new).already_rotated == 8


def test_rotating_the_key_reseals_private_proposals_and_fingerprints(store: MemoryStore) -> None:
    """Private content kept beside the memory rows (a proposal waiting for review, a keyed request's
    fingerprint) reaches the backend sealed and rotates with the rest."""
    from hindsight.review.queue import ReviewQueue
    from hindsight.security.crypto import PREFIX, cipher_from_text, generate_key
    from hindsight.security.rotate import rotate_key
    from hindsight.storage.encrypted import EncryptedStore

    old, new = cipher_from_text(generate_key(), "old"), cipher_from_text(generate_key(), "new")
    sealed = EncryptedStore(store, old)
    proposal = ReviewQueue(sealed).add("kb", "store", {"content": "the vault combination is 31-7-22",
                                                       "private": True}, "agent", private=True)
    plain = ReviewQueue(sealed).add("kb", "forget", {"reason": "obsolete"}, "agent", "mem_1")
    bound = "idempotency\x00kb\x00k1"
    sealed.put_idempotent("kb", "k1", "{}", 1.0, sealed.seal_text("fingerprint", bound))
    raw = store.proposal_rows(proposal_id=proposal.id)[0]["payload"]
    assert raw.startswith(PREFIX) and "vault" not in raw
    assert store.proposal_rows(proposal_id=plain.id)[0]["payload"] == '{"reason": "obsolete"}'
    report = rotate_key(sealed, old, new)
    assert (report.proposals, report.idempotency) == (1, 1)
    rotated = EncryptedStore(store, new)
    assert ReviewQueue(rotated).get(proposal.id).payload["content"] == "the vault combination is 31-7-22"
    assert rotated.open_text(store.get_idempotent("kb", "k1")[1], bound) == "fingerprint"  # type: ignore[index]
    assert ReviewQueue(EncryptedStore(store, None)).get(proposal.id).payload == {"sealed": LOCKED_TEXT}
    assert rotate_key(sealed, old, new).already_rotated == 2


def test_unreachable_postgres_is_a_typed_error() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StorageError, match=r"cannot open database 'postgresql://hs:\*\*\*@127\.0\.0\.1:1/x\?") as info:
        PostgresStore("postgresql://hs:secret@127.0.0.1:1/x?connect_timeout=2")
    assert "secret" not in str(info.value)


def test_keyword_scores_do_not_count_other_namespaces_words(store: MemoryStore) -> None:
    """Attack round 20: a keyword score is BM25 over the searched namespace's statistics only, so what another
    namespace stores, replaces or deletes never moves a score or a ranking (a token could count another tenant's
    memories holding a word it guesses). A token allowed several namespaces searches each one on its own."""
    mine = [_record("Kestrel is the code name of the migration project", namespace="bob"),
            _record("the kestrel kestrel falcon nests near the tower", namespace="bob"),
            _record("lunch with the migration team on friday", namespace="bob")]
    for i, rec in enumerate(mine):
        store.insert(rec, _vec(i), actor="t")
    queries = [query_terms(q) for q in ("Kestrel", "kestrel migration", "migration project falcon")]

    def seen() -> list[list[tuple[str, float]]]:
        return [store.keyword_search(Scope("bob"), terms, 10) for terms in queries]

    before = seen()
    assert [h[0] for h in before[0]] and all(score > 0 for hits in before for _, score in hits)
    theirs = [_record(f"the Kestrel acquisition, note {i}: migration", namespace="ops") for i in range(6)]
    store.insert(theirs[0], _vec(10), actor="t")
    assert seen() == before
    store.insert_many([(rec, _vec(11 + i)) for i, rec in enumerate(theirs[1:])], actor="t")
    assert seen() == before
    store.replace(theirs[0].model_copy(update={"content": "Kestrel Kestrel project falcon, much longer " * 5}),
                  _vec(20), actor="t", action="update")
    store.delete(theirs[1].id, actor="t")
    assert seen() == before
    # the searcher's own namespace does move its statistics (they are not frozen or global)
    store.insert(_record("another kestrel note", namespace="bob"), _vec(30), actor="t")
    assert seen()[0] != before[0]
