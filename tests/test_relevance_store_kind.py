"""`relevance` per store kind: a chat turn (a memory with a `session_id`) is read by the embedder's model, a fact
(no `session_id`) by the entry's `facts` model when the calibration file has one (docs/benchmarks.md
"Relevance, round 46")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXED_NOW

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval import relevance
from hindsight.retrieval.relevance import RelevanceModel, fact_model_for, for_hit, model_for

#: a facts model that says 0.9 for any hit (no inputs, intercept logit(0.9)): easy to tell apart from main's
CONSTANT = {"features": [], "coef": [], "intercept": 2.197225, "mean": [], "scale": [], "isotonic": {}}


@pytest.fixture
def calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the shipped calibration file without any `facts` entry, that a test may give one (the caches
    cleared around)."""
    path = tmp_path / "relevance_calibration.json"
    table = json.loads(relevance.CALIBRATION_FILE.read_text(encoding="utf-8"))
    path.write_text(json.dumps({k: {f: v for f, v in e.items() if f != "facts"} for k, e in table.items()}),
                    encoding="utf-8")
    monkeypatch.setattr(relevance, "CALIBRATION_FILE", path)
    model_for.cache_clear()
    fact_model_for.cache_clear()
    yield path
    model_for.cache_clear()
    fact_model_for.cache_clear()


def _with_facts(path: Path, facts: dict) -> None:
    table = json.loads(path.read_text(encoding="utf-8"))
    for entry in table.values():
        entry["facts"] = facts
    path.write_text(json.dumps(table), encoding="utf-8")
    model_for.cache_clear()
    fact_model_for.cache_clear()


def _hit(session_id: str | None) -> SearchHit:
    return SearchHit(memory=MemoryRecord(content="x", session_id=session_id), score=1.0,
                     why=Explanation(fused=1.0, final=1.0))


def test_a_hit_is_read_by_its_own_kinds_model() -> None:
    main, facts = RelevanceModel((), 0.0, ()), RelevanceModel((), 1.0, ())
    assert for_hit(_hit("session_3"), main, facts) is main
    assert for_hit(_hit(None), main, facts) is facts
    assert for_hit(_hit(None), main, None) is main  # no facts model: every hit reads main's, as before


def test_the_facts_model_is_the_entrys_facts_sub_entry(calibration: Path) -> None:
    assert fact_model_for("any-embedder") is None
    _with_facts(calibration, CONSTANT)
    model = fact_model_for("any-embedder")
    assert model is not None and model.of({}) == pytest.approx(0.9, abs=1e-6)
    assert model_for("any-embedder") != model  # main's model is not replaced


TURNS = ["Caroline: I went hiking in the Rockies last summer.", "Melanie: I painted a sunset by the lake.",
         "Caroline: my dog loves the park near our house."]
FACTS = ["The user went hiking in the Alps in June.", "The user's editor theme is solarized light."]


def _store(engine: MemoryEngine) -> None:
    engine.store_many([{"content": c, "session_id": "session_1"} for c in TURNS] + [{"content": c} for c in FACTS])


def test_in_a_mixed_store_turns_keep_mains_value_and_facts_read_the_facts_model(
        engine: MemoryEngine, calibration: Path) -> None:
    _store(engine)
    before = engine.search("where did they go hiking", top_k=5, now=FIXED_NOW)
    _with_facts(calibration, CONSTANT)
    after = engine.search("where did they go hiking", top_k=5, now=FIXED_NOW)
    assert [h.memory.id for h in after] == [h.memory.id for h in before]  # a label: the same hits, same order
    assert {h.memory.session_id for h in after} == {"session_1", None}
    for old, new in zip(before, after, strict=True):
        if new.memory.session_id:
            assert new.relevance == old.relevance  # byte-identical for chat turns
        else:
            assert new.relevance == 0.9
