"""Hygiene round 20: one quantity in two written forms (`write/quantity_forms.py`) - numbers in words (EN via
text2num, ZH), times of day, dates, durations, shares, money, weights and mega / giga - is one value to every rule
that compares values; two different values stay two."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from hindsight.engine import MemoryEngine
from hindsight.write import conversions, judge, quantity_forms
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import merge_blocker
from hindsight.write.quantity_forms import align_forms, mentions

#: (old, new, what the new text's form reads as): one value written two ways
ALIKE = [
    ("Front desk: Priya Nair, ext. 318.", "Ask Priya at the front desk, extension three-one-eight.", "318"),
    ("Our mortgage is $1,840 a month.", "We pay eighteen forty on the mortgage each month.", "$1,840"),
    ("They moved to Leeds in 2019.", "The move to Leeds was in twenty nineteen.", "2019"),
    ("The seed round closed at $2.5M.", "Seed round: two point five million dollars, closed.", "$2.5M"),
    ("The data migration is 60% done.", "Data migration: about six-tenths finished.", "60%"),
    ("Stretch for 15 minutes after the run.", "After the run, stretch for a quarter of an hour.", "15 minutes"),
    ("Daily sync at 9:30am.", "Daily sync is at half nine.", "9:30am"),
    ("Lease ends 12 March.", "The lease runs out on the 12th of March.", "12 March"),
    ("仓库租金每平米 3.5 元。", "仓库按平米算，三块五一平。", "3.5 元"),
    ("机房专线带宽 200M。", "机房专线是二百兆的。", "200M"),
    ("儿子的生日是 7 月 12 号。", "儿子七月十二过生日。", "7 月 12 号"),
    ("合同 6 月 30 日到期。", "合同六月底到期。", "6 月 30 日"),
    ("新版本灰度完成度 60%。", "新版本已经灰度了六成。", "60%"),
    ("小狗现在体重 2.3 公斤。", "小狗现在四斤六两。", "2.3 公斤"),
    ("这次冲刺周期 3 周。", "这个冲刺要做三个星期。", "3 周"),
    ("物业电话 555-0142。", "物业的电话是五五五-零一四二。", "555-0142"),
]
#: One value in two forms that the rules' readings (`amounts.quantities`, `value_forms.read_values`) already read as
#: one: left as written, so the texts keep their own words (old, new)
READ_ALREADY = [
    ("Card statement closes on the 14th.", "The statement date is the fourteenth of each month."),
    ("Shop closes at 5pm on Fridays.", "On Fridays the shop shuts at 17:00."),
    ("Passport expires in August 2027.", "Passport runs out Aug '27."),
    ("周会早上 9:30 开始。", "周会上午九点半开。"),
    ("房东电话 139 0123 4567。", "房东手机：一三九零一二三四五六七。"),
    ("加班满 2 小时可以报餐费。", "加班超过两个钟头可以报餐费。"),
]
#: Values that differ stay as written (old, new)
APART = [
    ("Front desk: Priya Nair, ext. 318.", "Ask Priya at the front desk, extension three-one-nine."),
    ("Our mortgage is $1,840 a month.", "We pay eighteen fifty on the mortgage each month."),
    ("They moved to Leeds in 2019.", "The move to Leeds was in twenty twenty."),
    ("Daily sync at 9:30am.", "Daily sync is at half ten."),
    ("Shop closes at 5pm on Fridays.", "On Fridays the shop shuts at 17:30."),
    ("Stretch for 15 minutes after the run.", "Stretch for 15 seconds after the run."),
    ("Redis cache TTL is set to 300 seconds.", "Redis connection timeout is set to 300 milliseconds."),
    ("The data migration is 60% done.", "Data migration: about seven-tenths finished."),
    ("仓库租金每平米 3.5 元。", "仓库按平米算，三块六一平。"),
    ("机房专线带宽 200M。", "机房硬盘是二百G的。"),
    ("合同 6 月 30 日到期。", "合同七月底到期。"),
    ("新版本灰度完成度 70%。", "新版本已经灰度了六成。"),
    ("小狗现在体重 2.3 公斤。", "小狗现在四斤七两。"),
    ("周会早上 9:30 开始。", "周会晚上九点半开。"),
    ("这次冲刺周期 3 周。", "这个冲刺要做三个月。"),
    ("Logs are kept for 15 days.", "Metrics are retained for 15 months."),
]


@pytest.fixture
def every_family(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every family of readings on (dates, weights and mega / giga are off in the shipped default)."""
    monkeypatch.setattr(quantity_forms, "FAMILIES", quantity_forms.EVERY_FAMILY)
    quantity_forms.mentions.cache_clear()
    quantity_forms.align_forms.cache_clear()
    yield
    quantity_forms.mentions.cache_clear()
    quantity_forms.align_forms.cache_clear()


@pytest.mark.parametrize(("old", "new", "form"), ALIKE, ids=[f"alike-{i}" for i in range(len(ALIKE))])
def test_a_value_in_another_form_is_written_as_the_old_text_writes_it(every_family: None, old: str, new: str,
                                                                      form: str) -> None:
    assert form in align_forms(old, new)


@pytest.mark.parametrize(("old", "new"), APART, ids=[f"apart-{i}" for i in range(len(APART))])
def test_a_different_value_stays_as_written(every_family: None, old: str, new: str) -> None:
    assert align_forms(old, new) == new


@pytest.mark.parametrize(("old", "new", "form"), [ALIKE[i] for i in (7, 11, 13, 9)],
                         ids=["en-date", "zh-month-end", "jin-liang", "zhao"])
def test_the_shipped_default_leaves_dates_weights_and_mega_as_written(old: str, new: str, form: str) -> None:
    assert form not in align_forms(old, new)


@pytest.mark.parametrize(("old", "new"), READ_ALREADY, ids=[f"read-{i}" for i in range(len(READ_ALREADY))])
def test_forms_the_rules_already_read_as_one_are_left_as_written(every_family: None, old: str, new: str) -> None:
    assert align_forms(old, new) == new


@pytest.mark.parametrize("text", ["八成是他忘了。", "这事一成不变。", "Half the team is remote.", "One of the kids is sick.",
                                  "We sat down at one point.", "这两点要注意。"])
def test_words_that_only_look_like_quantities_name_no_value_of_those_kinds(text: str) -> None:
    kinds = {v.split(":")[0] for m in mentions(text) for v in m.values}
    assert not kinds & {"share", "clock", "money", "date"}


def test_the_judge_reads_one_value_not_different_numbers() -> None:
    old, new = ALIKE[1][0], ALIKE[1][1]  # main: "different numbers (1840 -> 18, 40)"
    o, n = written_alike(old, new)
    label, reason, _ = judge.heuristic(o, n)
    assert not reason.startswith("different numbers")
    o, n = written_alike(*ALIKE[14][:2])  # main: "amounts differ (3, time:1.8144e+06)"
    assert not (merge_blocker(analyse(o, n), None, o, n) or "").startswith(("amounts differ", "numbers differ"))


def test_switched_off_written_alike_reads_as_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conversions, "ALIGN_FORMS", False)
    conversions.written_alike.cache_clear()
    try:
        assert written_alike(*ALIKE[1][:2])[1] == ALIKE[1][1]
    finally:
        conversions.written_alike.cache_clear()


def test_one_family_switched_off_reads_none_of_its_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quantity_forms, "FAMILIES", quantity_forms.FAMILIES - {"clock"})
    quantity_forms.mentions.cache_clear()
    quantity_forms.align_forms.cache_clear()
    try:
        assert "9:30am" not in align_forms(*ALIKE[6][:2])
        assert "60%" in align_forms(*ALIKE[4][:2])
    finally:
        quantity_forms.mentions.cache_clear()
        quantity_forms.align_forms.cache_clear()


@pytest.mark.parametrize(("old", "new"), [ALIKE[1][:2], ALIKE[4][:2]], ids=["spoken-amount", "spoken-share"])
def test_through_the_engine_the_restatement_is_merged(engine: MemoryEngine, old: str, new: str) -> None:
    a = engine.store_memory({"content": old})
    b = engine.store_memory({"content": new})
    assert b.action == "duplicate" and b.memory_id == a.memory_id  # main keeps both


@pytest.mark.parametrize(("old", "new"), [APART[1], APART[7]], ids=["other-amount", "other-share"])
def test_through_the_engine_another_value_stays_apart(engine: MemoryEngine, old: str, new: str) -> None:
    a = engine.store_memory({"content": old})
    b = engine.store_memory({"content": new})
    assert b.memory_id != a.memory_id and b.action != "duplicate"
