"""A handful of mixed EN/ZH memories keeps the fused order: the cross-lingual re-ranker was fitted on full pools.

Before the gate, the re-ranker promoted an English preference above the Chinese answer to a Chinese question on a
three-memory store (and the reverse on a six-memory store), so these failed (seen in test_cli/test_migrate).
"""
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine

CASES = [
    (["Prefer small pull requests under 300 lines", "部署前先在预发环境验证数据库迁移", "The team standup moved to 9:30"],
     "上线前要验证什么", "部署前先在预发环境验证数据库迁移"),
    (["The user prefers TypeScript over JavaScript.", "处理 PostgreSQL 连接池耗尽时把 max_connections 调到 200。",
      "Deploy failed because the staging token expired.", "用户喜欢简洁的回答。", "The VPN config lives in ops/vpn.md."],
     "which language does the user like", "The user prefers TypeScript over JavaScript."),
]


@pytest.mark.parametrize(("memories", "query", "answer"), CASES, ids=["zh-question", "en-question"])
def test_a_small_mixed_store_answers_the_obvious_question(tmp_path: Path, embedder: Embedder, memories: list[str],
                                                          query: str, answer: str) -> None:
    db = tmp_path / "m.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder)
    try:
        for text in memories:
            engine.store_memory({"content": text, "type": "semantic"})
        for _ in range(3):  # the same answer every time (caches warm or cold)
            assert engine.search(query, top_k=1)[0].memory.content == answer
    finally:
        engine.close()
