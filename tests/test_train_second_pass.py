"""The second step's pairwise fit (scripts/train_second_pass.py): deterministic, on synthetic candidate rows."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from train_second_pass import fit, recall_table  # noqa: E402

from hindsight.retrieval import second_pass  # noqa: E402


def _rows(seed: int, questions: int = 40, per: int = 30) -> dict[str, np.ndarray]:
    """Per question one evidence turn; column `fused` is noisy and favours evidence a little, `speaker_named`
    marks evidence often and the best non-evidence turns never (the within-question signal the pairs see)."""
    rng = np.random.default_rng(seed)
    width = len(second_pass.FEATURES)
    fused, named = second_pass.FEATURES.index("fused"), second_pass.FEATURES.index("speaker_named")
    xs, ys, qid = [], [], []
    for n in range(questions):
        x = rng.normal(size=(per, width))
        y = np.zeros(per, dtype=int)
        y[0] = 1
        x[:, fused] += 1.5 * y  # evidence is usually, not always, near the top by fused score
        x[:, named] = (rng.random(per) < 0.2).astype(float)
        x[0, named] = 1.0 if rng.random() < 0.8 else 0.0
        xs.append(x)
        ys.append(y)
        qid += [n] * per
    return {"x": np.vstack(xs), "y": np.concatenate(ys), "qid": np.asarray(qid),
            "category": np.full(questions, 4), "n_evidence": np.ones(questions, dtype=int)}


def test_pairwise_fit_is_reproducible_and_ranks_held_out_questions() -> None:
    train, held = [_rows(0), _rows(1)], [_rows(2)]
    one = fit(train, 0.1, pairwise=10)
    assert one == fit(train, 0.1, pairwise=10), "same rows, same model"
    point = fit(train, 0.1)
    assert one.intercept == point.intercept and one.coef != point.coef
    names = dict(zip(second_pass.FEATURES, one.coef))
    assert names["fused"] > 0 and names["speaker_named"] > 0
    pairwise_r10 = recall_table(held, [one.scores(held[0]["x"])])["all"]
    fused_only = recall_table(held, [held[0]["x"][:, second_pass.FEATURES.index("fused")]])["all"]
    assert pairwise_r10 > fused_only, "the second signal lifts held-out recall over the fused order"
