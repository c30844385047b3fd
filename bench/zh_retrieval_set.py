"""Score a Chinese / cross-lingual / superseded retrieval set through the real engine (issue 10's format).

DIR/memories.jsonl: {"id", "content", "type", "tags", "lang", "replaces": null|id}, written in file order
into one namespace of a temp SQLite file with the real embedder and the engine's own hygiene (which must
find the replacements itself: `replaces` is only the ground truth).
DIR/queries.jsonl: {"query", "relevant": [ids], "stale": [ids], "category"}.
Protocol (issue 10's): memory i is written with event_time T0 + i hours; every search runs at
now = the last event time + 30 days. `split`: "dev" = queries whose 0-based line number mod 5 is 0, 1 or 2
(60%, for tuning), "held" = the rest (scored once), "all" = every query.

Reported per category: hit@5 (a relevant memory in the top 5) and MRR; for every query with stale ids
(category "superseded" in the issue's sets) the rate at which a stale memory is returned *as current*:
in the top 5 with status active and not marked `current: false` (read-time currency), or ranked above the
first relevant one. Also how the writes went
(created / duplicate / superseded / supplemented / quarantined) and whether each `replaces` was found.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status

TOP_K = 5
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run_set(directory: Path, embedder: Any, top_k: int = TOP_K, split: str = "all") -> dict[str, Any]:
    memories = _jsonl(directory / "memories.jsonl")
    queries = [q for i, q in enumerate(_jsonl(directory / "queries.jsonl"))
               if split == "all" or (i % 5 < 3) == (split == "dev")]
    now = T0 + timedelta(hours=len(memories), days=30)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "set.db"
        settings = HindsightSettings(db=db)
        settings.retrieval.record_access = False
        engine = MemoryEngine.open(db, settings=settings, embedder=embedder)
        try:
            key_of: dict[str, str] = {}  # stored memory id -> set id (a duplicate maps to the one it merged into)
            merged_into: dict[str, str] = {}
            actions: Counter[str] = Counter()
            for i, m in enumerate(memories):
                outcome = engine.store_memory({"content": m["content"], "type": m.get("type", "semantic"),
                                               "tags": m.get("tags") or [], "event_time": T0 + timedelta(hours=i)})
                actions[outcome.action] += 1
                if outcome.action == "duplicate":
                    merged_into[m["id"]] = key_of.get(outcome.memory_id, outcome.memory_id)
                else:
                    key_of[outcome.memory_id] = m["id"]
            stored_id = {v: k for k, v in key_of.items()}
            replacements = [(m["id"], m["replaces"]) for m in memories if m.get("replaces")]
            found = 0
            for _new, old in replacements:
                old_record = engine.store.get(stored_id.get(old, ""))
                if old_record is not None and old_record.status == Status.deprecated:
                    found += 1
            per: dict[str, list[float]] = defaultdict(list)
            stale_current: dict[str, list[float]] = defaultdict(list)
            misses = []
            for q in queries:
                hits = engine.search(q["query"], top_k=top_k, now=now)
                ranked = [key_of.get(h.memory.id) for h in hits]
                relevant = set(q["relevant"]) | {k for k, v in merged_into.items() if v in q["relevant"]}
                rank = next((i for i, key in enumerate(ranked, 1) if key in set(q["relevant"])), None)
                per[q.get("category", "?")].append(1.0 if rank else 0.0)
                per["_mrr_" + q.get("category", "?")].append(1.0 / rank if rank else 0.0)
                if not rank:
                    misses.append({"query": q["query"], "category": q.get("category"),
                                   "relevant": q["relevant"], "got": ranked})
                stale = set(q.get("stale") or [])
                if stale:
                    as_current = False
                    for i, (key, hit) in enumerate(zip(ranked, hits), 1):
                        if key in stale and key not in relevant and (
                                (hit.memory.status == Status.active and hit.current) or (rank is None or i < rank)):
                            as_current = True
                    stale_current[q.get("category", "?")].append(1.0 if as_current else 0.0)
        finally:
            engine.close()
    categories = sorted(k for k in per if not k.startswith("_mrr_"))
    return {
        "split": split,
        "memories": len(memories),
        "queries": len(queries),
        "writes": dict(actions),
        "replacements_found": f"{found}/{len(replacements)}",
        f"hit@{top_k}": {c: round(statistics.fmean(per[c]), 4) for c in categories},
        "hits": {c: f"{int(sum(per[c]))}/{len(per[c])}" for c in categories},
        "mrr": {c: round(statistics.fmean(per["_mrr_" + c]), 4) for c in categories},
        "stale_returned_as_current": {c: round(statistics.fmean(v), 4) for c, v in stale_current.items()},
        "misses": misses,
    }
