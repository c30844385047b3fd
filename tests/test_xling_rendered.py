"""Issue 10, round 24: a question reaches an answer in the other script through its dictionary rendering, searched
densely.

On blind round 22 the English answer to 上环店在外卖平台上能点手冲吗 ("Sheung Wan is on Foodpanda ... no pour-over")
was 35th in the cross-lingual lane and 31st fused: the question's own vector ranks every Chinese memory first, and
BM25 over the glossed words meets none of the answer's words. Its rendering, "delivery home meal platform provide
takeout terrace", embedded as a query, puts the answer first among the English memories. The `rendered` channel
(`retrieval/rendered.py`) is that search. A small deterministic embedder places the question, its rendering and the
memories (the channel is what is tested, not the model); the store is a real engine on a real SQLite file with
hygiene off; the learned mixed-pool order is off (its model was fitted on real cosines).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from xling_store import open_mixed

from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import xling_rerank
from hindsight.retrieval.rendered import rendered_ranked, rendering
from hindsight.retrieval.search import ALL_CHANNELS, SearchOptions

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ZH_QUERY = "上环店在外卖平台上能点手冲吗？"
EN_QUERY = "Which oat milk are the cafés using now?"
ANSWER_EN = "Sheung Wan is on Foodpanda from 12 October: espresso drinks and cold brew only, no pour-over."
ANSWER_ZH = "三家店统一换成本地牌子山禾，便宜一些，打泡稳定性差不多。"
# memories the question's own vector puts closer than either answer; none shares a dictionary word with a question
ZH = {f"第{i}号文件柜的钥匙在行政处，借用要登记。": 0.80 - i * 0.004 for i in range(60)}
EN = {f"Note {i}: the {w} rota for week {i} is unchanged.": 0.62 - i * 0.002
      for i, w in enumerate(["lunch", "parking", "mail", "kitchen", "badge", "desk"] * 4)}
COS = {**ZH, **EN, ANSWER_EN: 0.2, ANSWER_ZH: 0.2}
NOW = T0 + timedelta(days=30)


class Placed(Embedder):
    """Each question on the first axis, each question's rendering on the fourth; an answer close to its question's
    rendering (0.9) and far from the question (0.2); any other text at its `COS` to the questions."""

    name = "rendered-test"
    dim = 4

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        renderings = {rendering(ZH_QUERY), rendering(EN_QUERY)}
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in (ZH_QUERY, EN_QUERY):
                out[row, 0] = 1.0
            elif text in renderings:
                out[row, 3] = 1.0
            elif text in (ANSWER_EN, ANSWER_ZH):
                out[row] = (0.2, 0.0, 0.39, 0.9)
            else:
                c = COS.get(text, 0.1)
                out[row, 0], out[row, 1 + len(text) % 2] = c, np.sqrt(1 - c * c)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:
    engine, ids, settings = open_mixed(tmp_path_factory.mktemp("rendered") / "t.db", Placed(),
                                       [*ZH, *EN, ANSWER_EN, ANSWER_ZH], T0)
    # off by default (measured, not shipped: docs/benchmarks.md "Retrieval, round 24"); on here to test the channel
    settings.retrieval.rendered_weight = settings.retrieval.reverse_rendered_weight = 0.4
    yield engine, ids
    engine.close()


def fused_place(engine: MemoryEngine, query: str, mid: str, channels: set[str]) -> tuple[int | None, list[str]]:
    """`mid`'s 1-based place in the fused first pass (None when no channel found it) and the rendered channel's
    ids."""
    first, _, _ = engine.retriever.first_pass(query, engine._scope("default", None), 5, NOW,
                                              SearchOptions(channels=channels))
    order = sorted(first.fused, key=lambda m: -first.fused[m])
    return order.index(mid) + 1 if mid in order else None, [m for m, _ in first.scored.get("rendered", [])]


@pytest.mark.parametrize(("query", "answer"), [(ZH_QUERY, ANSWER_EN), (EN_QUERY, ANSWER_ZH)])
def test_the_rendering_finds_the_other_script_answer_first(mixed: tuple[MemoryEngine, dict[str, str]], query: str,
                                                          answer: str) -> None:
    engine, ids = mixed
    place, rendered = fused_place(engine, query, ids[answer], set(ALL_CHANNELS))
    without, none = fused_place(engine, query, ids[answer], set(ALL_CHANNELS) - {"rendered"})
    assert rendered[0] == ids[answer]
    assert none == []
    # the channel's vote lifts it in the fused order the learned order reads, or brings it in at all
    assert place is not None and (without is None or place < without)


def test_a_mixed_pool_model_may_read_the_rendered_rank(tmp_path: Path) -> None:
    cand = {"group": "en", "text": ANSWER_EN, "cos": 0.3, "rendered_rank": 2}
    row = xling_rerank.features_of(ZH_QUERY, "zh", cand, 7)
    assert row[xling_rerank.FEATURES.index("rendered_rrank")] == 0.5
    columns = [*xling_rerank.FEATURES, *xling_rerank.DERIVED]
    assert xling_rerank.expand([row])[0][columns.index("rendered_rrank_zh")] == 0.5  # a Chinese question's split
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"features": ["cos", "rendered_rrank", "rendered_rrank_zh"], "coef": [0.0, 1.0, 1.0],
                                "intercept": 0.0, "mean": [0.0] * 3, "scale": [1.0] * 3}), encoding="utf-8")
    model = xling_rerank.load(path)  # a model naming the columns loads (a refit may read them)
    assert model is not None
    assert model.score(xling_rerank.expand([row])[0]) == 1.0
    assert xling_rerank.model() is not None  # the shipped model, which does not name them, still loads


def test_rendered_ranked_keeps_the_other_script_only() -> None:
    asked: list[str] = []

    def embed(text: str) -> np.ndarray:
        asked.append(text)
        return np.ones(4, dtype=np.float32)

    texts = {"zh": "外卖平台", "en": "Foodpanda delivery", "en2": "Room booking"}
    found = [("zh", 0.9), ("en", 0.8), ("gone", 0.7), ("en2", 0.6)]
    got = rendered_ranked(ZH_QUERY, embed, lambda v: found, lambda ids: {m: texts[m] for m in ids if m in texts})
    assert got == [("en", 0.8), ("en2", 0.6)]
    assert asked == [rendering(ZH_QUERY)]
    assert {"delivery", "takeout", "platform"} <= set(asked[0].split())
    texts["zh2"] = "燕麦奶"
    got = rendered_ranked(EN_QUERY, embed, lambda v: [("en", 0.9), ("zh2", 0.5)], lambda ids: texts)
    assert got == [("zh2", 0.5)]
    assert "燕麦" in asked[-1]


def test_a_question_without_dictionary_words_is_not_searched() -> None:
    asked: list[str] = []
    assert rendering("Zxqv?") == ""
    assert rendered_ranked("Zxqv?", lambda t: asked.append(t) or np.ones(4), lambda v: [("a", 1.0)],
                           lambda ids: {"a": "某某"}) == []
    assert asked == []
