"""The judge's reading of a cross-script pair (`write.cross_band`, issue 10, round 35b): its band, its change
threshold and the value reading across languages. Lexical: no embedder (cosines are given)."""

from __future__ import annotations

import pytest

from hindsight.write import cross_band
from hindsight.write.judge import classify
from hindsight.write.thresholds import HygieneThresholds

OLD_ZH = "AP-3 自动舵欧洲经销商价定为 1450 欧元（不含税），建议零售价 1890 欧元。"
NEW_EN = "AP-3 dealer price drops to EUR 1,390 from September to counter Raymarine's promotion. RRP stays at EUR 1,890."
FOLLOW_UP = "AP-3 dealer training day in Hamburg went well; 14 dealers came, two asked for demo units."


@pytest.fixture
def thresholds() -> HygieneThresholds:
    return HygieneThresholds.default()


def test_band_off_is_the_english_band(thresholds: HygieneThresholds) -> None:
    assert cross_band.CONFLICT_LOW is None
    assert cross_band.band_for(OLD_ZH, NEW_EN, thresholds) == thresholds.for_pair(OLD_ZH, NEW_EN)


def test_band_lowered_for_a_cross_pair_that_shares_a_value(thresholds: HygieneThresholds,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cross_band, "CONFLICT_LOW", 0.82)
    assert cross_band.band_for(OLD_ZH, NEW_EN, thresholds).conflict_low == 0.82
    same = "AP-3 dealer price is EUR 1,450 before tax."
    assert cross_band.band_for(same, NEW_EN, thresholds).conflict_low == thresholds.en.conflict_low
    nothing_shared = "周会改到周三下午。"
    assert not cross_band.shares_value(nothing_shared, "The canteen opens at noon.")
    assert cross_band.band_for(nothing_shared, "The canteen opens at noon.", thresholds).conflict_low == 0.84
    monkeypatch.setattr(cross_band, "NEEDS_VALUE", False)
    assert cross_band.band_for(nothing_shared, "The canteen opens at noon.", thresholds).conflict_low == 0.82


def test_band_under_the_floor_is_a_typed_error(thresholds: HygieneThresholds, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cross_band, "CONFLICT_LOW", 0.7)
    with pytest.raises(ValueError, match="CONFLICT_LOW"):
        cross_band.band_for(OLD_ZH, NEW_EN, thresholds)


def test_shared_value_across_languages() -> None:
    assert cross_band.shares_value("周会固定每周二晚 8 点", "The weekly meeting moves to Wednesday 8pm.")  # 8 点 / 8pm
    assert cross_band.crosses(OLD_ZH, NEW_EN) and not cross_band.crosses(NEW_EN, FOLLOW_UP)


def test_value_change_reads_one_value_said_anew() -> None:
    why = cross_band.value_change(OLD_ZH, NEW_EN)
    assert why is not None and "1450" in why and "1390" in why
    assert cross_band.value_change(OLD_ZH, FOLLOW_UP) is None  # no change said
    assert cross_band.value_change("AP-3 dealer price is EUR 1,450.", NEW_EN) is None  # one script: the rules read it
    two_left = "AP-3 经销商价 1450 欧元，零售价 1990 欧元。"
    assert cross_band.value_change(two_left, NEW_EN) is None  # two values moved: not one attribute said anew


def test_model_change_threshold_only_across_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert cross_band.model_change_holds(OLD_ZH, NEW_EN, 0.991)
    monkeypatch.setattr(cross_band, "CHANGE_P", 0.995)
    assert not cross_band.model_change_holds(OLD_ZH, NEW_EN, 0.991)
    assert cross_band.model_change_holds(OLD_ZH, NEW_EN, 0.996)
    assert cross_band.model_change_holds(NEW_EN, FOLLOW_UP, 0.991)


def test_classify_reads_the_value_change_when_on(thresholds: HygieneThresholds,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert classify(OLD_ZH, NEW_EN, 0.853, thresholds).label != "override"  # main: "about a different subject"
    monkeypatch.setattr(cross_band, "VALUE_CHANGE", True)
    verdict = classify(OLD_ZH, NEW_EN, 0.853, thresholds)
    assert verdict.label == "override" and "across languages" in verdict.reason
    assert classify(OLD_ZH, NEW_EN, 0.79, thresholds).label != "override"  # under the hygiene floor: not judged
    assert classify(OLD_ZH, FOLLOW_UP, 0.853, thresholds).label != "override"
