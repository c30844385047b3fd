"""Class -> instance words for list questions (retrieval/class_lexicon.py, search step 6d; issue 14, round 40):
which questions ask for a list of a class, which words are searched, its default, and that a named speaker's
turn about an instance reaches the top 10 when it is on."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from chat_turns import chat_turns
from pydantic import ValidationError

from hindsight.config import HindsightSettings, RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.class_lexicon import asks_list, classes_in, instance_words

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def test_a_plural_class_word_asks_for_a_list() -> None:
    assert asks_list("What activities does Melanie partake in?")
    assert asks_list("What sports does John like besides basketball?")
    assert asks_list("What books has Tim read?")
    assert not asks_list("What book did Melanie read from Caroline's suggestion?"), "one book: no list"
    assert not asks_list("When did Melanie go to the museum?"), "no class word"


def test_a_chinese_class_word_asks_for_a_list_with_which_ones() -> None:
    assert asks_list("Nate 养了哪些宠物？")
    assert not asks_list("Nate 养了什么宠物？"), "what pet, singular"
    assert classes_in("Nate 养了什么宠物？"), "still a class word"


def test_instance_words_of_the_class_leave_out_the_questions_words() -> None:
    words = instance_words("What sports does John like besides basketball?")
    assert {"swimming", "surfing", "tennis"} <= set(words)
    assert "basketball" not in words, "the question's own word"
    assert instance_words("What sports does John like?", with_class=True)[0] == "sports"
    assert instance_words("When did Melanie go to the museum?") == []
    assert "乌龟" in instance_words("Nate 养了哪些宠物？")


def test_on_by_default_and_a_bad_weight_names_the_field() -> None:
    assert RetrievalSettings().instance_weight == 0.5, "shipped: docs/benchmarks.md 'Recall, round 40'"
    with pytest.raises(ValidationError, match="instance_weight"):
        RetrievalSettings(instance_weight=-0.5)


# ---------------------------------------------------------------------------------------------- real search
CAROLINE = [  # Caroline's side: Melanie's name and the question's words, no activity told
    "Melanie, what activities do you enjoy?", "Melanie, any fun activities planned?", "Thanks, Melanie!",
    "Melanie, how is your family doing?", "Melanie, you are a great mom.", "Melanie, I love hearing from you.",
]
MELANIE = [  # Melanie's side: errands, nothing done for fun
    "I love the color blue.", "Work has been busy lately.", "My coffee machine broke today.",
    "I think it will rain tomorrow.", "My phone battery keeps dying.", "The bank app logged me out again.",
    "I need to renew my passport.", "The printer at work is jammed.", "My laptop fan is loud.",
    "I forgot my umbrella at the office.", "The bus was late this morning.", "I ordered new socks online.",
    "My email inbox is overflowing.", "The grocery store moved the milk aisle.", "I changed my password yesterday.",
    "The heater makes a clicking noise.", "I lost my spare key.", "The kettle is broken.",
]
EVIDENCE = "Melanie: Yep, taking care of ourselves is vital. I'm off to go swimming with the kids."


def test_the_named_speakers_instance_turn_reaches_the_top_ten(tmp_path: Path, embedder: Embedder) -> None:
    settings = HindsightSettings(db=tmp_path / "chat.db", retrieval=RetrievalSettings(
        record_access=False, topic_slots=0, instance_weight=0.0))
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    engine.store_many(chat_turns(CAROLINE, MELANIE, EVIDENCE, NOW))
    query = "What activities does Melanie partake in?"
    try:
        without = [h.memory.content for h in engine.search(query, top_k=10, now=NOW)]
        engine.settings.retrieval.instance_weight = 0.5
        hits = engine.search(query, top_k=10, now=NOW)
        assert EVIDENCE not in without, "the name and 'activities' pull Caroline's turns above it"
        assert EVIDENCE in [h.memory.content for h in hits]
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        engine.settings.retrieval.instance_weight = 0.0
        assert [h.memory.content for h in engine.search(query, top_k=10, now=NOW)] == without, "off: unchanged"
    finally:
        engine.close()
