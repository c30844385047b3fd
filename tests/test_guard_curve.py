"""Round 22 guard learning curve (docs/benchmarks.md, "Guard, round 22"): the protocol's folds never train on a
writer they score, a share of the other writers is drawn per fold, and the fresh training writers r21T1 - r21T3 are
registered as training writers (fitted, never a criterion). No model runs here: the fit is replaced by a recorder."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_curve as gc  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
from train_guard import BLIND_ROUNDS, CONFIGS  # noqa: E402


def _data(writers: list[str]) -> gc.Data:
    d = object.__new__(gc.Data)
    n = len(writers)
    d.writers = np.array(writers)
    d.y = np.array([i % 2 for i in range(n)])
    vec = np.zeros((n, 4), np.float32)
    vec[:, 0] = np.arange(n)
    d.f = gm.Features(vec, vec, np.zeros((n, 2), np.float32), np.ones(n, bool), np.zeros(n, bool),
                      np.ones(n, bool), np.zeros(n, bool))
    return d


def _writers() -> list[str]:
    held = [w for g in gc.EVAL_GROUPS for w in g] + [w for g in lf.RETRIEVAL_GROUPS for w in g]
    others = [f"blind-r{i}" for i in range(1, 13)] + ["train-r8T1", "train-r21T1", "train-r21T2", "train-r21T3"]
    return [w for w in held + others + ["own", gm.PLAIN_WRITER, "ops", "train-suite"] for _ in range(2)]


@pytest.mark.parametrize("fraction", [0.25, 1.0])
def test_each_fold_trains_without_the_writers_it_scores_and_on_a_share_of_the_others(
        monkeypatch: pytest.MonkeyPatch, fraction: float) -> None:
    d = _data(_writers())
    seen: list[set[str]] = []

    def record(f: gm.Features, y: np.ndarray, cfg: gm.ModelConfig, seed: int, weight: object, members: int) -> list[str]:
        seen.append({str(w) for w in d.writers[f.raw[:, 0].astype(int)]})  # column 0 holds each row's index
        return ["model"]

    monkeypatch.setattr(gc, "fit_members", record)
    monkeypatch.setattr(gc, "score", lambda models, f: np.full(len(f.raw), 0.5))
    scores = gc.run(d, d.f.lex, CONFIGS[0], None, 1, fraction, 0, 13)
    assert len(seen) == len(gc.EVAL_GROUPS)
    for (held, retr), trained in zip(d.folds(), seen, strict=True):
        assert not trained & set(held + retr)  # never a scored writer
        assert {"own", gm.PLAIN_WRITER, "ops", "train-suite"} <= trained  # the fixed part always trains
        pool = {w for w in set(d.writers) if gc.other_writer(w) and w not in held}
        assert len(trained & pool) == (len(pool) if fraction >= 1 else round(fraction * len(pool)))
    scored = np.isin(d.writers, [w for g in gc.EVAL_GROUPS for w in g] + [w for g in lf.RETRIEVAL_GROUPS for w in g])
    assert not np.isnan(scores[scored]).any() and np.isnan(scores[~scored]).all()


def test_the_fresh_training_writers_are_fitted_and_never_a_criterion() -> None:
    names = [w for w, _ in BLIND_ROUNDS]
    for writer in ("train-r21T1", "train-r21T2", "train-r21T3"):
        assert writer in names
        assert writer in lf.TRAIN_ONLY
        assert sum(writer in g for g in lf.GROUPS) == 1
        assert gc.other_writer(writer)
