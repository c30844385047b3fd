"""The speaker pool channel: the named speaker's own turns, best first by cosine, join the second step's pool."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.model import MemoryRecord, Status
from hindsight.retrieval.speaker_pool import speaker_of, speaker_pool
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

DIM = 8


def _vector(angle: float) -> np.ndarray:
    """Unit vectors on one circle: a smaller angle is nearer the query (angle 0)."""
    v = np.zeros(DIM, dtype=np.float32)
    v[0], v[1] = np.cos(angle), np.sin(angle)
    return v


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    s = SQLiteStore(tmp_path / "speakers.db")
    # nearest first: Jon, Maria, Jon, Maria, Maria, a note without a speaker, Maria
    rows = [("Jon: one", 0.1), ("Maria: two", 0.2), ("Jon: three", 0.3), ("Maria: four", 0.4),
            ("maria : five", 0.5), ("no speaker here", 0.6), ("Maria: seven", 0.7)]
    for content, angle in rows:
        s.insert(MemoryRecord(id=f"m-{content.split()[-1]}", content=content), _vector(angle), actor="test")
    return s


def _scope() -> Scope:
    return Scope.from_filters("default", None, (Status.active,))


def test_speaker_of() -> None:
    assert speaker_of("Maria: Did you book it?") == "maria"
    assert speaker_of("张伟：我明天到上海") == "张伟"
    assert speaker_of("no speaker in this memory") is None


def test_named_speakers_turns_best_first_and_only_new_ones_added(store: SQLiteStore) -> None:
    known = store.get_many(["m-one", "m-two"])  # the pool already holds the two nearest
    found = speaker_pool(store, _scope(), _vector(0.0), ["Maria"], known, depth=7, limit=2)
    assert list(found.rrank) == ["m-two", "m-four", "m-five", "m-seven"], "Maria's turns, nearest first"
    assert found.rrank["m-two"] == 1.0 and found.rrank["m-five"] == pytest.approx(1 / 3)
    assert found.added == ["m-four", "m-five"], "only turns the pool lacks, at most `limit`"
    assert set(found.records) == {"m-four", "m-five"}


def test_depth_bounds_the_lookup(store: SQLiteStore) -> None:
    found = speaker_pool(store, _scope(), _vector(0.0), ["maria"], {}, depth=3, limit=10)
    assert found.added == ["m-two"], "only the 3 nearest memories are looked at"


def test_nothing_without_names_vector_or_budget(store: SQLiteStore) -> None:
    for names, vector, depth, limit in ((["Nobody"], _vector(0.0), 7, 5), ([], _vector(0.0), 7, 5),
                                        (["Maria"], None, 7, 5), (["Maria"], _vector(0.0), 0, 5),
                                        (["Maria"], _vector(0.0), 7, 0)):
        found = speaker_pool(store, _scope(), vector, names, {}, depth=depth, limit=limit)
        assert not found.added and (not found.rrank or names == ["Nobody"])
    assert not speaker_pool(store, _scope(), _vector(0.0), ["Nobody"], {}, depth=7, limit=5).rrank


def test_other_namespace_is_not_read(store: SQLiteStore) -> None:
    elsewhere = Scope.from_filters("elsewhere", None, (Status.active,))
    assert not speaker_pool(store, elsewhere, _vector(0.0), ["Maria"], {}, depth=7, limit=5).rrank
