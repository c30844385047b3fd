"""Chinese words that hold a negation character without negating: 特别 (especially), 分别, 区别, 别墅, 未来 (the
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
