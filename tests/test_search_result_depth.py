"""Issue 10, round 19: a search's first results do not depend on how many were asked for.

Before, every stage that placed hits read top_k: `keep_dense_best` moved the dense channel's best into the last place
of the first top_k, the currency window was 2 x top_k, the filter widening counted top_k. A top_k=5 search could then
hold a memory a top_k=10 search ranked 8th (round 18: two answers in the top 5 of a top_k=50 search were absent from
the top_k=5 one). Now the stages read one depth, max(top_k, `result_depth`), and a fixed head for the dense slot
(`dense_slot_head`), and the list is cut to top_k last.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError
from test_search_dense_slot import EN, EN_ANSWER, EN_QUERY, ZH, ZH_ANSWER, ZH_QUERY
from xling_store import open_mixed

from hindsight.config import RetrievalSettings
from hindsight.embeddings.base import Embedder

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("texts", "query", "answer"), [(EN, EN_QUERY, EN_ANSWER), (ZH, ZH_QUERY, ZH_ANSWER)],
                         ids=["en", "zh"])
def test_a_short_result_is_the_head_of_a_longer_one(tmp_path: Path, embedder: Embedder, texts: list[str],
                                                    query: str, answer: str) -> None:
    engine, ids, _ = open_mixed(tmp_path / "m.db", embedder, texts, T0)
    try:
        longest = [hit.memory.id for hit in engine.search(query, top_k=10)]
        for k in range(1, 10):
            assert [hit.memory.id for hit in engine.search(query, top_k=k)] == longest[:k], k
        assert ids[answer] in longest[:5]  # the dense slot's place is in the head, whatever top_k asks for
    finally:
        engine.close()


def test_the_head_holds_for_a_deeper_depth_too(tmp_path: Path, embedder: Embedder) -> None:
    engine, _, settings = open_mixed(tmp_path / "m.db", embedder, EN, T0)
    try:
        settings.retrieval.result_depth = 16
        longest = [hit.memory.id for hit in engine.search(EN_QUERY, top_k=16)]
        assert [hit.memory.id for hit in engine.search(EN_QUERY, top_k=7)] == longest[:7]
    finally:
        engine.close()


def test_depth_and_head_are_validated() -> None:
    with pytest.raises(ValidationError, match="result_depth"):
        RetrievalSettings(result_depth=0)
    with pytest.raises(ValidationError, match="dense_slot_head"):
        RetrievalSettings(dense_slot_head=0)
