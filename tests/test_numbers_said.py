"""Numbers said two ways read as one value (hygiene round 31, `write/numbers_said.py`); own texts."""

from __future__ import annotations

import pytest

from hindsight.write.analysis import analyse
from hindsight.write.numbers import read_numbers


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The build farm has a dozen runners.", "12"),
        ("Order half a dozen spare fans.", "6"),
        ("We keep two dozen test phones.", "24"),
        ("市场部这次活动预算 12w。", "120000"),
        ("门面房租 2.5w 一个月。", "25000"),
        ("退款率要控制在千分之三以内。", "0.3%"),
        ("违约金按千分之一点五计。", "0.15%"),
        ("今年研发投入一千二百万。", "12000000"),
        ("The standup starts at twenty to ten.", "9:40"),
        ("She landed around ten past four in the afternoon.", "16:10"),  # the part of the day read too (round 45)
        ("The vet line is four four four, oh two seven one.", "444 0271"),
        ("Finished the trail race in five hours eight minutes.", "5:08"),
        ("Connection time: 1h 35m.", "1:35"),
    ],
)
def test_said_forms_read_as_digits(text: str, value: str) -> None:
    assert value in read_numbers(text)


@pytest.mark.parametrize(
    ("text", "forbidden"),
    [
        ("Dozens of tickets came in overnight.", "12"),  # no number
        ("We invited ten to twelve people.", ":"),  # a range, not a clock time
        ("Scale the pool from five to eight nodes.", ":"),
        ("The sprint is 4w long.", "40000"),  # w in English text may be weeks
        ("千万不要在周五发版。", "10000000"),  # 千万: by no means
        ("Pick one, two or three reviewers.", "123"),  # a list of counts, not digits said one by one
    ],
)
def test_forms_that_are_not_numbers_stay(text: str, forbidden: str) -> None:
    assert forbidden not in read_numbers(text)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The staging cluster runs 12 workers.", "Staging has a dozen worker nodes."),
        ("质检项目验收：误报率低于0.4%。", "质检验收要求误报率不超过千分之四。"),
        ("装修总预算 25 万以内。", "装修最多花 25w。"),
        ("图书馆年度采购经费约 2300 万元。", "图书馆一年的采购经费大概两千三百万。"),
        ("Ferry to the island leaves at 17:40.", "The island ferry goes at twenty to six."),
        ("The clinic's after-hours line is 555-0142.", "Clinic after hours: five five five, oh one four two."),
        ("Best marathon time: 3:52.", "My marathon PB is three hours fifty-two minutes."),
    ],
)
def test_restatement_reads_the_same_numbers(old: str, new: str) -> None:
    a = analyse(old, new)
    assert not a.number_change, (a.old_numbers, a.new_numbers)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The staging cluster runs 15 workers.", "Staging has a dozen worker nodes."),
        ("质检项目验收：误报率低于0.5%。", "质检验收要求误报率不超过千分之四。"),
        ("装修总预算 30 万以内。", "装修最多花 25w。"),
        ("Ferry to the island leaves at 17:40.", "The island ferry goes at twenty past six."),
        ("The clinic's after-hours line is 555-0143.", "Clinic after hours: five five five, oh one four two."),
        ("Best marathon time: 3:52.", "My marathon PB is three hours fifty-five minutes."),
    ],
)
def test_a_changed_number_still_differs(old: str, new: str) -> None:
    assert analyse(old, new).number_change


def test_upper_case_w_is_watts() -> None:
    assert "1500000" not in read_numbers("航标灯是150W的LED灯。")
    assert not analyse("航标灯功率 150 瓦。", "航标灯是150W的LED灯。").number_change
