"""Hygiene round 24: the value gate's readings as pair-model inputs (`write.pair_readings`), a pair model fitted on
them (`PairModel.readings`) and the gate's own model (`write.gate_model`), read by `judge.classify` only where the gate
is open. Own texts; no embedder (the judge is given its cosines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.write import gate_model, judge
from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_model import MERGE, PairModel, feature_set
from hindsight.write.pair_readings import READING_FEATURES, reading_features
from hindsight.write.token_align import ALIGN_FEATURES


def _row(old: str, new: str) -> dict[str, float]:
    return dict(zip(READING_FEATURES, reading_features(old, new).tolist()))


def test_values_in_other_forms_open_the_gate_and_say_so() -> None:
    row = _row("The call is at 3 pm.", "The call is at 15:00.")
    assert row["read_values_equal"] == 1 and row["read_gate_open"] == 1 and row["read_values_paired"] == 1
    assert row["read_zh_gate_open"] == 0  # an English pair: the Chinese copy of the block is zero
    zh = _row("我家住在 9 楼。", "我们家是九层。")
    assert zh["read_gate_open"] == 1 and zh["read_zh_gate_open"] == 1 and zh["read_zh_values_equal"] == 1


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("The call is at 3 pm.", "The call is at 4 pm.", "read_gate_values"),
    ("The team lunch is at 12:30.", "There is also a team lunch at 12:30.", "read_gate_adds"),
    ("Our anniversary is June 18.", "Mom's birthday is June 18.", "read_gate_phrase"),
])
def test_a_shut_gate_names_its_kind(old: str, new: str, kind: str) -> None:
    row = _row(old, new)
    assert row["read_gate_open"] == 0 and row[kind] == 1
    assert sum(v for k, v in row.items() if k.startswith("read_gate_") and k != "read_gate_open") == 1


def test_no_value_on_either_side_is_its_own_reading() -> None:
    row = _row("Lena prefers tea.", "Lena likes tea better than coffee.")
    assert row["read_values_none"] == 1 and row["read_values_equal"] == 0 and row["read_gate_values"] == 1


def test_a_model_fitted_on_the_readings_round_trips_and_the_shipped_model_still_loads(tmp_path: Path) -> None:
    assert feature_set() == FEATURES
    assert feature_set(True, True) == (*FEATURES, *READING_FEATURES, *ALIGN_FEATURES)
    d = len(feature_set(True))
    model = PairModel(mean=np.zeros(d), scale=np.ones(d), weights=np.zeros((d, 3)), bias=np.zeros(3), t_merge=0.9,
                      t_change=0.95, readings=True)
    model.save(tmp_path / "m.npz")
    back = PairModel.load(tmp_path / "m.npz")
    assert back is not None and back.readings and not back.aligned and back.t_merge == 0.9
    shipped = PairModel.load()
    assert shipped is not None and not shipped.readings  # the judge's own pair model is the one fitted before


def _gate(p_merge: float, t: float) -> PairModel:
    """A gate model whose p(merge) is `p_merge` for every row."""
    d = len(feature_set(True))
    bias = np.log(np.array([(1 - p_merge) / 2, p_merge, (1 - p_merge) / 2]))
    return PairModel(mean=np.zeros(d), scale=np.ones(d), weights=np.zeros((d, 3)), bias=bias, t_merge=t,
                     t_change=1.01, readings=True)


#: the values agree in other forms; nothing says another fact: the gate is open
OPEN = ("我家住在 9 楼，电梯常坏。", "我们家是九层，电梯经常坏。")


def test_the_gate_model_decides_where_the_gate_is_open(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judge.value_gate.gate_reason(*OPEN) is None
    monkeypatch.setattr(judge, "shipped_gate", lambda: None)
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: None)
    base = judge.classify(*OPEN, 0.90, None, None, 0.90)
    sure = _gate(0.99, 0.9)
    monkeypatch.setattr(judge, "shipped_gate", lambda: sure)
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: sure)
    merged = judge.classify(*OPEN, 0.90, None, None, 0.90)
    assert merged.label == "duplicate" and "value gate p=0.99" in merged.reason
    unsure = _gate(0.5, 0.9)
    monkeypatch.setattr(judge, "shipped_gate", lambda: unsure)
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: unsure)
    kept = judge.classify(*OPEN, 0.90, None, None, 0.90)
    if base.label != "duplicate":  # a keep stays a keep where the gate model is not sure
        assert kept.label == base.label


def test_a_shut_gate_is_never_opened_by_the_gate_model(monkeypatch: pytest.MonkeyPatch) -> None:
    shut = ("The call is at 3 pm.", "The call is at 4 pm.")
    sure = _gate(0.999, 0.5)
    monkeypatch.setattr(judge, "shipped_gate", lambda: sure)
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: sure)
    assert "value gate" not in judge.classify(*shut, 0.95, None, None, 0.95).reason


def test_gate_merge_falls_back_to_the_scalar_p_without_a_gate_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: None)
    x = np.zeros(len(FEATURES))
    assert gate_model.gate_merge(x, *OPEN, 0.97, 0.96) == (True, 0.97)
    assert gate_model.gate_merge(x, *OPEN, 0.95, 0.96) == (False, 0.95)
    sure = _gate(0.93, 0.9)
    monkeypatch.setattr(gate_model, "shipped_gate", lambda: sure)
    merge, q = gate_model.gate_merge(x, *OPEN, 0.10, 0.96)
    assert merge and q == pytest.approx(0.93) and MERGE == 1
