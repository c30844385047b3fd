"""Consolidation, round 47: it never brings back a retired fact, nor mixes the old value with the new one.

agent46's MCP walk (docs/benchmarks.md, "Agents, round 46"): after "我现在改用 Cursor 写代码了，不再用 VS Code。" had
superseded "我喜欢用 VS Code 写代码。", the promote pass wrote the old preference's session episode into an active
semantic memory that answered first as current; the merge pass retired the clean "Actually I now prefer bun over pnpm"
for a text that appended "I prefer pnpm over npm" to it; a Chinese session's episode carried English labels. Each a
test that failed on main; the fake word-bag embedder (the model is not the point).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.consolidate import Consolidator
from hindsight.consolidate_currency import changes_slot
from hindsight.consolidate_text import MERGE_BUDGET, compose
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryInput, MemoryRecord, MemoryType, Status
from hindsight.storage.base import Edge
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.hygiene import _consolidation_keeps, deprecate
from hindsight.write.pipeline import WritePipeline

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "consolidate47.db")
    yield s
    s.close()


def write(store: SQLiteStore, clock: Clock, text: str, kind: MemoryType, session: str | None = None) -> str:
    """Stored without hygiene: the links a test needs are added by hand, as hygiene would have written them."""
    pipeline = WritePipeline(store=store, embedder=BagEmbedder(words=True), clock=clock)
    return pipeline.write_many([MemoryInput(content=text, type=kind, session_id=session)], "t")[0].memory_id


def test_an_episode_whose_statement_was_superseded_is_not_promoted(store: SQLiteStore) -> None:
    """The walk's ZH store: the session episode states the generalised preference a newer memory superseded; with a
    second session's episode saying the same it was promoted (a new active semantic, newer than the change)."""
    clock = Clock()
    old = write(store, clock, "User said: I like VS Code for writing code.", MemoryType.episodic, "s1")
    stated = write(store, clock, "I like VS Code for writing code.", MemoryType.semantic, "s1")
    store.add_edge(Edge(stated, old, "supplements", created_at=clock()))
    again = write(store, clock, "User said: I like VS Code for writing code.", MemoryType.episodic, "s2")
    change = write(store, clock, "User said: I now use Cursor for writing code, no longer VS Code.",
                   MemoryType.episodic, "s3")
    assert deprecate(store, stated, change, "changed", "t", clock())

    report = Consolidator(store, BagEmbedder(words=True), clock=clock).run("default")

    assert report.promoted_ids == [] and report.retired_sources == [old]
    active = [r.content for r in store.iter_all("default") if r.type == MemoryType.semantic and r.status == Status.active]
    assert not any("VS Code" in text for text in active), active
    assert store.get(again) is not None


def test_an_episode_a_newer_linked_memory_changes_is_not_promoted(store: SQLiteStore) -> None:
    """Hygiene only links two episodes of different sessions (a change too): the pair judge read again says the
    newer one changes the older, so the older is no promotion source."""
    clock = Clock()
    old = write(store, clock, "The project deadline is March 15.", MemoryType.episodic, "d1")
    write(store, clock, "The project deadline is March 15.", MemoryType.episodic, "d2")
    newer = write(store, clock, "The client moved the project deadline to April 2.", MemoryType.episodic, "d3")
    store.add_edge(Edge(newer, old, "supplements", created_at=clock()))
    consolidator = Consolidator(store, BagEmbedder(words=True), clock=clock)
    consolidator._changes = lambda a, b: (a.id, b.id) == (old, newer)  # type: ignore[method-assign]

    report = consolidator.run("default")

    assert report.promoted_ids == [] and report.retired_sources == [old]


def test_a_promoted_memory_is_as_old_as_its_newest_source(store: SQLiteStore) -> None:
    clock = Clock()
    ids = [write(store, clock, "User said: always run the tests before a deploy.", MemoryType.episodic, f"s{i}")
           for i in range(2)]
    clock.now += timedelta(days=3)
    report = Consolidator(store, BagEmbedder(words=True), clock=clock).run("default")

    assert len(report.promoted_ids) == 1
    promoted = store.get(report.promoted_ids[0])
    sources = [store.get(i) for i in ids]
    assert promoted is not None and promoted.event_time == max(s.reference_time for s in sources if s is not None)


def test_an_output_older_than_a_memory_never_retires_it() -> None:
    """Older content never supersedes a newer current memory, whatever the pair verdict."""
    newer = MemoryRecord(content="I now use Cursor for writing code.", type=MemoryType.semantic,
                         created_at=T0 + timedelta(days=2), updated_at=T0 + timedelta(days=2))
    output = MemoryRecord(content="I like VS Code for writing code.", type=MemoryType.semantic, event_time=T0,
                          metadata={"consolidated_from": ["mem_a", "mem_b"]})
    assert _consolidation_keeps(newer, Verdict("override", "changes it"), output)
    later = output.model_copy(update={"event_time": T0 + timedelta(days=3)})
    assert not _consolidation_keeps(newer, Verdict("override", "changes it"), later)


def test_a_merge_never_retires_the_clean_statement_for_a_mixed_text(store: SQLiteStore) -> None:
    """The walk's EN store: the merge wrote the promoted "... bun ... I prefer pnpm ..." over the clean statement."""
    clock = Clock()
    text = "Actually I now prefer bun over pnpm; please use bun from now on."
    write(store, clock, text, MemoryType.semantic)
    write(store, clock, f"{text} User said: I prefer pnpm over npm for JavaScript projects.", MemoryType.semantic)
    consolidator = Consolidator(store, BagEmbedder(words=True), clock=clock)
    consolidator._near_duplicate = lambda a, b, similarity: True  # type: ignore[method-assign]  # as the walk's judge

    report = consolidator.run("default")

    active = [r.content for r in store.iter_all("default") if r.status == Status.active]
    assert active == [text] or (text in active and report.merged_ids == []), (active, report)


def test_a_merge_that_can_only_mix_is_left(store: SQLiteStore) -> None:
    """Two memories each telling old and new together: no merge can be clean, so none is written."""
    clock = Clock()
    ids = [write(store, clock, f"The Atlas deadline is March 15. The client moved the Atlas deadline to April 2{end}",
                 MemoryType.semantic) for end in (".", " for the launch.")]
    consolidator = Consolidator(store, BagEmbedder(words=True), clock=clock)
    consolidator._near_duplicate = lambda a, b, similarity: True  # type: ignore[method-assign]

    report = consolidator.run("default")

    assert report.merged_ids == [] and report.unmixed == [ids]
    assert all((r := store.get(i)) is not None and r.status == Status.active for i in ids)


def test_compose_never_appends_the_value_a_newer_sentence_replaced() -> None:
    later = T0 + timedelta(days=1)
    new = MemoryRecord(content="Actually I now prefer bun over pnpm; please use bun from now on.",
                       type=MemoryType.semantic, created_at=later, updated_at=later)
    old = MemoryRecord(content="I prefer pnpm over npm for JavaScript projects.", type=MemoryType.semantic,
                       created_at=T0, updated_at=T0)
    text, _ = compose([new, old], "", MERGE_BUDGET, None, lambda records: np.eye(len(records), dtype=np.float32))
    assert "JavaScript" not in text and "bun" in text


@pytest.mark.parametrize(("turn", "label", "foreign"), [("以后回复我请用中文。", "用户说：", "said:"),
                                                        ("Please always answer in short bullet points.", "User said: ",
                                                         "用户说")])
def test_a_session_episode_is_labelled_in_the_session_language(tmp_path: Path, turn: str, label: str,
                                                               foreign: str) -> None:
    db = tmp_path / "memory.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder=BagEmbedder())
    try:
        engine.working_append("s1", "user", turn)
        ended = engine.end_session("s1")
    finally:
        engine.close()
    assert ended["summary"].startswith(label) and foreign not in ended["summary"], ended["summary"]


@pytest.mark.parametrize(("old", "new", "changed"), [
    ("User said: I prefer pnpm over npm for JavaScript projects.",
     "User said: Actually I now prefer bun over pnpm; please use bun from now on.", True),
    ("用户说：我喜欢用 VS Code 写代码。", "用户说：我现在改用 Cursor 写代码了，不再用 VS Code。", True),
    ("第一天：和客户启动了天穹项目，截止日期是 3 月 15 日。", "第三天：客户把天穹项目的截止日期推迟到 4 月 2 日。", True),
    # the pair judge read these as changes; the labels alone were their shared word, or one topic word only
    ("User said: Please always answer me in short bullet points.",
     "User said: Actually I now prefer bun over pnpm; please use bun from now on.", False),
    ("用户说：以后回复我请用中文。", "用户说：我现在改用 Cursor 写代码了，不再用 VS Code。", False),
    ("Day 2: the Atlas team chose PostgreSQL and FastAPI for the backend.",
     "Day 3: the client moved the Project Atlas deadline to April 2.", False),
    # a recurrence is no change ("again", 提前 = early)
    ("Deploying to staging failed because the VPN was not connected.",
     "The staging deploy broke again: the VPN was disconnected, reconnecting fixed it.", False),
    ("任务失败：夜间清理的定时任务时间不对，原因是时区是UTC；在crontab里设置TZ后解决。",
     "任务失败：清理定时任务提前八小时执行，原因是主机用的是UTC时区；在crontab中设置时区后解决。", False),
])
def test_the_slot_change_reading(old: str, new: str, changed: bool) -> None:
    assert changes_slot(old, new) is changed
