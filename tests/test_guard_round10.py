"""Round 10 guard harness (scripts/guard_lowo_fast.py): every released writer is fitted on, the operating point is
picked per held-out writer, and the released PII sets can join as benign writers. Small and deterministic: no
embedding model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import guard_lowo_fast as lowo  # noqa: E402
import guard_variants as gv  # noqa: E402
from train_guard import BLIND_ROUNDS  # noqa: E402


def test_every_released_guard_writer_is_fitted_and_in_a_held_out_group() -> None:
    names = {w for w, _ in BLIND_ROUNDS}
    assert {"blind-r9", "blind-r9b", "train-r9T1", "train-g10"} <= names
    assert all(path.exists() for _, path in BLIND_ROUNDS)
    grouped = {w for g in lowo.GROUPS for w in g}
    assert names <= grouped
    # r9 and r9b are held out together: their scores come from a fit that saw neither
    assert ("blind-r9", "blind-r9b") in lowo.GROUPS
    # guard10's own hard pairs train but never score the criterion
    assert "train-g10" in lowo.TRAIN_ONLY


def test_every_released_guard_set_on_disk_is_a_training_writer() -> None:
    """A guard set released under bench/data (blind rounds, training writers) is fitted on and held out in turn; a
    blind-written training writer (not guard10's own pairs) scores the criterion like a blind round."""
    on_disk = {p.resolve() for p in (ROOT / "bench" / "data").glob("*/*/guard/set.jsonl")}
    assert {p.resolve() for _, p in BLIND_ROUNDS} >= on_disk
    assert ("train-r10T1",) in lowo.GROUPS
    assert "train-r10T1" not in lowo.TRAIN_ONLY and "train-r10T1" in lowo.UNSEEN_BY_SHIPPED


def test_the_harness_fixed_check_scores_every_text_the_fixed_test_pins() -> None:
    """``--fixed`` decides whether a refit can ship: it must see every memory tests/test_guard_benign_fixed.py stores,
    the held-out ops change notes included (a refit's worst pinned text was one of them)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import test_guard_benign_fixed as pinned

    texts = set(gv.fixed_texts())
    assert {t["content"] for t in pinned.SUITE + pinned.OPS_HELD + pinned.VPN_CHANGE} <= texts


def test_guard10_hard_pairs_are_bilingual_and_carry_placeholders() -> None:
    rows = [json.loads(line) for line in (ROOT / "bench/data/train/g10/guard/set.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    assert {r["label"] for r in rows} == {"attack", "benign"}
    for label in ("attack", "benign"):
        assert {r["lang"] for r in rows if r["label"] == label} == {"en", "zh"}
        assert any("[REDACTED" in r["text"] for r in rows if r["label"] == label)


def test_the_operating_point_averages_writers_not_texts() -> None:
    # writer a: 100 benign texts, one scored 0.9; writer b: 10 benign texts, two scored 0.613; attacks at 0.95
    scores = np.array([0.9] + [0.1] * 99 + [0.613, 0.613] + [0.1] * 8 + [0.95] * 4)
    writers = np.array(["a"] * 100 + ["b"] * 10 + ["a", "a", "b", "b"])
    is_attack = np.array([False] * 110 + [True] * 4)
    # pooled, the floor (0.3) flags 3/110 = 0.027 <= 0.03; per writer it flags a 0.01 and b 0.2 (mean 0.105)
    assert lowo.gm.pick_threshold(scores, is_attack, 0.03) < 0.613
    assert 0.613 < lowo.pick_threshold_per_writer(scores, is_attack, writers, 0.03) <= 0.9
    assert lowo.pick_threshold_per_writer(scores, is_attack, writers, 0.2) < 0.613


def test_pii_sets_join_as_benign_writers_each_in_a_group() -> None:
    examples = lowo.pii_examples()
    writers = {e.writer for e in examples}
    assert writers == {w for w, _ in lowo.PII_ROUNDS}
    assert writers == {w for g in lowo.PII_GROUPS for w in g}
    assert all(e.label == "benign" and not e.is_attack for e in examples)
    assert {e.lang for e in examples} >= {"en", "zh"}
