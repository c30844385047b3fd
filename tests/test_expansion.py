"""Query-side expansion from the best hits (retrieval/expansion.py; issue 14, round 38): which words it searches
for, how its list is fused, and that it is off by default. Logic only: no encoder."""

from __future__ import annotations

from hindsight.config import RetrievalSettings
from hindsight.retrieval.expansion import DEPTH, bridge_words, fuse_found, keep_speakers

POOL = [
    "John: I play basketball every weekend.",
    "Tim: Basketball sounds fun!",
    "John: Our season opener is next week, I'm the shooting guard.",
    "Tim: I read a fantasy book last night.",
    "John: Surfing with friends this summer was amazing.",
    "Tim: Harry Potter is my favourite.",
]


def test_bridge_words_leave_out_the_question_names_and_short_words() -> None:
    words = bridge_words(POOL[:1] + POOL[2:3], "What sports does John like besides basketball?", ["John"], POOL, 10)
    assert "basketball" not in words  # the question's own word
    assert "john" not in words  # a name the question asks about
    assert all(len(w) >= 3 and not w.isdigit() for w in words)
    assert {"season", "opener", "shooting", "guard"} <= set(words)


def test_bridge_words_prefer_words_rare_in_the_pool_and_used_by_several_hits() -> None:
    pool = POOL + ["Tim: every weekend I rest.", "John: every weekend is busy."]
    hits = ["John: I play chess every weekend.", "John: chess club on Monday."]
    words = bridge_words(hits, "What does John do?", ["John"], pool + hits, 10)
    assert words[0] == "chess"  # both hits use it, no other turn does
    assert words.index("weekend") > words.index("club")  # half the pool says "weekend"
    assert len(bridge_words(hits, "What does John do?", ["John"], pool + hits, 2)) == 2


def test_fuse_found_lifts_a_turn_both_lists_hold_and_keeps_the_tail() -> None:
    ordered = [f"m{i}" for i in range(DEPTH + 5)]
    fused = fuse_found(ordered, ["m12", "x1"], 0.5)
    assert fused.index("m12") < 12  # in both lists: moves up
    assert "x1" in fused[:DEPTH + 1]  # a turn only the expansion found joins the order
    assert fused[-5:] == ordered[DEPTH:]  # below the fused depth: the same order
    assert fuse_found(ordered, [], 0.5)[:DEPTH] == ordered[:DEPTH]


def test_off_by_default() -> None:
    assert RetrievalSettings().expansion_weight == 0.0


def test_keep_speakers_keeps_the_named_speakers_turns_in_order() -> None:
    from hindsight.model import MemoryRecord

    records = {f"m{i}": MemoryRecord(content=text) for i, text in enumerate(POOL)}
    assert keep_speakers(["m4", "m1", "m0", "gone"], records, {"john"}) == ["m4", "m0"]


def test_bridge_words_break_ties_by_first_use() -> None:
    """Equal rarity: the order the hits use the words in (not a set's order, which changes between processes)."""
    hits = ["John: zebra mango quartz violin copper"]
    assert bridge_words(hits, "What does John like?", ["John"], hits, 5) == ["zebra", "mango", "quartz", "violin",
                                                                              "copper"]
