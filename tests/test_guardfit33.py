"""Round 33 guard harness (issue 10; docs/benchmarks.md "Guard, round 33"): the pinned sweep's pass rule and the
encoder's priority order, on fixed inputs (no model)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import guardfit33_embed as ge33  # noqa: E402
import guardfit33_pinned as gp  # noqa: E402


def _sweep_at(last: dict[str, list[float | None]], texts: dict[str, list[str]], t: float) -> dict[str, object]:
    return next(r for r in gp.sweep(last, texts) if r["T"] == t)


def test_benign_budgets_and_attacks_stored_read_at_each_t() -> None:
    texts = {"suite": ["a", "b", "c"], "caught": [gp.STORED_AFTER_MEASURING, "x", gp.ENGINE_DECODED + " Zm9v"]}
    last: dict[str, list[float | None]] = {"onnx:suite": [0.6, 0.55, None], "onnx:caught": [0.6, 0.9, None]}
    low = _sweep_at(last, texts, 0.5)
    assert low["onnx:suite"] == 2 and not low["benign_ok"] and not low["passes"]  # budget 1
    mid = _sweep_at(last, texts, 0.6)
    assert mid["onnx:suite"] == 1 and mid["benign_ok"] and mid["passes"]  # the base64 note never counts
    high = _sweep_at(last, texts, 0.6025)
    assert high["onnx:caught"] == 2 and high["passes"]  # the alert note stored: allowed
    top = _sweep_at(last, texts, 0.9025)
    assert not top["passes"]  # "x" stored


def test_the_held_out_rounds_and_the_pinned_texts_come_first() -> None:
    assert ge33.rank("blind-r31b") == ge33.rank("retr-r31") == ge33.rank("blind-r26") == 1
    assert ge33.rank("train-suite") == 2 and ge33.rank("census-r20") == 2
    assert ge33.rank("blind-r20") == 3 and ge33.rank("blind-r5b") == 4 and ge33.rank("retr-r5") == 5
    assert ge33.rank("train-r22T3") == 6
