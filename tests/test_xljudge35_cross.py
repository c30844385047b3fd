"""xljudge35's reading of a cross-script pair (bench/xljudge35_cross.py: measured, not shipped): its band, the pair
model's change threshold and the value reading across languages. Lexical and the shipped pair model: no embedder
(cosines are given)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import xljudge35_cross as cross  # noqa: E402

from hindsight.write.judge import classify  # noqa: E402
from hindsight.write.thresholds import HygieneThresholds  # noqa: E402

OLD_ZH = "AP-3 自动舵欧洲经销商价定为 1450 欧元（不含税），建议零售价 1890 欧元。"
NEW_EN = "AP-3 dealer price drops to EUR 1,390 from September to counter Raymarine's promotion. RRP stays at EUR 1,890."
FOLLOW_UP = "AP-3 dealer training day in Hamburg went well; 14 dealers came, two asked for demo units."
NOTHING_SHARED = "周会改到周三下午。"
CANTEEN = "The canteen opens at noon."


@pytest.fixture(scope="module")
def base() -> HygieneThresholds:
    return HygieneThresholds.default()


def test_band_lowered_for_a_cross_pair_that_shares_a_value(base: HygieneThresholds) -> None:
    low = cross.cross_thresholds(base, 0.82, needs_value=True)
    assert base.for_pair(OLD_ZH, NEW_EN).conflict_low == 0.84  # main: the English band for any English side
    assert low.for_pair(OLD_ZH, NEW_EN).conflict_low == 0.82
    assert low.for_pair("AP-3 dealer price is EUR 1,450.", NEW_EN) == base.for_pair("AP-3 dealer price is EUR 1,450.",
                                                                                   NEW_EN)  # one script
    assert not cross.shares_value(NOTHING_SHARED, CANTEEN)
    assert low.for_pair(NOTHING_SHARED, CANTEEN).conflict_low == 0.84
    assert cross.cross_thresholds(base, 0.82, needs_value=False).for_pair(NOTHING_SHARED, CANTEEN).conflict_low == 0.82
    assert low.pair_model is base.pair_model and low.zh == base.zh


def test_band_under_the_floor_is_a_typed_error(base: HygieneThresholds) -> None:
    with pytest.raises(ValueError, match="conflict_low"):
        cross.cross_thresholds(base, 0.7, needs_value=False)


def test_change_threshold_keeps_the_band(base: HygieneThresholds) -> None:
    both = cross.with_change_p(cross.cross_thresholds(base, 0.80, needs_value=False), 0.999)
    assert both.pair_model is not None and both.pair_model.t_change == 0.999
    assert both.for_pair(OLD_ZH, NEW_EN).conflict_low == 0.80
    assert base.pair_model is not None and base.pair_model.t_change == 0.99  # the shipped model is not touched


def test_shared_value_across_languages() -> None:
    assert cross.shares_value("周会固定每周二晚 8 点", "The weekly meeting moves to Wednesday 8pm.")  # 8 点 / 8pm
    assert cross.crosses(OLD_ZH, NEW_EN) and not cross.crosses(NEW_EN, FOLLOW_UP)


def test_value_change_reads_one_value_said_anew() -> None:
    why = cross.value_change(OLD_ZH, NEW_EN)
    assert why is not None and "1450" in why and "1390" in why
    assert cross.value_change(OLD_ZH, FOLLOW_UP) is None  # no change said
    assert cross.value_change("AP-3 dealer price is EUR 1,450.", NEW_EN) is None  # one script: the rules read it
    assert cross.value_change("AP-3 经销商价 1450 欧元，零售价 1990 欧元。", NEW_EN) is None  # two values moved


def test_main_reads_the_cross_language_price_change_as_another_subject(base: HygieneThresholds) -> None:
    # what the value reading was for: main's rules cannot align the words across scripts (r32 m009 / m080, 0.853)
    assert classify(OLD_ZH, NEW_EN, 0.853, base).label != "override"
