"""The second step's features of a turn's own words (no session context, no encoder)."""

from __future__ import annotations

import math

import pytest

from hindsight.retrieval.turn_features import NAMES, own_text, rows, stems

TURNS = {
    "a": "Maria: I volunteered at the homeless shelter again and gave two talks there.",
    "b": "Jon: Wow, that's great! How did the shelter talks go?",
    "c": "Maria: Look at this! [shares a photo: a dog on a beach]",
    "d": "Jon: Sounds fun.",
}


def test_own_text_and_stems() -> None:
    assert own_text("Maria: hello there") == "hello there"
    assert own_text("张伟：我明天到上海") == "我明天到上海"
    assert own_text("no speaker in this memory") == "no speaker in this memory"
    assert stems("The volunteers volunteered at shelters") == {"volun", "shelt"}, "stopwords out, stems cut"


def test_rows_weigh_rare_query_words_in_the_turns_own_text() -> None:
    out = rows(TURNS, list(TURNS), "Where does Maria volunteer and give talks?")
    assert all(len(row) == len(NAMES) for row in out.values())
    column = {name: i for i, name in enumerate(NAMES)}
    terms = {mid: row[column["own_terms"]] for mid, row in out.items()}
    # query stems: maria and give (in no turn's own text), volun (a only), talks (a and b): the rarer weighs more
    n = len(TURNS)
    absent, volun, talks = math.log1p(n / 1), math.log1p(n / 2), math.log1p(n / 3)
    total = 2 * absent + volun + talks
    assert terms["a"] == pytest.approx((volun + talks) / total)
    assert terms["b"] == pytest.approx(talks / total)
    assert terms["c"] == terms["d"] == 0.0
    assert out["b"][column["own_question"]] == 1.0 and out["a"][column["own_question"]] == 0.0
    assert out["c"][column["own_photo"]] == 1.0 and out["c"][column["own_question"]] == 0.0
    assert out["a"][column["own_length"]] > out["d"][column["own_length"]] > 0


def test_rows_without_query_words() -> None:
    out = rows(TURNS, ["a", "d"], "")
    assert out["a"][0] == out["d"][0] == 0.0


def test_a_when_question_marks_the_turns_that_name_a_time() -> None:
    from hindsight.retrieval.turn_features import asks_when, names_time

    assert asks_when("When did Jon go to Seattle?") and asks_when("What year did Tim start surfing?")
    assert asks_when("How long has Maria volunteered?") and asks_when("张伟什么时候去的上海？")
    assert not asks_when("Where does Maria volunteer?") and not asks_when("Did Jon say when he left?")
    assert names_time("Jon: I was in Seattle last week for a game.") and names_time("张伟：我上周去了上海。")
    assert names_time("Tim: We moved here in 2019.") and not names_time("Jon: Sounds fun.")
    turns = {"a": "Jon: I was in Seattle last week for a game.", "b": "Maria: Seattle is lovely."}
    column = NAMES.index("own_when_time")
    asked = rows(turns, list(turns), "Jon go Seattle", "When did Jon go to Seattle?")
    assert asked["a"][column] == 1.0 and asked["b"][column] == 0.0
    other = rows(turns, list(turns), "Jon go Seattle", "Why did Jon go to Seattle?")
    assert other["a"][column] == other["b"][column] == 0.0, "only a question about a time reads it"
