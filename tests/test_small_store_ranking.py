"""A small mixed EN/ZH store ranks the answer by what the question means, not by which language lane it came
through (round 33, ux33's finding 2; bench/small_stores.py holds 13 such stores)."""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.retrieval.crosslingual import by_script
from hindsight.retrieval.fusion import one_signal, reciprocal_rank_fusion
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
    # main: the pnpm memory 4th of 4, under three unrelated Chinese memories each counted by two dense lanes
    assert _first(engine, UX33, "which package manager should I use?") == UX33[0]


@pytest.mark.parametrize(("query", "want"), [("where is the user travelling next month?", 5),
                                             ("what food does the user avoid?", 7), ("用户对什么过敏", 1)])
def test_user_echo_does_not_outvote_the_answer(engine: MemoryEngine, query: str, want: int) -> None:
    # main: 2nd, 3rd and 4th - "user" is in most of the store (idf floored), yet its keyword hits got full votes
    assert _first(engine, TRAVEL, query) == TRAVEL[want]


def test_one_signal_counts_a_memory_once() -> None:
    lanes = {"dense": ["zh1", "zh2", "en", "zh3"], "crosslingual": ["zh1", "zh2", "zh3"], "keyword": ["en"]}
    weights = {"dense": 1.0, "crosslingual": 0.4, "keyword": 0.8}
    folded = one_signal(lanes, weights, ("dense", "crosslingual"), k=10)
    assert set(folded) == {"dense", "keyword"} and folded["dense"] == ["zh1", "zh2", "en", "zh3"]
    fused = reciprocal_rank_fusion(folded, weights, k=10)
    assert fused["en"] > fused["zh1"]  # dense 3rd + keyword 1st beats dense 1st alone
    assert one_signal({"dense": ["a"]}, weights, ("dense", "crosslingual"), k=10) == {"dense": ["a"]}


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
