"""The wide search for an older version costs the same at 1k and 100k memories (issue 14, ninth write-cost round).

A write that signals a change also looks for the older version by BM25 over its terms (`supersede.wide_candidates`).
FTS5 scores every memory an OR-term matches, so one common word made that search linear in the store (1.5 ms at 1k,
11 ms at 10k, 100 ms at 100k memories). Terms more than `WIDE_TERM_CAP` memories contain are now left out of it, each
counted up to the cap only (`SQLiteSearch.frequent_terms`); a store smaller than the cap is searched as before."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage.base import Scope
from hindsight.write import supersede

SCOPE = Scope(namespace="default", statuses=(Status.active,),
              types=tuple(t for t in MemoryType if t != MemoryType.working))
NEW = "We no longer deploy with WireGuard, we moved to Tailscale"


def _fill(engine: MemoryEngine, texts: list[str]) -> None:
    rng = np.random.default_rng(0)
    now = engine.clock()
    rows = []
    for i, text in enumerate(texts):
        vector = rng.normal(size=engine.embedder.dim).astype(np.float32)
        record = MemoryRecord(content=text, created_at=now - timedelta(minutes=len(texts) - i), updated_at=now)
        rows.append((record, vector / np.linalg.norm(vector)))
    engine.store.insert_many(rows, actor="test")


def _spy(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    asked: list[list[str]] = []
    search = engine.store.keyword_search

    def spy(scope: Scope, terms: Any, limit: int, *args: Any) -> Any:
        asked.append(list(terms))
        return search(scope, terms, limit, *args)

    monkeypatch.setattr(engine.store, "keyword_search", spy)
    return asked


def test_frequent_terms_are_counted_up_to_the_cap(engine: MemoryEngine) -> None:
    _fill(engine, [f"the deploy of service {i} finished" for i in range(8)]
          + ["WireGuard is the VPN", "数据库迁移完成了", "数据库迁移失败了"])
    assert engine.store.frequent_terms(["deploy", "wireguard", "数据库", "absent"], 5) == {"deploy"}
    assert engine.store.frequent_terms(["deploy", "数据库"], 1) == {"deploy", "数据库"}
    assert engine.store.frequent_terms(["deploy"], 8) == set()  # eight, not more than eight


def test_the_wide_search_leaves_out_a_term_most_memories_hold(engine: MemoryEngine,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(engine, [f"the deploy of service {i} finished" for i in range(8)] + ["WireGuard is the VPN"])
    monkeypatch.setattr(supersede, "WIDE_TERM_CAP", 5, raising=False)
    asked = _spy(engine, monkeypatch)
    vector = np.ones(engine.embedder.dim, dtype=np.float32)
    supersede.wide_candidates(engine.store, SCOPE, vector, NEW, set(), 0.0)
    assert asked and "deploy" not in asked[0] and "wireguard" in asked[0] and "tailscale" in asked[0]


def test_a_store_under_the_cap_is_searched_with_every_term(engine: MemoryEngine,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(engine, [f"the deploy of service {i} finished" for i in range(8)] + ["WireGuard is the VPN"])
    asked = _spy(engine, monkeypatch)
    vector = np.ones(engine.embedder.dim, dtype=np.float32)
    supersede.wide_candidates(engine.store, SCOPE, vector, NEW, set(), 0.0)
    assert asked == [["longer", "deploy", "wireguard", "wire", "guard", "moved", "tailscale"]]
