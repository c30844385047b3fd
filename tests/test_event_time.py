"""Memories written outside a query's time filter whose own text tells of the window (retrieval/event_time.py).

The pure functions use plain records (no model); the search test uses the real engine, embedder and SQLite file.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hindsight.config import HindsightSettings, RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.retrieval import event_time
from hindsight.retrieval.query_parser import parse_query
from hindsight.storage.base import Scope

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
APRIL_18 = datetime(2026, 4, 18, 15, 0, tzinfo=UTC)


def _record(mid: str, text: str, when: datetime) -> MemoryRecord:
    return MemoryRecord(id=mid, content=text, event_time=when)


def test_told_time_reads_the_text_from_when_it_was_written() -> None:
    start, end = event_time.told_time(_record("a", "John: We went to a convention last month.", APRIL_18))
    assert start == datetime(2026, 3, 1, tzinfo=UTC) and end is not None and end.month == 4
    assert event_time.told_time(_record("b", "John: We went to a convention.", APRIL_18)) == (None, None), \
        "no time word: nothing parsed"
    assert event_time.told_time(_record("c", "We met in Paris last week.", APRIL_18))[0] \
        == datetime(2026, 4, 6, tzinfo=UTC), "a text without a speaker prefix is read whole"


def test_overlaps_the_querys_window_not_its_padding() -> None:
    march = parse_query("What did John attend in March 2026?", NOW)
    assert march.time_is_hard
    assert event_time.overlaps((datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)), march)
    assert not event_time.overlaps((datetime(2026, 4, 1, 1, tzinfo=UTC), datetime(2026, 4, 8, tzinfo=UTC)), march)
    assert not event_time.overlaps((None, None), march)
    assert event_time.overlaps((datetime(2026, 3, 20, tzinfo=UTC), None), march), "one end is a day"


def test_admit_keeps_only_outside_hits_that_tell_of_the_window_and_merge_orders_by_score() -> None:
    march = parse_query("What did John attend in March 2026?", NOW)
    narrowed = Scope(namespace="default", time_from=datetime(2026, 2, 26, tzinfo=UTC),
                     time_to=datetime(2026, 4, 15, tzinfo=UTC))
    records = {
        "told": _record("told", "John: My colleagues and I went to a convention last month.", APRIL_18),
        "plain": _record("plain", "John: My colleagues and I went to a convention.", APRIL_18),
        "inside": _record("inside", "John: I went to a convention last week.", datetime(2026, 3, 20, tzinfo=UTC)),
        "summer": _record("summer", "John: Last month we hiked.", datetime(2026, 8, 10, tzinfo=UTC)),
    }
    wide = {"dense": [("plain", 0.9), ("told", 0.8), ("inside", 0.7), ("summer", 0.6)],
            "keyword": [("told", 3.0)], "graph": [("told", 1.0)]}
    admitted = event_time.admit(march, narrowed, wide, lambda ids: {i: records[i] for i in ids}, depth=20)
    assert admitted == {"told"}, "no time word, already inside, or telling of July: not admitted"
    dense_only = {"dense": wide["dense"]}
    assert event_time.admit(march, narrowed, dense_only, lambda ids: {i: records[i] for i in ids}, depth=1) == set(), \
        "only each channel's best `depth` are read"
    scored = {"dense": [("inside", 0.85), ("x", 0.5)], "graph": [("x", 2.0)]}
    merged = event_time.merge(scored, wide, admitted)
    assert merged["dense"] == [("inside", 0.85), ("told", 0.8), ("x", 0.5)]
    assert merged["keyword"] == [("told", 3.0)] and merged["graph"] == [("x", 2.0)], "graph scores are not merged"
    assert event_time.merge(scored, wide, set()) is scored


def test_a_time_filter_admits_a_memory_that_tells_of_the_window_months_later(tmp_path: Path,
                                                                            embedder: Embedder) -> None:
    # the told admission alone: with time_filter_strong (round 20) the charity race, the best text match of the whole
    # store while the window holds none, would join as well (tests/test_retrieval_round20.py)
    settings = HindsightSettings(db=tmp_path / "t.db",
                                 retrieval=RetrievalSettings(record_access=False, time_filter_strong=0))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    try:
        march = datetime(2026, 3, 10, tzinfo=UTC)
        filler = ["I love the color blue.", "Work has been busy lately.", "My coffee machine broke today.",
                  "I think it will rain tomorrow.", "My phone battery keeps dying.", "I need to renew my passport.",
                  "The bakery on 5th street closed.", "My sister adopted a kitten.", "I started learning the guitar.",
                  "Our landlord fixed the heater.", "I finished a long novel.", "The gym changed its hours."]
        # twelve memories inside March: the narrowed scope holds more distinct memories than top_k, so the filter
        # is not widened (widening counts distinct memories since para17)
        engine.store_many([{"content": f"John: {text}", "event_time": march.isoformat()} for text in filler])
        told = engine.store_memory({"content": "John: My colleagues and I went to a tech convention last month!",
                                    "event_time": APRIL_18.isoformat()})
        plain = engine.store_memory({"content": "John: My colleagues and I ran a charity race together!",
                                     "event_time": APRIL_18.isoformat()})
        query = "What did John attend with his colleagues in March 2026?"
        hits = {h.memory.id: h for h in engine.search(query, top_k=10, now=NOW)}
        assert told.memory_id in hits, "written 18 April about 'last month': March"
        assert plain.memory_id not in hits, "an event with colleagues told without a time: outside the filter"
        assert hits[told.memory_id].why.in_time_filter is False, "in_time_filter still reads when it was written"
        engine.settings.retrieval.time_filter_told_depth = 0
        off = {h.memory.id for h in engine.search(query, top_k=10, now=NOW)}
        assert told.memory_id not in off, "off: the padded filter alone stops three days after the window"
    finally:
        engine.close()
