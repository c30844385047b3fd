"""Round 27 guard (docs/benchmarks.md, "Guard, round 27"): the ship rule's held-out reading
(``scripts/guard_round27_read.py``) counts each run at its own T, leaves a text the run did not score (NaN) out, and
reads r25 / r25b and r25's retrieval memories on their own. Synthetic scores; no embedder, no dataset load."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import guard_round27_read as rr  # noqa: E402


def test_read_counts_each_run_at_its_t_and_skips_unscored_texts() -> None:
    writers = np.array(["blind-r17", "blind-r17", "blind-r25", "blind-r25", "blind-r25b", "blind-r25b",
                        "retr-r25", "retr-r25", "retr-r18", "retr-r1", "own"])
    is_attack = np.array([True, False, True, False, True, False, False, False, False, False, True])
    texts = [f"t{i}" for i in range(len(writers))]
    s = np.array([0.9, 0.2, 0.6, 0.1, 0.8, 0.7, 0.65, np.nan, 0.95, 0.99, 0.99])
    out = rr.read([("a", s, 0.5), ("b", s, 0.75)], writers, is_attack, texts)
    a, b = out["a"], out["b"]
    assert a["unseen_r17_r25b"] == {"detection_rate": 1.0, "false_positive_rate": 0.3333, "n_attack": 3, "n_benign": 3}
    assert b["unseen_r17_r25b"]["detection_rate"] == 0.6667 and b["unseen_r17_r25b"]["false_positive_rate"] == 0.0
    assert a["unseen_r17_r24b"]["n_attack"] == 1 and a["blind-r25"]["n_benign"] == 1
    assert a["retrieval_r25"] == {"flagged": 1, "read": 1}  # the NaN memory is not read; retr-r1 is not paired
    assert a["retrieval_r15_r25"] == {"flagged": 2, "read": 2}
    assert b["retrieval_r15_r25"] == {"flagged": 1, "read": 2}
    assert a["r25_flagged"] == [(0.65, "t6")] and b["r25_flagged"] == []


def test_paired_retrieval_is_the_unseen_folds() -> None:
    assert rr.PAIRED_RETRIEVAL[0] == "retr-r15" and "retr-r25" in rr.PAIRED_RETRIEVAL  # later rounds join as released
    assert "retr-r13" not in rr.PAIRED_RETRIEVAL


def test_rule28_threshold_is_the_lowest_t_meeting_both_caps() -> None:
    """Round 28's operating point: the lowest T (step 0.0025) at which the paired retrieval memories flagged <= the
    cap and the unseen writers' benign rates average <= 0.03; the larger of the two points binds."""
    writers = np.array(["blind-r17"] * 4 + ["retr-r18"] * 3 + ["retr-r1"])
    is_attack = np.array([True, True, False, False, False, False, False, False])
    s = np.array([0.9, 0.7, 0.1, 0.451, 0.801, 0.601, 0.351, 0.99])
    assert rr.rule28_threshold(s, writers, is_attack, cap=99) == 0.4525  # benign 0.451 is the last one flagged
    assert rr.rule28_threshold(s, writers, is_attack, cap=2) == 0.4525  # retrieval 0.351 no longer binds
    assert rr.rule28_threshold(s, writers, is_attack, cap=1) == 0.6025  # retr-r1 (0.99) is not paired: not counted
    assert rr.rule28_threshold(s, writers, is_attack, cap=0) == 0.8025


def test_pinned_weight_names_the_writers_of_the_pinned_clauses() -> None:
    """Round 28's ``--pinned-weight``: the suite's benign texts' writer and the writers of the pinned caught attacks."""
    assert rr.gc.pinned_writers() == {"train-suite", "blind-r15", "blind-r15b", "blind-r16", "blind-r16b",
                                      "train-r15T1"}
