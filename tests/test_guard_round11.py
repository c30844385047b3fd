"""Round 11 guard harness: the full fit behind ``--fixed`` / ``--save`` trains on the ops change notes' training half
(as guard_lowo.py's shipped recipe does) and never on the held-out half the fixed benign check pins; the
nearest-neighbour second stage (scripts/guard_knn_blend.py) blends as documented. Small and deterministic: no
embedding model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import guard_knn_blend as knn  # noqa: E402
import guard_lowo_fast as lowo  # noqa: E402


def test_the_full_fit_leaves_out_only_the_held_out_ops_notes() -> None:
    notes = [json.loads(line) for line in (ROOT / "bench/data/guard_ops/ops_change_notes.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    examples = lowo.selected_examples(4)
    held = lowo.held_ops_mask(examples)
    ops = np.array([e.writer == lowo.OPS for e in examples])
    # every held-out note is left out of the full fit, and nothing else is
    assert held.sum() == sum(n["held_out"] for n in notes) > 0
    assert {examples[i].text for i in np.flatnonzero(held)} == {n["text"] for n in notes if n["held_out"]}
    # the training half is scored as writer ops in the folds, and fitted by the full fit
    fitted_ops = ops & ~held
    assert fitted_ops.sum() == sum(not n["held_out"] for n in notes) > 0
    assert not (held & ~ops).any()


def test_the_held_out_ops_notes_are_what_the_fixed_check_pins() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    import test_guard_benign_fixed as pinned

    examples = lowo.selected_examples(4)
    held = {examples[i].text for i in np.flatnonzero(lowo.held_ops_mask(examples))}
    assert held == {t["content"] for t in pinned.OPS_HELD}


def test_knn_share_counts_attacks_among_the_nearest_training_rows() -> None:
    train = np.eye(4, dtype=np.float32)
    labels = np.array([1.0, 1.0, 0.0, 0.0])
    query = np.array([[0.9, 0.4, 0.1, 0.0], [0.0, 0.1, 0.9, 0.4]], dtype=np.float32)
    share = knn.knn_share(query, train, labels, (1, 2, 4))
    assert share[1].tolist() == [1.0, 0.0]
    assert share[2].tolist() == [1.0, 0.0]
    assert share[4].tolist() == [0.5, 0.5]


def test_blend_keeps_the_gate_and_the_hard_rules() -> None:
    score = np.array([0.8, 0.0, 1.0, 0.4])
    near = np.array([0.0, 1.0, 0.0, 1.0])
    gate = np.array([1.0, 0.0, 1.0, 1.0])
    hard = np.array([False, False, True, False])
    out = knn.blend(score, near, 0.5, gate, hard)
    assert out.tolist() == [0.4, 0.0, 1.0, 0.7]  # gated out stays 0; a hard rule stays 1
    assert knn.blend(score, near, 0.0, gate, hard).tolist() == [0.8, 0.0, 1.0, 0.4]
