"""Hygiene round 25: value forms `value_canon` took apart or missed (`write.value_written`) - a Chinese number with two
scale words, a Chinese numeral before a unit of measure, a year and month in Chinese digits, times under a minute,
a month and an ordinal word, ordinals of tens in words. Own texts; each form both ways round, and the forms that
stay with the readers that had them."""

from __future__ import annotations

import pytest

from hindsight.write.value_canon import canonical_values, value_match
from hindsight.write.value_gate import gate_reason

#: one value in two forms: equal both ways round
SAME = [
    ("新仓库总投资 2.6 亿元。", "新仓库总投资两亿六千万。"),
    ("新仓库总投资 2.6 亿元。", "新仓库总投资2亿6000万。"),
    ("他的月薪是 35000 元。", "他的月薪是三万五千元。"),
    ("捐款一共 10500 元。", "捐款一共一万零五百元。"),
    ("登机箱限重 7 公斤。", "登机箱限重七公斤。"),
    ("猫现在 4 千克。", "猫现在四公斤。"),
    ("一米四以下的孩子半价。", "身高不到 1.4 米的孩子半价。"),
    ("我们是 2019 年 6 月领的证。", "我们是一九年六月领的证。"),
    ("我们是 2019 年 6 月领的证。", "我们是二零一九年六月领的证。"),
    ("Alert if the query takes over 1.5 s.", "Alert if the query takes over 1500 milliseconds."),
    ("Target latency: 0.25 s.", "Target latency: 250ms."),
    ("Mum's birthday is 7 May.", "Mum's birthday is May seventh."),
    ("The lease ends on 21 October.", "The lease ends on the twenty-first of October."),
    ("Aunt Jo turns 80 next spring.", "Aunt Jo has her eightieth next spring."),
]

#: another value, or a form left to the readers that had it: never read as the same
APART = [
    ("新仓库总投资 2.6 亿元。", "新仓库总投资两亿八千万。"),
    ("他的月薪是 18000 元。", "他的月薪是一万八千六。"),  # 一万八千六: 18,600, not 18,000
    ("登机箱限重 7 公斤。", "登机箱限重八公斤。"),
    ("我们是 2019 年 6 月领的证。", "我们是一九年七月领的证。"),
    ("Target latency: 0.25 s.", "Target latency: 350ms."),
    ("Mum's birthday is 7 May.", "Mum's birthday is May seventeenth."),
    ("Aunt Jo turns 80 next spring.", "Aunt Jo has her ninetieth next spring."),
]


@pytest.mark.parametrize(("old", "new"), SAME)
def test_one_value_two_forms(old: str, new: str) -> None:
    assert value_match(old, new).equal
    assert value_match(new, old).equal


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_value_stays_apart(old: str, new: str) -> None:
    assert not value_match(old, new).equal
    assert not value_match(new, old).equal


def test_a_compound_number_is_one_value() -> None:
    assert canonical_values("一亿八千万") == canonical_values("1.8 亿")
    assert len(canonical_values("三万五千")) == 1


@pytest.mark.parametrize(("text", "kept"), [
    ("孩子生下来六斤八两。", "mass:3.4"),        # a weight in 斤 and 两 stays one
    ("学校要求周一升旗时必须戴红领巾。", "wd:1"),  # 周一, not 一升
    ("那是 the 1990s 的事。", None),              # a decade, not seconds
])
def test_forms_left_to_their_readers(text: str, kept: str | None) -> None:
    values = {v for mention in canonical_values(text) for v in mention}
    if kept is None:
        assert not any(v.startswith("dur:") for v in values)
    else:
        assert kept in values


@pytest.mark.parametrize("text", ["Kestrel v2 launch target is set.", "PocketList v3.2 drops the old sync."])
def test_a_version_is_not_a_value(text: str) -> None:
    assert canonical_values(text) == ()


def test_the_gate_opens_on_the_new_forms() -> None:
    assert gate_reason("去成都托运行李限额 20 公斤。", "去成都托运行李限额二十公斤。") is None
    assert gate_reason("一米四以下的儿童乘坐游船免票。", "身高不到 1.4 米的小朋友上船不要钱。") is None
    assert gate_reason("Grandpa Leo turns 90 on 3 March.", "March third is Leo's ninetieth birthday.") is None
