"""A visible demo: stores bilingual memories and runs searches, printing why each result ranked."""

from __future__ import annotations

from datetime import timedelta

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hindsight.cli_common import clip
from hindsight.engine import MemoryEngine

DEMO_NAMESPACE = "demo"

DEMO_MEMORIES = [
    {"content": "The user prefers TypeScript over JavaScript for new frontend code.", "type": "semantic",
     "source": "user", "tags": ["preference", "typescript"], "importance": 0.9},
    {"content": "处理 PostgreSQL 连接池耗尽问题时，将 max_connections 从 100 调到 200 并重启服务解决。",
     "type": "episodic", "tags": ["database", "postgresql"], "context": "适用于中小规模应用连接数突增导致的池耗尽场景",
     "importance": 0.8, "days_ago": 3},
    {"content": "Deploying with `make release` failed twice because the staging token expired; refresh it first.",
     "type": "warning", "tags": ["deploy"], "importance": 0.6, "days_ago": 10},
    {"content": "用户希望以后都用中文回复。", "type": "semantic", "source": "user", "tags": ["preference", "language"],
     "importance": 0.9},
    {"content": "Database migration to v42 ran on staging; the orders table needed a backfill of the status column.",
     "type": "episodic", "tags": ["database", "migration"], "days_ago": 6},
]

DEMO_QUERIES = [
    "what language does the user like for frontend?",
    "数据库连接数不够怎么办",
    "上周的数据库迁移",
    "deployment pitfalls",
]


def run_demo(engine: MemoryEngine, console: Console) -> None:
    """Store the demo memories (idempotent per run) and print a table per query."""
    now = engine.clock()
    items = []
    for memory in DEMO_MEMORIES:
        item = {k: v for k, v in memory.items() if k != "days_ago"}
        item["event_time"] = now - timedelta(days=float(memory.get("days_ago", 0)))  # type: ignore[arg-type]
        item["namespace"] = DEMO_NAMESPACE
        items.append(item)
    for outcome in engine.store_many(items, actor="demo"):
        console.print(f"  {outcome.action:<10} {outcome.memory_id}")
    for query in DEMO_QUERIES:
        table = Table("score", "type", "content", "dense#", "kw#", title=f"search: {query}")
        for hit in engine.search(query, DEMO_NAMESPACE, top_k=3):
            table.add_row(f"{hit.score:.3f}", hit.memory.type.value, escape(clip(hit.memory.content, 70)),
                          str(hit.why.dense_rank or "-"), str(hit.why.keyword_rank or "-"))
        console.print(table)
