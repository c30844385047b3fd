"""Attack round 20 through the engine: what another namespace stores never moves a searcher's scores, ranking,
relevance or `why` (the keyword channel read FTS5's store-wide word counts; storage/keyword_stats.py)."""

from __future__ import annotations

from conftest import FIXED_NOW

from hindsight.engine import MemoryEngine

MINE = ["Kestrel is the code name of the data migration project", "The migration cutover is planned for Friday night",
        "Lunch with the platform team on Thursday", "The kestrel falcon nests near the old water tower"]
QUERIES = ["Kestrel", "when is the kestrel migration cutover", "falcon tower"]


def _seen(engine: MemoryEngine) -> list[list[tuple[str, float, float, dict[str, object]]]]:
    return [[(h.memory.id, h.score, h.relevance, h.why.model_dump())
             for h in engine.search(q, namespace="bob", top_k=4, now=FIXED_NOW, record_access=False)]
            for q in QUERIES]


def test_another_namespaces_writes_never_move_a_search(engine: MemoryEngine) -> None:
    for text in MINE:
        engine.store_memory({"content": text, "namespace": "bob"})
    before = _seen(engine)
    assert before[0] and before[0][0][3]["keyword_score"]
    for i in range(6):
        engine.store_memory({"content": f"Note {i} on the Kestrel acquisition: due diligence, migration of staff",
                             "namespace": "ops"})
        assert _seen(engine) == before, i
