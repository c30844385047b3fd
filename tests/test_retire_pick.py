"""Which candidate a write retires, read on the pair alone (issue 10, round 32: `write/retire_pick.py`).

Unit tests use a hand-made model (the logic, not the weights); the integration tests write real EN / ZH notes through
the engine with the real embedder and the shipped weights. The engine cases fail on main (no module; there the write
keeps the replaced note active).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write import retire_pick as rp
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision

N = len(rp.FEATURES)


def _model(threshold: float = 0.5) -> rp.Model:
    """Reads the cosine only: 0.5 at cosine 0.9, higher above."""
    weights = [0.0] * N
    weights[rp.FEATURES.index("cosine")] = 100.0
    return rp.Model(tuple(weights), -90.0, (0.0,) * N, (1.0,) * N, threshold)


def _rec(mid: str, text: str, **kw: object) -> MemoryRecord:
    return MemoryRecord(id=mid, content=text, type=MemoryType.semantic, **kw)  # type: ignore[arg-type]


NEW = _rec("new", "The release train moved to Thursdays.")
A = _rec("a", "The release train leaves on Tuesdays.")
B = _rec("b", "The release notes go to the #eng channel.")
VERDICT = Verdict("unrelated", "p(merge)=0.01, p(change)=0.40, cosine 0.95")


def test_the_best_candidate_at_the_point_is_retired_and_the_rules_pick_is_linked() -> None:
    decision = HygieneDecision(supersedes=["b"], reason="supersedes b")
    out = rp.pick(NEW, [(A, VERDICT, 0), (B, VERDICT, 0)], {"a": 0.95, "b": 0.91}, decision, _model())
    assert out.supersedes == ["a"] and "b" in out.supplements and "retire pick: a" in out.reason


def test_nothing_at_the_point_retires_nothing() -> None:
    decision = HygieneDecision(supersedes=["a"])
    out = rp.pick(NEW, [(A, VERDICT, 0)], {"a": 0.85}, decision, _model())
    assert out.supersedes == [] and out.supplements == ["a"]


def test_a_merge_the_switch_and_ineligible_pairs_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    merged = HygieneDecision(duplicate_of="a")
    assert rp.pick(NEW, [(A, VERDICT, 0)], {"a": 0.99}, merged, _model()).supersedes == []
    turn = _rec("t", "The release train leaves on Tuesdays.", session_id="s1")
    assert rp.pick(NEW, [(turn, VERDICT, 0)], {"t": 0.99}, HygieneDecision(), _model()).supersedes == []
    untrusted = _rec("n2", NEW.content, credibility=0.3)
    trusted = _rec("a2", A.content, credibility=1.0)
    assert rp.pick(untrusted, [(trusted, VERDICT, 0)], {"a2": 0.99}, HygieneDecision(), _model()).supersedes == []
    base = datetime(2026, 6, 1, tzinfo=UTC)
    e_old = MemoryRecord(id="e1", content="We hiked the ridge trail.", type=MemoryType.episodic, event_time=base)
    e_new = MemoryRecord(id="e2", content="We hiked the ridge trail again.", type=MemoryType.episodic,
                         event_time=base + timedelta(days=30))
    assert not rp.eligible(e_old, e_new)  # two events, not a changed plan
    monkeypatch.setattr(rp, "ON", False)
    assert rp.pick(NEW, [(A, VERDICT, 0)], {"a": 0.99}, HygieneDecision(), _model()).supersedes == []


def test_the_readings_do_not_depend_on_the_other_candidates() -> None:
    """A pair's score is the pair's: the same with one candidate or with many (no store size, no rank)."""
    alone = rp.scores(NEW, [rp.Candidate(A, 0.93, VERDICT)], set(), rp.shipped())
    crowd = rp.scores(NEW, [rp.Candidate(A, 0.93, VERDICT)] + [
        rp.Candidate(_rec(f"o{i}", f"Office note {i}: the lobby plants get watered on Fridays."), 0.9, VERDICT)
        for i in range(6)], set(), rp.shipped())
    assert alone["a"] == pytest.approx(crowd["a"])


def test_bad_weights_name_the_field() -> None:
    good = {"features": list(rp.FEATURES), "weights": [0.0] * N, "mean": [0.0] * N, "scale": [1.0] * N,
            "bias": 0.0, "threshold": 0.5}
    assert rp.model_from(good).threshold == 0.5
    with pytest.raises(ValueError, match="'weights'"):
        rp.model_from({**good, "weights": [0.0]})
    with pytest.raises(ValueError, match="'features'"):
        rp.model_from({**good, "features": ["cosine"]})
    with pytest.raises(ValueError, match="'threshold'"):
        rp.model_from({**good, "threshold": 2})
    with pytest.raises(ValueError, match="'bias'"):
        rp.model_from({k: v for k, v in good.items() if k != "bias"})


def test_the_shipped_weights_load() -> None:
    m = rp.shipped()
    assert len(m.weights) == N and 0.0 < m.threshold < 1.0 and rp.ON


# ---------------------------------------------------------------- the engine, real embedder, shipped weights
@pytest.fixture
def store(tmp_path: Path, embedder):  # type: ignore[no-untyped-def]
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    eng = MemoryEngine.open(tmp_path / "m.db", settings=HindsightSettings(db=tmp_path / "m.db"), embedder=embedder)
    yield eng
    eng.close()


def test_a_three_memory_store_keeps_every_memory(store) -> None:  # type: ignore[no-untyped-def]
    """tests/test_mcp_stdio.py's store: three facts of three topics, and a PostgreSQL fact beside a test command."""
    ids = [store.store_memory({"content": t, "namespace": "default", **kw}).memory_id for t, kw in [
        ("Prefer ruff over flake8 for linting Python code", {"type": "semantic", "tags": ["python", "lint"]}),
        ("用户喜欢简洁的回答，不要长篇大论", {"source": "user"}),
        ("The API base URL is http://localhost:8000", {}),
        ("The staging database is PostgreSQL 16 listening on port 5433", {"type": "semantic"}),
        ("Run the frontend unit tests with vitest in watch mode", {}),
    ]]
    assert [store.get(i, "default", record_access=False).status.value for i in ids] == ["active"] * 5
