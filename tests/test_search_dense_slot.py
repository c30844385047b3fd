"""Issue 10, round 10: a paraphrase that shares no word with its memory keeps the dense channel's first choice.

Rank fusion counts votes. A question worded apart from its memory gets no keyword vote for it, while memories
echoing one or two of the question's words collect a keyword vote and a middling dense one; before
`keep_dense_best` the dense channel's first choice fell to rank 6-8 below five such echoes (English and
Chinese alike). The stores are this file's own texts; hygiene is off so every memory stays as written.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError
from xling_store import open_mixed

from hindsight.config import RetrievalSettings
from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.fusion import keep_dense_best

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

EN_ANSWER = "The espresso machine in the office is descaled by facilities on the first Monday of each quarter."
EN = [
    EN_ANSWER,
    "Remote work is allowed on Fridays for the platform team.",
    "Work laptops must be encrypted before they leave the building.",
    "The shared kitchen is cleaned every evening at 7pm by the night crew.",
    "Coffee chats with the new interns happen on Thursday mornings.",
    "The maker space on the third floor has a laser cutter and two 3D printers.",
    "Mineral water is delivered to the front desk every Tuesday.",
    "Work from home requests go to your manager a week ahead.",
    "Carpets on the second floor were cleaned after the flood in March.",
    "The coffee budget for team offsites is 15 dollars per person.",
    "Decision maker at Brightline is their CTO, not procurement.",
    "Build artifacts are kept for 30 days in the artifact bucket.",
    "Our on-call rotation changes every Monday at 10am.",
    "The staging database is reset every night at 2am.",
    "Quarterly planning starts two weeks before the quarter ends.",
    "Expense reports are due by the 25th of each month.",
]
EN_QUERY = "When is the coffee maker at work cleaned of mineral buildup?"

ZH_ANSWER = "办公室的咖啡机每个季度第一个周一由行政部除垢清洗。"
ZH = [
    ZH_ANSWER,
    "茶水间的冰箱每周五下午清空，过期食物会被扔掉。",
    "机房设备的巡检记录放在共享盘的运维目录里。",
    "公司的车每半年保养一次，找行政预约时间。",
    "新员工的设备申请要走 OA 流程，审批一般两天。",
    "茶水间的微波炉坏了，已经报修。",
    "打印机每个月保养一次，耗材找前台领。",
    "会议室的投影设备长时间没人用就会自动关机。",
    "茶水间的饮水机滤芯每半年换一次。",
    "周报每周五下午五点前发到部门邮箱。",
    "年会定在一月二十日，在国际会展中心举办。",
    "测试环境的数据库每天凌晨两点自动重置。",
    "报销单需要附上发票原件，每月二十五号截止。",
    "前端项目使用 pnpm 管理依赖，不要用 npm 安装。",
    "线上发布前必须有两名同事代码评审通过。",
    "新同事入职第一周要完成安全培训。",
    "公司年会的场地什么时候定，还要等行政通知。",
    "机器学习组的 GPU 机器周末会重启。",
    "仓库的旧纸箱每周三清理一次。",
    "公司门口的快递柜满了要问前台。",
    "清理过期的测试账号由安全组负责。",
]
ZH_QUERY = "公司那台做美式的机器什么时候清理？"


def _hit(name: str, dense_rank: int | None) -> SearchHit:
    return SearchHit(memory=MemoryRecord(content=name, namespace="default"), score=1.0,
                     why=Explanation(dense_rank=dense_rank))


def _names(hits: list[SearchHit]) -> list[str]:
    return [hit.memory.content for hit in hits]


def test_dense_best_below_top_k_takes_the_last_place() -> None:
    hits = [_hit("a", 4), _hit("b", None), _hit("c", 3), _hit("d", 2), _hit("e", None), _hit("f", None),
            _hit("g", 1), _hit("h", 5)]
    assert _names(keep_dense_best(hits, 5, 1)) == ["a", "b", "c", "d", "g", "e", "f", "h"]


def test_dense_best_already_in_top_k_changes_nothing() -> None:
    hits = [_hit("a", 1), _hit("b", None), _hit("c", 3), _hit("d", 2), _hit("e", None), _hit("f", 4)]
    assert keep_dense_best(hits, 5, 1) == hits


def test_off_short_lists_depth_and_the_fused_first() -> None:
    hits = [_hit("a", None), _hit("b", None), _hit("c", None), _hit("d", 2), _hit("e", 1)]
    assert keep_dense_best(hits, 3, 0) == hits  # 0: off
    assert keep_dense_best(hits, 5, 1) == hits  # nothing below the top_k
    assert _names(keep_dense_best(hits, 3, 2)) == ["a", "d", "e", "b", "c"]  # both dense-best hits, in their order
    assert _names(keep_dense_best(hits, 2, 2)) == ["a", "d", "b", "c", "e"]  # the fused first stays first
    assert keep_dense_best(hits, 1, 2) == hits  # top_k 1: the fused order


def test_dense_slot_is_validated() -> None:
    with pytest.raises(ValidationError, match="dense_slot"):
        RetrievalSettings(dense_slot=-1)


@pytest.mark.parametrize(("texts", "query", "answer"), [(EN, EN_QUERY, EN_ANSWER), (ZH, ZH_QUERY, ZH_ANSWER)],
                         ids=["en", "zh"])
def test_paraphrase_keeps_dense_first_choice(tmp_path: Path, embedder: Embedder, texts: list[str], query: str,
                                             answer: str) -> None:
    engine, ids, _ = open_mixed(tmp_path / "m.db", embedder, texts, T0)
    try:
        hits = engine.search(query, top_k=5)
        assert ids[answer] in [hit.memory.id for hit in hits], _names(hits)
        found = next(hit for hit in hits if hit.memory.id == ids[answer])
        assert found.why.dense_rank == 1 and found.why.keyword_rank is None  # the case this step is for
    finally:
        engine.close()


def test_dense_slot_zero_keeps_the_fused_order(tmp_path: Path, embedder: Embedder) -> None:
    engine, ids, settings = open_mixed(tmp_path / "m.db", embedder, EN, T0)
    try:
        settings.retrieval.dense_slot = 0
        assert ids[EN_ANSWER] not in [hit.memory.id for hit in engine.search(EN_QUERY, top_k=5)]
    finally:
        engine.close()
