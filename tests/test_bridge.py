"""A question that asks by role: the names its best hits give bridge to the answer (`retrieval/bridge.py`, issue 10
round 30, off by default). Examples written for this test."""

from __future__ import annotations

from currency_hits import hit, unit

from hindsight.config import RetrievalSettings
from hindsight.retrieval.bridge import bridge_names, holds, place

QUESTION = "Why is the night-shift lab supervisor never at the Monday stand-up?"
HEAD = [("h1", "Ingrid Vale supervises the night shift in the assay lab and signs off the batch log."),
        ("h2", "The Monday stand-up starts at 9:00 in room B; Oskar keeps the notes.")]


def test_names_come_from_the_best_hits_and_not_from_the_question() -> None:
    assert bridge_names(QUESTION, HEAD) == [("Ingrid Vale", "h1"), ("Oskar", "h2")]
    assert bridge_names("What does Oskar bring to the stand-up?", HEAD) == [("Ingrid Vale", "h1")]
    assert holds("Ingrid sleeps until noon after a night shift.", "Ingrid Vale")
    assert not holds("Ingridient lists are on the wall.", "Ingrid Vale")


def test_the_enriched_search_places_a_memory_holding_a_bridge_name_last_in_the_head() -> None:
    hits = [hit(m, "x", k) for k, m in enumerate(["h1", "h2", "a", "b", "c", "d"])]
    texts = {"ans": "Ingrid sleeps until noon after a night shift.", "h1": HEAD[0][1], "other": "Canteen menu."}
    vectors = {"c": unit(0, 1, 0)}
    vector = unit(1, 0, 0)
    made = hit("ans", texts["ans"], 9)

    def make(mid: str, via: str, found):  # type: ignore[no-untyped-def]
        (found or made).why.bridged_by = via
        return found or made

    names = bridge_names(QUESTION, HEAD)
    out = place(hits, 5, [("h1", 0.9), ("other", 0.85), ("ans", 0.8)], lambda h: h.memory.id, texts.get, names,
                vector, vectors.get, make)
    assert [h.memory.id for h in out] == ["h1", "h2", "a", "b", "ans", "c", "d"] and made.why.bridged_by == "h1"
    # the hit it would displace is closer to the enriched question: nothing moves
    vectors["c"] = unit(1, 0, 0)
    same = place(hits, 5, [("ans", 0.8)], lambda h: h.memory.id, texts.get, names, vector, vectors.get, make)
    assert same == hits
    # already below the head: moved up, not made again
    below = [*hits[:5], hit("ans", texts["ans"], 7)]
    moved = place(below, 5, [("ans", 0.99)], lambda h: h.memory.id, texts.get, names, vector, {}.get, make)
    assert [h.memory.id for h in moved] == ["h1", "h2", "a", "b", "ans", "c"] and moved[4] is below[5]


def test_off_by_default() -> None:
    assert RetrievalSettings().bridge_slot == 0
