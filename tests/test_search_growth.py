"""Keyword search costs the same at n and 4n memories once a term is common (issue 14, "Search cost at scale").

FTS5 scores every memory an OR-term of the query matches, so a word most memories hold made the read path's BM25
channel linear in the store (85 ms CPU a query at 100k synthetic memories). Terms more than
`SQLiteSearch.keyword_term_cap` memories hold are now left out of it; a query of common terms only ranks the newest
cap matches. A store whose rowids stay at or below the cap is searched exactly as before. The bound is checked
through SQLite's count of virtual-machine steps, never the clock."""

from __future__ import annotations

from typing import Any

import pytest
from test_supersede_growth import _fill

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryType, Status
from hindsight.storage.base import Scope
from hindsight.text.tokenize import query_terms

SCOPE = Scope(namespace="default", statuses=(Status.active,),
              types=tuple(t for t in MemoryType if t != MemoryType.working))
CAP = 32
CASES = [  # (a memory most hold, the one rare memory, the query)
    ("the deploy of service {i} finished", "a zebra crossed the deploy road", "zebra deploy"),
    ("第{i}个服务的部署完成了", "斑马穿过了部署的路", "斑马 部署"),
]


def _sqlite(engine: MemoryEngine) -> Any:
    return getattr(engine.store, "inner", engine.store)


def _searched(engine: MemoryEngine, query: str) -> tuple[list[str], int]:
    """The keyword channel's ids for `query` and the SQLite VM steps its calls took."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store = _sqlite(engine)
    with store._read() as db:  # this thread's reader: the one keyword_search uses
        db.set_progress_handler(count, 1)
    try:
        hits = engine.store.keyword_search(SCOPE, query_terms(query), 10)
    finally:
        with store._read() as db:
            db.set_progress_handler(None, 1)
    return [mid for mid, _ in hits], steps[0]


@pytest.mark.parametrize(("common", "rare", "query"), CASES)
def test_a_common_word_does_not_make_keyword_search_grow(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch,
                                                         common: str, rare: str, query: str) -> None:
    monkeypatch.setattr(_sqlite(engine), "keyword_term_cap", CAP, raising=False)
    _fill(engine, [common.format(i=i) for i in range(100)] + [rare])
    zebra = engine.store.list(SCOPE, limit=1)[0].id  # the newest: the rare memory
    small_hits, small_steps = _searched(engine, query)
    _, small_common_steps = _searched(engine, common.format(i=""))
    _fill(engine, [common.format(i=i) for i in range(100, 500)])
    large_hits, large_steps = _searched(engine, query)
    common_hits, large_common_steps = _searched(engine, common.format(i=""))
    assert small_hits[0] == zebra and large_hits[0] == zebra
    assert large_steps < 1.5 * small_steps  # 5x the memories; before: ~5x the steps
    assert large_common_steps < 1.5 * small_common_steps
    assert len(common_hits) == 10


@pytest.mark.parametrize(("common", "rare", "query"), CASES)
def test_a_store_at_the_cap_ranks_as_before(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch,
                                            common: str, rare: str, query: str) -> None:
    _fill(engine, [common.format(i=i) for i in range(CAP - 1)] + [rare])
    exact = _searched(engine, query)[0], _searched(engine, common.format(i=""))[0]
    monkeypatch.setattr(_sqlite(engine), "keyword_term_cap", CAP, raising=False)  # every memory holds the common word
    assert (_searched(engine, query)[0], _searched(engine, common.format(i=""))[0]) == exact
    assert len(exact[0]) == 10
