"""xlhyg34's cross-script lane (bench/xlhyg34_lane.py: measured, not shipped): which other-language memories of the
wide search's dense pool it adds to the judged candidates. Plain numbers, no model."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import xlhyg34_lane as lane_mod  # noqa: E402

NEW = "The weekly product sync moves to Monday 15:00 Beijing time from next week."
TEXTS = {f"en{i}": f"English note number {i} about the product sync." for i in range(12)}
TEXTS |= {"zh_a": "产品例会是每周一上午十点（北京时间）。", "zh_b": "珠海总部一楼是生产线和仓库。",
          "zh_c": "陈总不喝咖啡，开会给他泡普洱。"}


def _pool() -> list[tuple[str, float]]:
    # the same-script field sits at 0.88 - 0.92, the other script's at 0.80 - 0.83 (the model's script bias)
    pool = [(f"en{i}", 0.92 - 0.004 * i) for i in range(12)] + [("zh_a", 0.83), ("zh_b", 0.815), ("zh_c", 0.80)]
    return sorted(pool, key=lambda kv: -kv[1])


def test_lane_adds_the_other_scripts_best_beyond_the_same_script_field() -> None:
    picks = lane_mod.lane(NEW, _pool(), TEXTS, taken=set(), floor=0.80, k=2)
    assert [mid for mid, _ in picks] == ["zh_a", "zh_b"]
    assert picks[0][1] == 0.83  # the raw cosine goes to the judge, not the calibrated score


def test_lane_skips_taken_and_under_the_floor_and_same_script_stores() -> None:
    assert [m for m, _ in lane_mod.lane(NEW, _pool(), TEXTS, taken={"zh_a"}, floor=0.81)] == ["zh_b"]
    english_only = [(m, s) for m, s in _pool() if m.startswith("en")]
    assert lane_mod.lane(NEW, english_only, TEXTS, taken=set(), floor=0.80) == []
    assert lane_mod.lane(NEW, _pool(), TEXTS, taken=set(), floor=0.80, k=0) == []
