"""A retired memory the question matches brings in its successor (`retrieval/successors.py`, issue 10 round 26), and
what the MCP view of a search hit says about currency (`present.hit_view`). Examples written for this test."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bag_embedder import BagEmbedder
from currency_hits import hit

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.present import hit_view
from hindsight.retrieval.successors import current_successor, pull_successors
from hindsight.write.hygiene import deprecate

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def _rec(mid: str, status: Status = Status.active, after: str | None = None, ns: str = "n") -> MemoryRecord:
    return MemoryRecord(id=mid, content=mid, namespace=ns, type=MemoryType.semantic, status=status,
                        metadata={"superseded_by": after} if after else {})


def _records(*recs: MemoryRecord):  # type: ignore[no-untyped-def]
    table = {r.id: r for r in recs}
    return lambda ids: {i: table[i] for i in ids if i in table}


def test_the_chain_ends_at_the_active_version_of_its_own_namespace() -> None:
    v1, v2, v3 = _rec("v1", Status.deprecated, "v2"), _rec("v2", Status.deprecated, "v3"), _rec("v3")
    assert current_successor(v1, _records(v1, v2, v3)).id == "v3"  # type: ignore[union-attr]
    elsewhere = _rec("v3", ns="other")
    assert current_successor(v1, _records(v1, v2, elsewhere)) is None
    loop = _rec("v2", Status.deprecated, "v1")
    assert current_successor(v1, _records(v1, loop)) is None


def test_a_matched_retired_memory_places_its_successor_where_it_would_rank() -> None:
    hits = [hit("a", "a", 1), hit("b", "b", 2), hit("c", "c", 3)]
    old, new = _rec("old", Status.deprecated, "new"), _rec("new")
    made = hit("new", "new", 9)
    out = pull_successors(hits, 3, [("a", 0.9), ("b", 0.8), ("c", 0.7)], [("old", 0.85)], 3,
                          _records(old, new), lambda record, score: made)
    assert [h.memory.id for h in out] == ["a", "new", "b", "c"] and made.why.found_via == "old"
    # a retired memory below the best `within` active ones, or a successor already in the head: nothing moves
    kept = [hit("a", "a", 1), hit("b", "b", 2), hit("c", "c", 3)]
    assert pull_successors(kept, 3, [("a", 0.9), ("b", 0.8)], [("old", 0.5)], 2, _records(old, new),
                           lambda record, score: made) == kept
    with_new = [hit("a", "a", 1), hit("new", "new", 2)]
    assert [h.memory.id for h in pull_successors(with_new, 2, [("a", 0.9)], [("old", 0.95)], 3, _records(old, new),
                                                 lambda record, score: made)] == ["a", "new"]


def test_search_finds_the_current_version_through_the_retired_wording(tmp_path: Path) -> None:
    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False)
    settings.retrieval.successor_within = 3
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        old = engine.store_memory({"content": "Requests for information on the clinic fit-out go to Aisha."}).memory_id
        new = engine.store_memory({"content": "Farah takes over as coordinator from next week."}).memory_id
        for text in ("The clinic waiting room seats twelve.", "Clinic invoices are paid monthly.",
                     "The fit-out budget is fixed.", "Information packs go out on Fridays."):
            engine.store_memory({"content": text})
        assert deprecate(engine.store, old, new, "changed", "test", NOW)
        hits = engine.search("who gets requests for information on the clinic fit-out now", top_k=3, now=NOW)
        assert hits[0].memory.id == new and hits[0].why.found_via == old
        # a question not about the present (successor_asked), or the setting off (0, the default): the old wording
        # finds no successor
        plain = engine.search("who gets requests for information on the clinic fit-out", top_k=3, now=NOW)
        assert new not in [h.memory.id for h in plain]
        settings.retrieval.successor_within = 0
        assert new not in [h.memory.id for h in engine.search("who gets requests for information on the clinic "
                                                               "fit-out now", top_k=3, now=NOW)]
    finally:
        engine.close()


def test_a_hit_that_is_not_current_says_which_memory_replaced_it_and_why() -> None:
    outdated = hit("old", "Dana's extension is 4417.", 0)
    outdated.current, outdated.why.outdated_by = False, "new"
    view = hit_view(outdated)
    assert view["current"] is False and view["superseded_by"] == "new"
    assert "newer hit" in view["not_current_because"]
    retired = hit("gone", "Dana's extension is 4400.", 0)
    retired.memory.status, retired.memory.metadata = Status.deprecated, {"superseded_by": "old"}
    assert hit_view(retired)["superseded_by"] == "old" and "replaced on write" in hit_view(retired)["not_current_because"]
    assert "not_current_because" not in hit_view(hit("new", "Dana's extension is 4452 now.", 9))
