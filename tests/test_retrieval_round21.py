"""Issue 10, round 21 (branch retr21): the read side of retrieval.

* A weekday or the weekend said as a habit in a question is no time window (round 20: "墨尔本招周末兼职咖啡师给多少时薪"
  read 周末 as the most recent weekend and filtered out the standing note "Melbourne needs two weekend baristas";
  `retrieval/understanding/recurring.py`); an anchored or past one still is.
* A question's role word followed by the name other memories give it (`retrieval/aliases.py`): "the GM" is
  "Maya Thornton (GM, Melbourne cafés)".

A deterministic bag-of-words embedder where a search runs: the rewriting is what is tested, not the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.retrieval.aliases import AliasMap, extract
from hindsight.retrieval.currency import SlotRule, states_change, states_change_read
from hindsight.retrieval.query_parser import parse_query

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize("query", [
    "墨尔本招周末兼职咖啡师给多少时薪？有什么经验要求？",
    "王蕾周六上午能联系上吗？",
    "Felix 周三早上还要去做肩膀康复吗？",
    "工资每个月几号发？碰上周末怎么办？",
    "Why is Tobias never available to drive on Saturday mornings?",
    "Is it safe to leave my test fixtures in the pre-prod database over the weekend?",
    "If I leave drawings on my desk over the weekend, will they get tidied away?",
    "礼拜五快下班了，还能把表结构改动推上去吗？",
])
def test_a_habitual_weekday_or_weekend_is_no_time_window(query: str) -> None:
    parsed = parse_query(query, NOW)
    assert not parsed.time_is_hard and parsed.time_from is None, "a habit is not the most recent such day"
    assert any(w in parsed.residual for w in ("周", "礼拜", "weekend", "Saturday")), "its words stay searched"


@pytest.mark.parametrize("query", [
    "周末做了什么？",
    "上周末去了哪？",
    "周五那顿茶点是哪家店送的？",
    "What broke the build machine on Tuesday and how was it fixed?",
    "What did we do last weekend?",
    "A vendor wants 45 minutes with Lin Kai this Wednesday at 3pm. Accept?",
    "周一",
    "over the weekend",
])
def test_a_dated_or_past_weekday_still_is(query: str) -> None:
    assert parse_query(query, NOW).time_is_hard


def test_appositions_and_copulas_are_read() -> None:
    pairs = {(a.name, a.role[-1]) for text in [
        "Maya Thornton (GM, Melbourne cafés) says anything urgent should come to her as a Slack DM.",
        "Sophie Laurent, our freelance designer in Paris, is handling the new bag artwork.",
        "Oliver Grant (Grant & Hale) is our outside accountant in Melbourne.",
        "Please loop in our head roaster Priya before changing a profile.",
        "唐一帆是我们的灯光设计师，下周进组。",
        "赵敏（产品经理）3 月 11 日入职。",
    ] for a in extract(text)}
    assert {("Maya Thornton", "gm"), ("Sophie Laurent", "designer"), ("Oliver Grant", "accountant"),
            ("Priya", "roaster"), ("唐一帆", "设计师"), ("赵敏", "经理")} <= pairs
    assert not any(name in ("Paris", "Melbourne", "Hale") for name, _ in pairs), "a place or a firm is no role"


def test_a_role_word_denotes_its_name_and_a_common_word_none() -> None:
    filler = [f"Melbourne café note {i}: the grinder was dialled in again." for i in range(40)]
    amap = AliasMap.build(["Maya Thornton (GM, Melbourne cafés) prefers Slack.", *filler])
    assert amap.expand("Who is the GM's other half?") == "Who is the GM's (Maya Thornton) other half?"
    assert amap.expand("Who named Maya Thornton's dog?", mode=2) == "Who named Maya Thornton's (gm) dog?"
    assert amap.expand("What grinder do the Melbourne cafés use?") == "What grinder do the Melbourne cafés use?"
    many = AliasMap.build([f"{n} (manager) joined." for n in ("Ann Lee", "Bo Chen", "Cy Park")] + filler)
    assert many.expand("Who is the manager?") == "Who is the manager?", "a role three people hold names nobody"


@pytest.fixture
def cafe(tmp_path) -> Iterator[tuple[MemoryEngine, str]]:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    settings = HindsightSettings(db=db)
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True, dim=256))
    engine.writer.hygiene = None
    texts = ["Maya Thornton (GM, Melbourne cafés) wants urgent things as a Slack DM.",
             "Maya's partner Ruth is a nurse; they are moving to Brunswick in December."]
    texts += [f"Melbourne roast note {i}: half of the batch went to wholesale." for i in range(30)]
    ids = [engine.store_memory({"content": t, "event_time": NOW - timedelta(days=60 - i)}).memory_id
           for i, t in enumerate(texts)]
    yield engine, ids[1]
    engine.close()


def test_the_search_reads_the_name_a_role_denotes_and_follows_writes(cafe: tuple[MemoryEngine, str]) -> None:
    engine, answer = cafe
    question = "Who is the GM's other half?"
    engine.settings.retrieval.alias_expansion = 0
    assert answer not in [h.memory.id for h in engine.search(question, top_k=3, now=NOW)], "half: the filler"
    engine.settings.retrieval.alias_expansion = 1
    assert answer in [h.memory.id for h in engine.search(question, top_k=3, now=NOW)], "the GM is Maya"
    assert engine.retriever._aliases("default").expand("the CTO") == "the CTO", "no CTO yet"
    engine.store_memory({"content": "Dev Patel (CTO) owns the roast-logging stack.", "event_time": NOW})
    assert engine.retriever._aliases("default").expand("the CTO") == "the CTO (Dev Patel)", "a write is read"


@pytest.mark.parametrize(("text", "moved"), [
    ("晓梅把浅烘日晒的发展时间上限放宽到1分45秒。", True),
    ("吴迪的Q-Grader考试推到12月了。", True),
    ("第二期家庭手冲课扩到每期8个人，价格还是288。", True),
    ("From 1 September Fitzroy opens at 6:30am on weekdays.", True),
    ("Fitzroy trading hours: 7am-4pm weekdays.", False),
    ("He came from 5 Main St.", False),
])
def test_a_value_moved_to_a_number_reads_as_a_change_only_when_the_rule_asks(text: str, moved: bool) -> None:
    assert states_change_read(text) is (moved or states_change(text))
    assert SlotRule().value_moved is False, "measured, not shipped: the read-time rule keeps CHANGE_CUE"
