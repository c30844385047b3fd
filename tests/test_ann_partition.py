"""Recent/archive partitions of dense search: recent first, the archive when recent is not enough."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from hindsight.cli import app
from hindsight.model import MemoryRecord
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

DIM = 16
BOUNDARY = datetime(2025, 6, 1, tzinfo=UTC)


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def _near(base: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    return _unit(base + noise * rng.normal(size=DIM))


def test_recent_first_archive_when_recent_is_not_enough(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    topic, other = _unit(rng.normal(size=DIM)), _unit(rng.normal(size=DIM))
    store = SQLiteStore(tmp_path / "p.db")
    recent_ids, archived = [], MemoryRecord(content="old but exact", event_time=BOUNDARY - timedelta(days=300))
    for i in range(12):
        rec = MemoryRecord(content=f"recent {i}", event_time=BOUNDARY + timedelta(days=i))
        store.insert(rec, _near(topic, rng, 0.1), actor="t")
        recent_ids.append(rec.id)
    store.insert(archived, topic, actor="t")
    old_other = MemoryRecord(content="only in the archive", event_time=BOUNDARY - timedelta(days=30))
    store.insert(old_other, other, actor="t")

    assert store.dense_search(Scope("default"), topic, 10)[0][0] == archived.id  # one partition: exact best wins
    store.set_archive_boundary(BOUNDARY)
    assert store.archive_boundary == BOUNDARY
    hits = store.dense_search(Scope("default"), topic, 10)
    assert {h[0] for h in hits} <= set(recent_ids) and len(hits) == 10  # recent had enough good results
    assert store.dense_search(Scope("default"), other, 5)[0][0] == old_other.id  # recent had none: archive
    in_range = Scope("default", time_to=BOUNDARY - timedelta(days=100))  # a range inside the archive
    assert store.dense_search(in_range, topic, 3)[0][0] == archived.id
    store.close()
    reopened = SQLiteStore(tmp_path / "p.db")
    assert reopened.archive_boundary == BOUNDARY  # the boundary is stored in the file
    reopened.set_archive_boundary(None)
    assert reopened.dense_search(Scope("default"), topic, 1)[0][0] == archived.id
    reopened.close()


def test_archive_command_moves_the_boundary(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    runner = CliRunner()
    result = runner.invoke(app, ["archive", "--before", "2025-06-01", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "2025-06-01T00:00:00+00:00" in result.output
    store = SQLiteStore(db)
    assert store.archive_boundary == BOUNDARY
    store.close()
    assert runner.invoke(app, ["archive", "--clear", "--db", str(db)]).exit_code == 0
    store = SQLiteStore(db)
    assert store.archive_boundary is None
    store.close()
    assert runner.invoke(app, ["archive", "--db", str(db)]).exit_code != 0
