"""Issue 10, round 16: an English question reaches a Chinese memory in a store where English memories outnumber the
dense pool.

The multilingual model scores English memories above Chinese ones for an English question, as it scores Chinese
above English for a Chinese one: in the released rounds' English -> Chinese misses the right Chinese memory was the
first to fifth Chinese memory but sat at raw dense rank 52-99, below the 50-deep pool, so it never reached the
cross-lingual lane. The search used to deepen the pool for a Chinese question only; an English question's
cross-lingual and gloss lanes now read a pool twice as deep (its dense channel still ranks the usual 50). A small
deterministic embedder sets each text's cosine to the question (the pool logic is what is tested, not the model);
the store is a real engine on a real SQLite file with hygiene off. The learned mixed-pool order is off here: its
model was fitted on real cosines, which these are not.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from xling_store import SetCosine, open_mixed

from hindsight.engine import MemoryEngine
from hindsight.retrieval.search import SearchOptions

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
QUERIES = {"Which vendor fixes the air conditioning?": "en", "空调坏了找哪家公司修？": "zh"}

# 90 English memories the embedder puts closer to either question than any Chinese memory; no shared words
EN = {f"Note {i}: the {w} rota for week {i} is unchanged.": 0.84 - i * 0.0004
      for i, w in enumerate(["lunch", "parking", "mail", "kitchen", "badge", "desk"] * 15)}
ANSWER_ZH = "机房空调由恒温公司维保，报修电话在前台。"
ZH = {ANSWER_ZH: 0.79, **{f"第{i}号文件柜的钥匙在行政处。": 0.74 - i * 0.002 for i in range(20)}}
COS = {**EN, **ZH}


@pytest.fixture(scope="module")
def english_heavy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:
    db = tmp_path_factory.mktemp("enpool") / "e.db"
    engine, ids, settings = open_mixed(db, SetCosine(QUERIES, COS), [*EN, *ZH], T0)
    assert len(EN) > settings.retrieval.dense_candidates  # English alone fill a 50-deep pool
    yield engine, ids
    engine.close()


def test_english_question_reaches_the_best_chinese_memory(english_heavy: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = english_heavy
    hits = engine.search("Which vendor fixes the air conditioning?", top_k=5, now=T0 + timedelta(days=30),
                         options=SearchOptions(xling_rerank=False))
    assert ids[ANSWER_ZH] in [h.memory.id for h in hits]
    best = next(h for h in hits if h.memory.id == ids[ANSWER_ZH])
    assert best.why.crosslingual_rank == 1


def test_chinese_question_pool_unchanged(english_heavy: tuple[MemoryEngine, dict[str, str]]) -> None:
    engine, ids = english_heavy
    hits = engine.search("空调坏了找哪家公司修？", top_k=5, now=T0 + timedelta(days=30), options=SearchOptions(xling_rerank=False))
    assert ids[ANSWER_ZH] in [h.memory.id for h in hits]
