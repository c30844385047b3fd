"""A small mixed EN/ZH store ranks the answer by what the question means, not by which language lane it came
through (round 33, ux33's finding 2; bench/small_stores.py holds 13 such stores)."""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.retrieval.channels import _thin_gate
from hindsight.retrieval.crosslingual import by_script
from tests.conftest import FIXED_NOW

UX33 = ["The user prefers pnpm over npm for every JavaScript project", "生产环境的数据库每天凌晨三点自动备份，保留十四天",
        "Redis 连接超时时，把 timeout 从 2 秒调到 5 秒就好了", "用户的笔记本是 ThinkPad X1，系统是 Arch Linux"]
TRAVEL = ["The user's passport expires in March 2027", "The user is allergic to peanuts", "用户坐飞机喜欢靠过道的座位",
          "用户的常旅客计划是国航凤凰知音", "The user prefers hotels near a metro station", "用户下个月要去东京出差三天",
          "The user's budget for hotels is 200 dollars a night", "用户不吃香菜"]


def _first(engine: MemoryEngine, texts: list[str], query: str) -> str:
    for text in texts:
        engine.store_memory({"content": text, "namespace": "small"})
    hits = engine.search(query, namespace="small", top_k=len(texts), now=FIXED_NOW)
    return hits[0].memory.content


def test_english_answer_first_among_chinese_memories(engine: MemoryEngine) -> None:
    # main: the pnpm memory 4th of 4, under three unrelated Chinese memories each voted for by two dense lanes
    assert _first(engine, UX33, "which package manager should I use?") == UX33[0]


@pytest.mark.parametrize(("query", "want"), [("where is the user travelling next month?", 5),
                                             ("what food does the user avoid?", 7), ("用户对什么过敏", 1)])
def test_user_echo_does_not_outvote_the_answer(engine: MemoryEngine, query: str, want: int) -> None:
    # main: 2nd, 3rd and 4th - "user" is in most of the store (idf floored), yet its keyword hits got full votes
    assert _first(engine, TRAVEL, query) == TRAVEL[want]


def test_thin_own_script_gates_the_cross_lingual_lane() -> None:
    ranked = [("en", 0.0133), ("zh1", 0.0117), ("zh2", 0.0027), ("zh3", -0.0143)]
    scripts = {"en": "en", "zh1": "zh", "zh2": "zh", "zh3": "zh"}
    other = [item for item in ranked if scripts[item[0]] == "zh"]
    assert _thin_gate("which package manager should I use?", ranked, other, scripts) == []
    # above the lone English memory: still voted for (an English question's Chinese answer in a small store)
    assert _thin_gate("which package manager?", [("zh1", 0.02), *ranked], [("zh1", 0.02)], scripts) == [("zh1", 0.02)]
    # ten or more of the query's script in the pool: the lane as before
    many = [(f"e{i}", -i / 100) for i in range(10)] + [("zh9", -0.5)]
    assert _thin_gate("which package manager?", many, [("zh9", -0.5)], {**{f"e{i}": "en" for i in range(10)},
                                                                       "zh9": "zh"}) == [("zh9", -0.5)]


def test_lone_memory_of_the_query_script_is_not_calibrated_against_itself() -> None:
    pool = [("en", 0.805), ("zh1", 0.797), ("zh2", 0.788), ("zh3", 0.771)]
    script = {"en": "en"}.get
    as_zh = lambda mid: script(mid) or "zh"  # noqa: E731
    assert by_script(pool, as_zh)[0][0] == "zh1"  # unpadded: en scores 0.805 - 0.805 = 0
    assert by_script(pool, as_zh, favoured="en")[0][0] == "en"
    # the other script's level is never padded: a Chinese query keeps correcting the model's bias against English
    assert dict(by_script(pool, as_zh, favoured="zh"))["en"] == dict(by_script(pool, as_zh))["en"] == 0.0


def test_big_pools_unchanged() -> None:
    pool = [(f"e{i}", 0.9 - i / 100) for i in range(12)] + [(f"z{i}", 0.85 - i / 100) for i in range(12)]
    of = lambda mid: "en" if mid.startswith("e") else "zh"  # noqa: E731
    assert by_script(pool, of, favoured="en") == by_script(pool, of)
