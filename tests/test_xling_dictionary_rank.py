"""Issue 10, round 23: the learned mixed-pool order reads the dictionary channel's rank.

Round 18 added the `translated` channel (a Chinese question's words glossed into English by CC-CEDICT, searched by
BM25; round 20 the other way for an English question), but `xling_rerank`, which re-orders a mixed-script pool's
best 20, was fitted in round 17 and never saw it: an English answer the dictionary ranks first could be pushed out
of the top 5 by the order that ignores that vote (retr21: ZH->EN misses at translated rank 1-10, final rank 7-13).
Now the search hands `translated_rank` to the model, `features_of` reads it (`translated_rrank`, and its Chinese-
question split `translated_rrank_zh`) and the shipped model, refitted on the released rounds and two training
stores (`bench/rerank23_fit.py`), weighs it. A model file that names fewer columns (fitted before a feature existed)
still loads and reads the columns it names.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from test_xling_translated import ANSWER_EN, T0, ZH_QUERY, mixed  # noqa: F401  (the store fixture)

from hindsight.engine import MemoryEngine
from hindsight.retrieval import xling_rerank

NAMES = [*xling_rerank.FEATURES, *xling_rerank.DERIVED]


def test_the_search_hands_the_dictionary_rank_to_the_model(mixed: tuple[MemoryEngine, dict[str, str]],  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    engine, ids = mixed
    seen: list[tuple[str, str, list[dict[str, Any]]]] = []
    reorder = xling_rerank.reorder

    def capture(query: str, group: str, cands: list[dict[str, Any]]) -> Any:
        seen.append((query, group, cands))
        return reorder(query, group, cands)

    monkeypatch.setattr(xling_rerank, "reorder", capture)
    engine.search(ZH_QUERY, top_k=5, now=T0 + timedelta(days=30))
    query, group, cands = seen[-1]
    answer = next(c for c in cands if c["id"] == ids[ANSWER_EN])
    assert answer["translated_rank"] == 1
    row = dict(zip(NAMES, xling_rerank.expand([xling_rerank.features_of(query, group, answer, 3)])[0]))
    assert row["translated_rrank"] == 1.0 and row["translated_rrank_zh"] == 1.0
    chinese = next(c for c in cands if c["id"] != ids[ANSWER_EN] and c["group"] == "zh")
    assert chinese.get("translated_rank") is None  # the channel keeps English memories only


def test_an_english_question_splits_the_dictionary_rank_apart() -> None:
    cand = {"group": "zh", "text": "补光灯和领夹麦在二号柜。", "translated_rank": 2, "cos": 0.8, "fused": 0.2}
    row = dict(zip(NAMES, xling_rerank.expand([xling_rerank.features_of("Where is the video light?", "en", cand,
                                                                        4)])[0]))
    assert row["translated_rrank"] == 0.5 and row["translated_rrank_zh"] == 0.0


def test_the_shipped_model_weighs_the_dictionary_rank() -> None:
    xling_rerank.model.cache_clear()
    fitted = xling_rerank.model()
    assert fitted is not None
    entry = json.loads(xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    assert "translated_rrank" in entry["features"] and "r21T20" in entry["rounds"]
    weight = dict(zip(entry["features"], fitted.coef))
    assert weight["translated_rrank"] + weight["translated_rrank_zh"] > 0.0


def test_a_model_of_fewer_columns_reads_the_ones_it_names(tmp_path: Path) -> None:
    names = ["cos", "keyword_rrank", "dense_gap"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"features": names, "coef": [1.0, 2.0, 3.0], "intercept": 0.5,
                                "mean": [0.8, 0.0, 0.0], "scale": [0.1, 1.0, 1.0]}), encoding="utf-8")
    old = xling_rerank.load(path)
    assert old is not None
    row = [0.0] * len(NAMES)
    row[NAMES.index("cos")], row[NAMES.index("keyword_rrank")], row[NAMES.index("dense_gap")] = 0.9, 0.5, -0.1
    assert old.score(row) == pytest.approx(0.5 + 1.0 + 1.0 - 0.3)
    path.write_text(json.dumps({"features": ["no_such_column"], "coef": [1.0], "intercept": 0.0, "mean": [0.0],
                                "scale": [1.0]}), encoding="utf-8")
    assert xling_rerank.load(path) is None
