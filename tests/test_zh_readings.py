"""Chinese readings of the write path. Words that hold a negation character without negating: 特别 (especially), 分别, 区别, 别墅, 未来 (the
future)... The write path's polarity read them as "not": 香菜用户特别爱吃 was the negation of 用户爱吃香菜, and
我不喜欢特别辣 cancelled its own 不 (hygiene14b noticed 特别)."""
from __future__ import annotations

import pytest

from hindsight.write.analysis import _polarity, units


@pytest.mark.parametrize(("text", "negated"), [
    ("香菜这东西用户特别爱吃", 0),
    ("用户不爱吃香菜", 1),
    ("我不喜欢特别辣的菜", 1),
    ("两个环境分别部署在上海和北京", 0),
    ("他们搬进了郊区的别墅", 0),
    ("未来三个月预算维持原样", 0),
    ("未来三个月预算不变", 1),
    ("这两个版本没有区别", 1),
    ("这两个版本的区别在缓存", 0),
    ("新来的同事还没开通权限", 1),
])
def test_polarity_reads_only_real_negations(text: str, negated: int) -> None:
    assert _polarity(units(text)) == negated


@pytest.mark.parametrize(("text", "expected"), [
    ("合同2024年到期，租金每月3000元", {"2024", "3000"}),
    ("The lease ends in 2024.", {"2024"}),
    ("这台服务器已经用了3年", {"time:9.4608e+07"}),
])
def test_a_calendar_year_in_chinese_reads_as_the_year(text: str, expected: set[str]) -> None:
    """2024年 was read as a duration of 2,024 years ('time:6.38e10'), never the year an English text names (currency14b
    noticed)."""
    from hindsight.write.amounts import quantities
    assert quantities(text) == expected
