"""Issue 10 / 14, round 20 (branch retr20): the read side of retrieval.

* A time window parsed from the question that holds none of the strong text matches lets them in, and says so (round 19: "a photo day during the second week of December" kept only the five newest memories and
  dropped the answer written in July; `retrieval/time_window.py`).
* The head of a result does not depend on `top_k`: a window that holds fewer memories than asked for keeps its own
  memories first, in the order the window alone gives them (round 19: three answers ranked 1-3 with `top_k=50` and
  were absent with `top_k=5`: the widening test read `top_k`).
* CC-CEDICT read the other way round for an English question (`bilingual.parse_reverse`, `glossmatch.reverse_ranked`).

A deterministic bag-of-words embedder: the filter logic is what is tested, not the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import bilingual, time_window
from hindsight.retrieval.glossmatch import reverse_ranked
from hindsight.storage.base import Scope

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
ANSWER = "Maya teaches an avalanche course at Rogers Pass Dec 5-12, so no photo shoots with our ski mountaineer that week."
TOPIC = [
    "Whistler photo shoot with our ski mountaineer went well; the hero shot is on the drive.",
    "Our ski mountaineer signed for another season of photo days.",
]
NEWEST = [  # written in the last days before the question: inside a padded December window
    "Warehouse count for the year-end audit is booked.",
    "The courier contract renews automatically on the first of January.",
    "Office plants need watering twice a week over the holidays.",
    "New hangtag stock arrived from the print shop.",
    "The team lunch moved to the noodle place downstairs.",
    "Year-end invoices go out on the fifteenth.",
]
QUESTION = "Could we get our ski mountaineer for a photo day during the second week of December?"


class _Words(Embedder):
    """Deterministic bag-of-words vectors (hashing lower-cased words into 256 buckets)."""

    name = "words-test"
    dim = 256

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        out = np.full((len(texts), self.dim), 1e-3, dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[row, sum(map(ord, word)) % self.dim] += 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture
def studio(tmp_path) -> Iterator[tuple[MemoryEngine, str]]:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=_Words())
    engine.writer.hygiene = None
    answer = engine.store_memory({"content": ANSWER, "event_time": datetime(2026, 7, 26, tzinfo=UTC)}).memory_id
    for i, text in enumerate(TOPIC):
        engine.store_memory({"content": text, "event_time": datetime(2026, 8, 3 + i, tzinfo=UTC)})
    for i, text in enumerate(NEWEST):
        engine.store_memory({"content": text, "event_time": NOW - timedelta(days=2, hours=i)})
    yield engine, answer
    engine.close()


def test_a_window_without_the_strong_matches_lets_them_in(studio: tuple[MemoryEngine, str]) -> None:
    engine, answer = studio
    hits = engine.search(QUESTION, top_k=5, now=NOW)
    assert answer in [h.memory.id for h in hits], "the window held only the newest memories and dropped the answer"
    assert all(h.why.time_filter and h.why.time_filter_widened is True for h in hits), "the result says so"
    engine.settings.retrieval.time_filter_strong = 0
    hard = engine.search(QUESTION, top_k=5, now=NOW)
    assert answer not in [h.memory.id for h in hard], "with the rule off the parsed window filters"
    assert all(h.why.time_filter_widened is False for h in hard)


@pytest.mark.parametrize("strong", [3, 0])
def test_the_head_of_a_result_does_not_depend_on_top_k(studio: tuple[MemoryEngine, str], strong: int) -> None:
    engine, _ = studio
    engine.settings.retrieval.time_filter_strong = strong
    longest = [h.memory.id for h in engine.search(QUESTION, top_k=50, now=NOW)]
    for k in (2, 5, 8, 10, 20):
        assert [h.memory.id for h in engine.search(QUESTION, top_k=k, now=NOW)] == longest[:k], k


def test_a_widened_window_keeps_its_own_memories_first(studio: tuple[MemoryEngine, str]) -> None:
    engine, answer = studio
    engine.settings.retrieval.time_filter_strong = 0  # the window filters: six memories, fewer than ten asked for
    hits = engine.search(QUESTION, top_k=10, now=NOW)
    assert {h.memory.content for h in hits[:6]} == set(NEWEST), "the padded window's six memories first"
    assert answer in [h.memory.id for h in hits[6:]]
    assert all(h.why.time_filter_widened is True for h in hits)


def test_strong_outside_reads_the_best_unfiltered_memories() -> None:
    window = Scope(namespace="n", time_from=datetime(2026, 12, 1, tzinfo=UTC), time_to=datetime(2027, 1, 1, tzinfo=UTC))
    times = {"a": datetime(2026, 7, 1, tzinfo=UTC), "b": datetime(2026, 12, 3, tzinfo=UTC),
             "c": datetime(2026, 8, 1, tzinfo=UTC)}
    fused = {"a": 1.0, "c": 0.8, "b": 0.5}

    def when(ids):  # type: ignore[no-untyped-def]
        return {mid: times[mid] for mid in ids}

    assert time_window.strong_outside(fused, when, window, set(), 2) == {"a", "c"}, "both outside"
    assert not time_window.strong_outside(fused, when, window, set(), 3), "b is inside"
    assert not time_window.strong_outside(fused, when, window, {"c"}, 2), "c was admitted by what it tells"
    assert not time_window.strong_outside(fused, when, window, set(), 0), "0 turns the rule off"
    assert not time_window.strong_outside({}, when, window, set(), 3)


def test_admit_merges_the_strong_ones_by_score() -> None:
    narrow = {"dense": [("a", 0.6), ("b", 0.5)], "keyword": [("b", 3.0)]}
    wide = {"dense": [("x", 0.95), ("z", 0.7), ("a", 0.6)], "keyword": [("y", 4.0), ("b", 3.0)]}
    assert time_window.admit(narrow, wide, frozenset({"x", "y"})) == {
        "dense": [("x", 0.95), ("a", 0.6), ("b", 0.5)], "keyword": [("y", 4.0), ("b", 3.0)]}


def test_fill_keeps_window_ranks_and_appends_the_rest() -> None:
    narrow = {"dense": [("a", 0.9), ("b", 0.5)], "keyword": [("b", 3.0)]}
    wide = {"dense": [("x", 0.95), ("a", 0.9), ("b", 0.5)], "keyword": [("y", 4.0), ("b", 3.0)]}
    scored, held = time_window.fill(narrow, wide)
    assert held == {"a", "b"}
    assert scored == {"dense": [("a", 0.9), ("b", 0.5), ("x", 0.95)], "keyword": [("b", 3.0), ("y", 4.0)]}
    assert time_window.window_first(["x", "a", "y", "b"], held, str) == ["a", "b", "x", "y"]
    assert time_window.window_first(["x", "a"], None, str) == ["x", "a"]


CEDICT = """# a few CC-CEDICT lines
東莞 东莞 [Dong1 guan3] /Dongguan prefecture-level city in Guangdong/
樣品 样品 [yang4 pin3] /sample/specimen/
羊毛 羊毛 [yang2 mao2] /fleece/wool/woolen/
毛病 毛病 [mao2 bing4] /fault/defect/shortcoming/
缝线 缝线 [feng2 xian4] /sewing thread/
內容 内容 [nei4 rong2] /content/substance/details/
東西 东西 [dong1 xi5] /thing/stuff/person/
"""


def test_parse_reverse_keeps_short_senses_and_pinyin_of_proper_nouns() -> None:
    table = bilingual.parse_reverse(CEDICT)
    assert table["dongguan"] == ("东莞",), "a proper noun by its toneless pinyin"
    assert table["sample"] == ("样品",) and table["fleece"] == ("羊毛",) and table["defect"] == ("毛病",)
    assert "sewing" in table and "thread" in table, "a sense of two words names both"
    assert "prefecture-level" not in table and "city" not in table, "a long sense names none of its words"


def test_reverse_ranked_keeps_chinese_hits_of_an_english_question(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bilingual, "_reverse", bilingual.parse_reverse(CEDICT))
    asked: list[list[str]] = []
    texts = {"zh": "东莞的样品肩带车线有毛病", "en": "The Dongguan sample had a defect"}

    def search(terms: list[str]) -> list[tuple[str, float]]:
        asked.append(terms)
        return [("en", 3.0), ("zh", 2.0)]

    got = reverse_ranked("What defect did the Dongguan sample have?", search, lambda ids: {i: texts[i] for i in ids})
    assert got == [("zh", 2.0)], "English memories are left to the keyword channel"
    assert asked == [["东莞", "样品", "毛病"]]
    assert reverse_ranked("东莞的样品有什么毛病？", search, lambda ids: texts) == [], "a Chinese question is not reversed"
