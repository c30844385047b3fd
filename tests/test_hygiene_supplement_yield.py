"""Hygiene round 18: where the rules keep a pair on "shares the subject, adds or changes" alone, a confident pair
model wins (`judge.supplement_yields`), and a merge whose new text says more keeps that text current, the old one
in history (`HygieneChecker.apply`). Own texts; the apply tests use a fake embedder, the judge tests none."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write import judge
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import HygieneChecker


class Fake(Embedder):
    """Deterministic vectors from the text's first characters (apply never judges, so no meaning is needed)."""

    name, dim = "fake", 8

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        rows = np.asarray([[len(t) + 1, *(ord(c) for c in (t + "        ")[:7])] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "yield.db")
    yield s
    s.close()


def _stored(store: SQLiteStore, emb: Embedder, text: str) -> MemoryRecord:
    record = MemoryRecord(content=text)
    store.insert(record, emb.embed_documents([text])[0], actor="test")
    return record


@pytest.mark.parametrize("adopt", [True, False], ids=["richer-new-text", "plain-refresh"])
def test_a_merge_that_adds_detail_keeps_the_richer_text_and_the_old_in_history(store: SQLiteStore, adopt: bool) -> None:
    emb = Fake()
    old = _stored(store, emb, "Swim class is on Saturday mornings.")
    new = MemoryRecord(content="Swim class is on Saturday mornings at nine, at the leisure centre.")
    vector = emb.embed_documents([new.content])[0]
    checker = HygieneChecker(store, emb)

    checker.apply(new, HygieneDecision(duplicate_of=old.id, adopt_text=adopt, reason="restates"), "test", vector)

    after = store.get(old.id)
    assert after is not None and after.metadata["restated_count"] == 1
    if adopt:
        assert after.content == new.content and after.metadata["restated_from"] == old.content
        assert old.content in [(h.before or {}).get("content") for h in store.history(old.id)]
        hits = store.dense_search(_scope(), vector, 1)
        assert hits[0][0] == old.id and hits[0][1] == pytest.approx(1.0, abs=1e-5)  # the vector is the new text's
    else:
        assert after.content == old.content and "restated_from" not in after.metadata


def _scope():  # type: ignore[no-untyped-def]
    from hindsight.storage.base import Scope
    return Scope("default")


def _p(keep: float, merge: float, change: float) -> np.ndarray:
    return np.array([keep, merge, change])


RULES = Verdict("supplement", f"{SHARES_SUBJECT} (9, o'clock) (cosine 0.950)")
OLD, NEW = "Swimming lessons are on Saturday mornings.", "Swimming lessons are Saturday mornings at 9."  # amounts differ


def test_off_as_shipped_the_rules_keep_stands() -> None:
    assert judge.SUPPLEMENT_MERGE_P == {} and judge.SUPPLEMENT_CHANGE_P > 1.0
    assert judge.supplement_yields(OLD, NEW, RULES, _p(0.0, 0.999, 0.001)) is None


def test_a_setting_lets_a_confident_model_win_over_adds_or_changes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "SUPPLEMENT_MERGE_P", {"amounts differ": 0.8})
    monkeypatch.setattr(judge, "SUPPLEMENT_CHANGE_P", 0.9)
    got = judge.supplement_yields(OLD, NEW, RULES, _p(0.1, 0.85, 0.05))
    assert got is not None and got[0] == "duplicate"
    assert judge.supplement_yields(OLD, NEW, RULES, _p(0.3, 0.65, 0.05)) is None  # not sure enough: kept
    other_reason = Verdict("supplement", "adds detail (9) (cosine 0.950)")
    assert judge.supplement_yields(OLD, NEW, other_reason, _p(0.0, 0.99, 0.01)) is None  # only "adds or changes"
    changed = judge.supplement_yields(OLD, NEW, RULES, _p(0.04, 0.01, 0.95))
    assert changed is not None and changed[0] == "override"
    # another person: a blocker the setting does not name keeps the pair however sure the model is
    assert judge.supplement_yields("Anna's piano lesson is on Tuesdays.", "Ben's piano lesson is on Tuesdays.",
                                   RULES, _p(0.0, 0.99, 0.01)) is None


@pytest.mark.parametrize(("old", "new", "more"), [
    ("Swim class is on Saturday mornings.", "Swim class is on Saturday mornings at nine, at the leisure centre.", True),
    ("The user lives in Berlin.", "The user lives in Berlin, in Kreuzberg, near the canal.", True),
    ("The user lives in Berlin.", "The user is based in Berlin.", False),  # other words, nothing added
    ("用户住在上海。", "用户目前居住在上海。", False),
    ("The user lives in Berlin, in Kreuzberg.", "The user lives in Berlin.", False),  # the new text says less
])
def test_says_more_only_when_the_new_text_keeps_every_word_and_adds(old: str, new: str, more: bool) -> None:
    assert judge.says_more(old, new) is more


@pytest.mark.parametrize(("first", "more"), [
    ("Tom prefers tea over coffee.", "Tom prefers green tea over coffee."),
    ("The user is allergic to peanuts.", "The user is seriously allergic to peanuts."),
    ("用户对花生过敏。", "用户一吃花生就会过敏。"),
], ids=["en-green-tea", "en-seriously", "zh"])
def test_through_the_engine_a_merge_keeps_the_text_that_says_more(engine: MemoryEngine, first: str, more: str) -> None:
    a = engine.store_memory({"content": first})
    b = engine.store_memory({"content": more})
    assert b.action == "duplicate" and b.memory_id == a.memory_id  # main merges these too, and lost the detail
    current = engine.get(a.memory_id, record_access=False)
    assert current.content == more
    assert first in [(h.before or {}).get("content") for h in engine.history(a.memory_id)]
