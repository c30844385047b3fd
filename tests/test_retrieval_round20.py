"""Issue 10 / 14, round 20 (branch retr20): the read side of retrieval.

* A time window parsed from the question that holds none of the strong text matches lets the best in, and says so (round 19: "a photo day during the second week of December" kept only the five newest memories and
  dropped the answer written in July; `retrieval/time_window.py`).
* The head of a result does not depend on `top_k` (round 19: three answers ranked 1-3 with `top_k=50` and were
  absent with `top_k=5`: the widening test read `top_k`): whether a window widens depends on the internal depth, and
  a window with enough for the depth but fewer than `top_k` keeps its own memories first, in their own order.
* CC-CEDICT read the other way round for an English question (`bilingual.parse_reverse`, `glossmatch.reverse_ranked`).

A deterministic bag-of-words embedder: the filter logic is what is tested, not the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.retrieval import bilingual, time_window
from hindsight.retrieval.glossmatch import reverse_ranked
from hindsight.storage.base import Scope

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
ANSWER = "Maya teaches an avalanche course at Rogers Pass Dec 5-12, so no photo shoots with our ski mountaineer that week."
TOPIC = [  # older, and weaker matches than the answer
    "The Whistler hero shot from the summer is on the shared drive.",
    "Signed another season with the Squamish climbing team.",
]
NEWEST = [  # written in the last days before the question: inside a padded December window
    "Warehouse count for the year-end audit is booked.",
    "The courier contract renews automatically on the first of January.",
    "Office plants need watering twice a week over the holidays.",
    "New hangtag stock arrived from the print shop.",
    "The team lunch moved to the noodle place downstairs.",
    "Year-end invoices go out on the fifteenth.",
    "The loading dock closes at four on Fridays.",
    "Sample sale leftovers went to the Vancouver food bank.",
    "The label printer needs a new ribbon.",
    "Payroll runs a day early because of the holiday.",
    "The shop floor heater was serviced.",
]
QUESTION = "Could we get our ski mountaineer for a photo day during the second week of December?"


@pytest.fixture
def studio(tmp_path) -> Iterator[tuple[MemoryEngine, str]]:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True, dim=256))
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


@pytest.mark.parametrize("strong", [1, 3, 0])
def test_the_head_of_a_result_does_not_depend_on_top_k(studio: tuple[MemoryEngine, str], strong: int) -> None:
    engine, _ = studio
    engine.settings.retrieval.time_filter_strong = strong
    longest = [h.memory.id for h in engine.search(QUESTION, top_k=50, now=NOW)]
    for k in (2, 5, 8, 10, 11, 12, 20):
        assert [h.memory.id for h in engine.search(QUESTION, top_k=k, now=NOW)] == longest[:k], k


def test_a_window_with_enough_for_the_depth_keeps_its_memories_first(studio: tuple[MemoryEngine, str]) -> None:
    engine, answer = studio
    engine.settings.retrieval.time_filter_strong = 0  # the window filters: eleven memories, fewer than 20 asked for
    assert all(h.why.time_filter_widened is False for h in engine.search(QUESTION, top_k=10, now=NOW))
    hits = engine.search(QUESTION, top_k=20, now=NOW)
    assert {h.memory.content for h in hits[:11]} == set(NEWEST), "the padded window's eleven memories first"
    assert answer in [h.memory.id for h in hits[11:]]
    assert all(h.why.time_filter_widened is True for h in hits)


def test_a_window_under_the_depth_widens_whatever_top_k(studio: tuple[MemoryEngine, str]) -> None:
    engine, answer = studio
    engine.settings.retrieval.time_filter_strong = 0
    engine.settings.retrieval.result_depth = 12  # eleven memories in the window: fewer than the depth
    for k in (2, 5, 12):
        hits = engine.search(QUESTION, top_k=k, now=NOW)
        assert all(h.why.time_filter_widened is True for h in hits), k


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
    assert time_window.split(["x", "a", "y", "b"], held, str) == (["a", "b"], ["x", "y"])
    assert time_window.split(["x", "a"], None, str) == (["x", "a"], [])
    fused = time_window.below({"a": 0.6, "b": 0.2}, {"x": 1.0, "a": 0.9, "y": 0.5})
    assert sorted(fused, key=lambda mid: -fused[mid]) == ["a", "b", "x", "y"] and fused["a"] == 0.6


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
