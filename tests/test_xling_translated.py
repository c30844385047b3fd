"""Issue 10, round 18: a Chinese question reaches an English memory through its own words glossed into English.

In the released rounds a fifth of the ZH -> EN misses had the English answer outside the dense pool or far down the
cross-lingual lane (rank 11-38), while CC-CEDICT glosses of the question's words are the answer's own words
(机房 / 空调 -> "room", "air conditioner"). The translated channel (`glossmatch.translated_ranked`) searches BM25 over
those English words, English memories only, and votes by rank like the other channels. A small deterministic
embedder sets each text's cosine to the question (the channel is what is tested, not the model); the store is a real
engine on a real SQLite file with hygiene off. The learned mixed-pool order is off here: its model was fitted on real
cosines, which these are not.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from xling_store import SetCosine, open_mixed

from hindsight.engine import MemoryEngine
from hindsight.retrieval.glossmatch import translated_ranked, translated_terms
from hindsight.retrieval.search import SearchOptions

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ZH_QUERY = "机房的空调坏了找哪家公司修？"
EN_QUERY = "Who repairs the server room air conditioner?"
QUERIES = {ZH_QUERY, EN_QUERY}
ANSWER_EN = "The server room air conditioner is serviced by Coolbreeze Ltd; the call number is at the front desk."
# Chinese memories the embedder puts closer to the Chinese question than any English one; no shared words
ZH = {f"第{i}号文件柜的钥匙在行政处，借用要登记。": 0.80 - i * 0.004 for i in range(60)}
# English memories closer to the question than the answer; none shares a glossed word with it
EN = {f"Note {i}: the {w} rota for week {i} is unchanged.": 0.62 - i * 0.002
      for i, w in enumerate(["lunch", "parking", "mail", "kitchen", "badge", "desk"] * 4)}
COS = {**ZH, **EN, ANSWER_EN: 0.45}
CLOSED = SearchOptions(xling_rerank=False)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:
    engine, ids, _ = open_mixed(tmp_path_factory.mktemp("translated") / "t.db", SetCosine(QUERIES, COS),
                                [*ZH, *EN, ANSWER_EN], T0)
    yield engine, ids
    engine.close()


def test_chinese_question_reaches_the_english_answer_through_its_glossed_words(
        mixed: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = mixed
    hits = engine.search(ZH_QUERY, top_k=5, now=T0 + timedelta(days=30), options=CLOSED)
    assert ids[ANSWER_EN] in [h.memory.id for h in hits]
    found = next(h for h in hits if h.memory.id == ids[ANSWER_EN])
    assert found.why.translated_rank == 1


def test_without_the_channel_the_answer_stays_out(mixed: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = mixed
    channels = {"dense", "keyword", "graph", "crosslingual", "gloss"}
    hits = engine.search(ZH_QUERY, top_k=5, now=T0 + timedelta(days=30),
                         options=SearchOptions(xling_rerank=False, channels=channels))
    assert ids[ANSWER_EN] not in [h.memory.id for h in hits]


def test_an_english_question_is_not_translated(mixed: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, _ = mixed
    hits = engine.search(EN_QUERY, top_k=5, now=T0 + timedelta(days=30), options=CLOSED)
    assert all(h.why.translated_rank is None for h in hits)


def test_translated_ranked_keeps_english_memories_only() -> None:
    asked: list[list[str]] = []

    def search(terms: list[str]) -> list[tuple[str, float]]:
        asked.append(terms)
        return [("zh", 3.0), ("en", 2.0), ("gone", 1.5), ("en2", 1.0)]

    texts = {"zh": "空调维修公司电话", "en": "Air conditioner repairs: Coolbreeze", "en2": "Room booking"}
    got = translated_ranked(ZH_QUERY, search, lambda ids: {m: texts[m] for m in ids if m in texts})
    assert got == [("en", 2.0), ("en2", 1.0)]
    assert asked == [translated_terms(ZH_QUERY)]
    assert {"air", "conditioner", "room"} <= set(asked[0])
    assert translated_ranked(EN_QUERY, search, lambda ids: texts) == []
    assert len(asked) == 1  # an English question is never searched
