"""Issue 10, round 17: the learned mixed-pool order reads the Han characters a Chinese question shares with a Chinese
memory, not only the jieba words.

A Chinese paraphrase often shares characters but no segmented word with its memory ("抽风的机器" / "排风扇",
r17/89): the words overlap was 0 for those pairs and the model had nothing in the text to
prefer them by. `han_chars` (the question's content characters found in the memory) and `han_bigrams` (its
adjacent character pairs) are read for same-script pairs only; an English pair and a cross-script pair read 0.
"""

from __future__ import annotations

from hindsight.retrieval import xling_rerank

BASE = {"dense_rank": 5, "dense_score": 0.02, "keyword_rank": None, "keyword_score": None, "crosslingual_rank": None,
        "gloss_rank": None, "fused": 0.3, "cos": 0.84}
QUERY = "厨房顶上那台抽风的机器还能坚持多久？"
ANSWER = "排风扇昨天又响了，钱师傅换了轴承，说这台最多再撑一年，明年预算里要留钱换。"
OTHER_ZH = "中央厨房的洗碗机加热管坏了，配件要等十天，这段时间托盘先手洗。"
EN = "Hot weather rule: once the kitchen passes 30°C, bakers take a ten-minute break every hour."


def row(query: str, group: str, text: str, cand_group: str) -> dict[str, float]:
    values = xling_rerank.features_of(query, group, {**BASE, "group": cand_group, "text": text}, 1)
    return dict(zip(xling_rerank.FEATURES, values))


def test_shared_characters_count_where_no_word_is_shared() -> None:
    answer = row(QUERY, "zh", ANSWER, "zh")
    assert answer["words_same"] == 0.0  # no jieba word in common
    assert answer["han_chars"] > 0.0  # 风, 台 ...
    assert 0.0 <= answer["han_bigrams"] <= answer["han_chars"] <= 1.0
    assert row(QUERY, "zh", OTHER_ZH, "zh")["han_bigrams"] > 0.0  # 厨房: a shared pair


def test_function_characters_and_other_scripts_read_zero() -> None:
    assert row("这个是什么？", "zh", "那个是我的吗", "zh")["han_chars"] == 0.0  # only grammar in common
    cross = row(QUERY, "zh", EN, "en")
    assert cross["han_chars"] == 0.0 and cross["han_bigrams"] == 0.0
    english = row("How long will the extractor fan last?", "en", EN, "en")
    assert english["han_chars"] == 0.0 and english["han_bigrams"] == 0.0


def test_the_shipped_model_reads_them() -> None:
    xling_rerank.model.cache_clear()
    fitted = xling_rerank.model()
    assert fitted is not None  # the file was refitted for these features
    names = [*xling_rerank.FEATURES, *xling_rerank.DERIVED]
    assert fitted.coef[names.index("han_chars")] != 0.0 or fitted.coef[names.index("han_bigrams")] != 0.0
