"""Issue 10, cross-lingual read path round 5: the gloss channel (an English question over Chinese memories),
romanised names across scripts, and read-time currency that asks the store, not only the result, whether two
memories are each other's nearest neighbour.

All memories here are written for these tests (not from any evaluation set). The rule tests failed on the code
before this change (no `glossmatch`, no `name_keys`, no `neighbours_of`, narrower change cues).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from xling_store import open_mixed

from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.bilingual import name_keys
from hindsight.retrieval.currency import OUTDATED, anchors, lasting, mark_outdated, states_change
from hindsight.retrieval.glossmatch import gloss_ranked

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


# ---------------------------------------------------------------- names and glosses (no model)
def test_a_romanised_name_meets_its_chinese_form() -> None:
    assert "wangfang" in name_keys("Ask Wang Fang before you book the van.", latin=True)
    assert "wangfang" in name_keys("王芳负责订车。", latin=False)
    assert "xiaomi" in name_keys("Our printer is a Xiaomi.", latin=True) & name_keys("打印机是小米的", latin=False)
    assert not name_keys("It is ok", latin=True)  # short words are no name keys


def test_the_gloss_channel_ranks_the_chinese_memory_that_means_the_question() -> None:
    content = {
        "bike": "备用自行车钥匙放在前台第二个抽屉里。",
        "report": "周报每周五下午发到部门群。",
        "printer": "三楼打印机卡纸了就找行政。",
    }
    ranked = [mid for mid, _ in gloss_ranked("Where is the spare bicycle key?", [(m, 0.0) for m in content],
                                             content)]
    assert ranked[0] == "bike"
    assert "report" not in ranked  # shares nothing with the question: no vote at all


def test_a_word_every_candidate_glosses_weighs_nothing() -> None:
    content = {"a": "会议室的投影仪坏了。", "b": "会议室预订要提前一天。", "c": "会议室在五楼。"}
    scored = dict(gloss_ranked("Can I book the meeting room projector today?", [(m, 0.0) for m in content],
                               content))
    assert scored["a"] > scored["c"] and scored["b"] > scored["c"]  # 投影仪 / 预订 are rarer than 会议室


def test_a_chinese_question_needs_two_shared_words() -> None:
    content = {"key": "The office key is at the front desk.", "both": "The spare bicycle key hangs by the door."}
    ranked = [mid for mid, _ in gloss_ranked("备用自行车钥匙在哪里？", [(m, 0.0) for m in content], content)]
    assert ranked == ["both"]


# ---------------------------------------------------------------- currency rules (no model)
@pytest.mark.parametrize("text", [
    "The referral bonus went up to 9,000 RMB.",
    "Lunch allowance was cut to 25 RMB a day.",
    "Her work permit was renewed until 2029.",
    "From October, standups move to 10:15.",
    "从 9 月起周会改在周二。",
    "差旅补贴上调了，每天 120 元。",
    "前台搬到了二楼东侧。",
    "周末加班餐取消了。",
], ids=["went-up", "cut-to", "renewed", "from-month", "qi", "shangtiao", "bandao", "quxiao"])
def test_more_kinds_of_change_cue(text: str) -> None:
    assert states_change(text)


def test_a_romanised_name_anchors_two_memories_across_scripts() -> None:
    assert "wangfang" in anchors("Wang Fang sits on the 3rd floor.", "王芳的座位挪到了五楼。")


def _hit(mid: str, text: str, days: int, kind: MemoryType = MemoryType.semantic) -> SearchHit:
    record = MemoryRecord(id=mid, content=text, type=kind, reference_time=T0 + timedelta(days=days))
    return SearchHit(memory=record, score=1.0 - days / 100, why=Explanation())


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_a_closer_memory_outside_the_result_keeps_an_older_hit_current() -> None:
    """Old rule: rivals only among the result's hits. The old memory's true counterpart ('desk', stored but
    not returned) is closer to it than the newer hit, so the newer hit restates something else."""
    old = _hit("old", "The finance team sits on the 4th floor of the east wing, next to the kitchen.", 0)
    new = _hit("new", "The finance team's printer moved to the 2nd floor of the east wing.", 5)
    vectors = {"old": _unit(1, 0.32, 0), "new": _unit(1, 0, 0.32), "desk": _unit(1, 0.30, 0.01)}
    contents = {"old": old.memory.content, "new": new.memory.content,
                "desk": "The finance team now sits on the 6th floor."}

    def neighbours(vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        scored = sorted(((m, contents[m], float(v @ vector)) for m, v in vectors.items()), key=lambda x: -x[2])
        return scored[:depth]

    def embeddings(ids: list[str]) -> dict[str, np.ndarray]:
        return {m: vectors[m] for m in ids}

    assert float(vectors["old"] @ vectors["new"]) > 0.88  # close enough for the English bar
    hits = mark_outdated([old, new], 5, embeddings, neighbours)
    assert all(h.current for h in hits)
    # without the store lookup (the old rule) the same pair is flagged
    old2, new2 = _hit("old", old.memory.content, 0), _hit("new", new.memory.content, 5)
    flagged = mark_outdated([old2, new2], 5, embeddings)
    assert not flagged[1].current and OUTDATED in flagged[1].flags


# ---------------------------------------------------------------- real engine, real embedder
ZH = [
    "备用自行车钥匙放在前台第二个抽屉里，用完记得登记。",
    "周报每周五下午五点前发到部门群。",
    "三楼打印机卡纸了就找行政的小刘。",
    "王芳负责公司的班车，改线路要提前一周跟她说。",
    "年会定在一月十八号，在滨江的酒店。",
    "新电脑申请走 OA，审批大概三个工作日。",
    "茶水间的咖啡豆每周一补货。",
    "财务每个月五号之前做结账，那几天别找她们报销。",
]
EN = [
    "The parking garage key card is issued by building security on the ground floor.",
    "Keys for the server cabinet are kept by the IT lead.",
    "The spare monitor cables are in the storage room next to the lab.",
    "Bike racks are behind building B; scooters are not allowed inside.",
    "The office Wi-Fi for guests is called Visitors and resets its password weekly.",
    "Shuttle buses to the metro leave every 20 minutes from gate 2.",
]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[tuple[MemoryEngine, dict[str, str]]]:
    db: Path = tmp_path_factory.mktemp("x5") / "x.db"
    engine, ids, settings = open_mixed(db, embedder, ZH + EN, T0)
    yield engine, ids
    engine.close()


@pytest.mark.parametrize(("query", "answer"), [
    ("Where can I find the spare bicycle key?", ZH[0]),
    ("What does Wang Fang look after?", ZH[3]),  # the name alone: Wang Fang / 王芳
], ids=["bicycle-key", "wang-fang"])
def test_english_question_ranks_the_chinese_memory_first_through_the_gloss(mixed: tuple[MemoryEngine, dict[str, str]],
                                                                      query: str, answer: str) -> None:
    engine, ids = mixed
    hits = engine.search(query, top_k=1, now=T0 + timedelta(days=30))
    assert [h.memory.id for h in hits] == [ids[answer]]  # first (before the gloss channel: third, both)


@pytest.mark.parametrize("kind", [MemoryType.episodic, MemoryType.warning])
def test_an_episode_or_a_warning_is_never_outdated(kind: MemoryType) -> None:
    old_text = "The staging database restore drill on March 3 took 40 minutes."  # an episode that names its day
    new_text = "Staging database restores now take 15 minutes since the move to NVMe disks."
    vectors = {"old": _unit(1, 0.2, 0), "new": _unit(1, 0, 0.2)}

    def embeddings(ids: list[str]) -> dict[str, np.ndarray]:
        return {m: vectors[m] for m in ids}

    def neighbours(vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        texts = {"old": old_text, "new": new_text}
        return sorted(((m, texts[m], float(v @ vector)) for m, v in vectors.items()), key=lambda x: -x[2])

    kept = mark_outdated([_hit("old", old_text, 0, kind), _hit("new", new_text, 5)], 5, embeddings, neighbours)
    assert all(h.current for h in kept)
    # the same pair with a plain fact as the older memory is flagged: the type alone decides
    flagged = mark_outdated([_hit("old", old_text, 0), _hit("new", new_text, 5)], 5, embeddings, neighbours)
    assert not flagged[1].current


def test_an_undated_episodic_memory_can_still_be_outdated() -> None:
    """Episodic is the type of an untyped write: only a dated episode lasts."""
    assert not lasting(MemoryType.episodic, "The team standup is at 9:30 every weekday.")
    assert lasting(MemoryType.episodic, "Incident 2026-02-11: the VPN gateway was down for an hour.")
    assert lasting(MemoryType.episodic, "3 月 2 日凌晨打印服务器宕机，重启后恢复。")
    assert not lasting(MemoryType.semantic, "The lease renews on May 1 every year.")
