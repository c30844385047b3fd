"""One reading of "not (yet) happened" for endings and completions (issue 10, round 26: `write.unrealised`)."""

from __future__ import annotations

from hindsight.write.endings import ending
from hindsight.write.state_change import completed
from hindsight.write.unrealised import unrealised


def test_a_modal_close_before_an_ending_is_a_plan_not_an_end() -> None:
    assert ending("这张卡下个月会注销") is None
    assert ending("公司将关停这条线路") is None
    assert ending("那张卡已经注销了") == "注销"


def test_a_word_of_the_clause_that_only_contains_a_modal_does_not_block_a_completion() -> None:
    # 会 inside 开会 is no modal: the repair is done
    assert completed("服务器还在修", "开会前服务器修好了") == "还在 -> 修好了"
    assert completed("服务器还在修", "服务器还没修好") is None


def test_negated_asked_and_planned_endings_stay_unread_both_ways() -> None:
    assert ending("还没把年卡退掉") is None
    assert ending("We didn't cancel the membership") is None
    assert ending("She plans to sell the car") is None
    assert ending("晚上9点关门") is None  # a schedule, endings' own guard
    assert completed("The bike is still being repaired", "The bike hasn't been fixed") is None
    assert completed("The bike is still being repaired", "The bike was fixed on Monday") == "still -> was fixed"


def test_unrealised_reads_the_words_before_a_position() -> None:
    text = "要不要注销"
    assert unrealised(text, text.index("注销"))
    text = "already cancelled"
    assert not unrealised(text, text.index("cancelled"))
