"""A hard delete never leaves a `superseded_by` naming a memory that no longer exists (attack round 38, fixed in
round 39; docs/security.md "Integrity across processes and crashes").

Hygiene retires an older memory A when a newer B changes the fact: A is deprecated, `superseded_by` = B, an
Edge(B, A, "supersedes"). Hard-deleting B (`memory_delete` with confirm) left A deprecated and pointing at an id that
no longer existed: search flagged A "not current" because of a memory nobody can read, and the chain walk ended on
nothing. Now, in the delete's own transaction:

* B was itself replaced (B deprecated, `superseded_by` = C, C alive in the namespace): A is re-pointed to C (still
  deprecated; an Edge(C, A, "supersedes"); history row `relink`);
* B was the end of the chain: nothing replaces A's fact any more, so A is current again (status active, its
  importance from before the deprecation, the deprecation fields gone; history row `reinstate`, naming B as erased).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder
from conftest import FIXED_NOW
from mcp_helpers import mcp_session

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.server.mcp_server import build_server
from hindsight.write.hygiene import deprecate

OLD = "The team standup is at nine thirty in the small meeting room"
NEW = "The team standup moved to ten fifteen in the large meeting room"
NEWER = "The team standup moved again, to eleven, online only"
LINK_KEYS = ("superseded_by", "deprecated_at", "importance_before_deprecation")


def _open(target: str | Path) -> MemoryEngine:
    return MemoryEngine.open(target, settings=HindsightSettings(hygiene=False), embedder=BagEmbedder(words=True))


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryEngine]:
    target: str | Path = tmp_path / "m.db" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    eng = _open(target)
    yield eng
    eng.close()


def _chain(engine: MemoryEngine, *contents: str) -> list[str]:
    """Store `contents` and retire each by the next, as hygiene does on write."""
    ids = [engine.store_memory({"content": text, "importance": 0.7}).memory_id for text in contents]
    for old, new in zip(ids, ids[1:]):
        assert deprecate(engine.store, old, new, "a change of the same fact", "hygiene", FIXED_NOW)
    return ids


def _ids_named(engine: MemoryEngine) -> set[str]:
    """Every id a `superseded_by` or a supersedes edge names in the store."""
    named = {str(r.metadata["superseded_by"]) for r in engine.store.iter_all() if r.metadata.get("superseded_by")}
    named |= {e.src for e in engine.store.all_edges() if e.kind == "supersedes"}
    named |= {e.dst for e in engine.store.all_edges() if e.kind == "supersedes"}
    return named


def test_deleting_the_replacement_makes_the_older_memory_current_again(engine: MemoryEngine) -> None:
    old, new = _chain(engine, OLD, NEW)
    engine.delete(new, actor="admin", reason="entered by mistake")
    back = engine.get(old, record_access=False)
    assert back.status == Status.active and back.status_reason == ""
    assert back.importance == pytest.approx(0.7)
    assert not any(key in back.metadata for key in LINK_KEYS)
    last = engine.history(old)[-1]
    assert last.action == "reinstate" and new in last.note and "hard-deleted" in last.note
    assert _ids_named(engine) == set()
    hits = engine.search("standup meeting room")
    assert [h.memory.id for h in hits][:1] == [old] and hits[0].current


def test_deleting_a_middle_link_repoints_to_its_successor(engine: MemoryEngine) -> None:
    first, middle, last = _chain(engine, OLD, NEW, NEWER)
    engine.delete(middle, actor="admin")
    kept = engine.get(first, record_access=False)
    assert kept.status == Status.deprecated and kept.metadata["superseded_by"] == last
    assert kept.status_reason == f"superseded by {last}"
    assert engine.history(first)[-1].action == "relink"
    assert {(e.src, e.dst) for e in engine.store.all_edges() if e.kind == "supersedes"} == {(last, first)}
    assert middle not in _ids_named(engine)


def test_mcp_delete_then_get_search_and_history_name_no_missing_id(tmp_path: Path) -> None:
    engine = _open(tmp_path / "m.db")
    try:
        old, new = _chain(engine, OLD, NEW)
        with mcp_session(build_server(engine)) as client:
            client.call("memory_delete", memory_id=new, confirm=True, reason="entered by mistake")
            got = client.call("memory_get", memory_id=old)
            assert got["status"] == "active" and "superseded_by" not in (got.get("metadata") or {})
            found = client.call("memory_search", query="standup meeting room",
                                filters={"statuses": ["active", "deprecated"]})
            assert all(item.get("superseded_by") in (None, "") for item in found["results"])
            assert not found.get("not_current")
            actions = [row["action"] for row in client.call("memory_history", memory_id=old)["history"]]
            assert actions[-2:] == ["deprecate", "reinstate"]
    finally:
        engine.close()


def test_the_repair_commits_with_the_delete_or_not_at_all(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The link is repaired in the delete's own transaction: a delete that fails leaves the older memory as it was."""
    old, new = _chain(engine, OLD, NEW)

    def broken(memory_id: str, *, actor: str, note: str = "") -> None:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(engine.store, "delete", broken)
    with pytest.raises(RuntimeError):
        engine.delete(new, actor="admin")
    monkeypatch.undo()
    kept = engine.get(old, record_access=False)
    assert kept.status == Status.deprecated and kept.metadata["superseded_by"] == new
    assert engine.history(old)[-1].action == "deprecate"


def test_a_soft_forget_keeps_the_link_to_a_readable_memory(engine: MemoryEngine) -> None:
    """`memory_forget` keeps the row: the older memory stays retired, its link names a memory that can be read (and
    restored); only a hard delete repairs the link."""
    old, new = _chain(engine, OLD, NEW)
    engine.forget(new, reason="not sure about it", actor="admin")
    kept = engine.get(old, record_access=False)
    assert kept.status == Status.deprecated and kept.metadata["superseded_by"] == new
    assert engine.get(new, record_access=False).status == Status.forgotten
