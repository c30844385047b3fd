"""Round 40, a view after the rule's result (not under it): the glossed channel's first hit given the 5th place of an
English question's top 5 when it is not there already, gated by how far it leads the channel's second hit; for a
Chinese question the same with the shipped query-side dictionary channel (`glossmatch.translated_ranked`: its words'
CC-CEDICT senses searched by BM25 over the English memories), whose first hit is read the same way.

    PYTHONPATH=src:bench python bench/xling40_slot.py STORES OUT_DIR r27 ... r37 > slot.json

Offline over `xling32_eval.py`'s main rows (the shipped top 5): the new top 5 is the first four and the glossed first
hit (an active memory). The gate t (first score >= t x second; a lone hit passes) is chosen leave-one-round-out from
GRID by the most hits@5 over the five categories on the other rounds (ties: the larger t), for each script apart (they
move disjoint questions). Access-count effects of the
changed head on later questions are not replayed.
"""

import json
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

from xling40_gloss import GlossIndex

from hindsight.config import HindsightSettings
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import translated_ranked
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

GRID = (1.0, 1.1, 1.25, 1.5, 2.0, 3.0, float("inf"))
CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def translated(store: SQLiteStore, query: str) -> list[tuple[str, float]]:
    """The shipped query-side dictionary channel's first two hits for a Chinese question (namespace "r", active)."""
    scope, r = Scope(namespace="r"), HindsightSettings().retrieval
    return translated_ranked(
        query, lambda terms: store.keyword_search(scope, terms, r.keyword_candidates, r.neighbour_weight),
        lambda mids: {mid: rec.content for mid, rec in store.get_many(mids).items()})[:2]


def main() -> None:
    stores, out, rounds = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    rows: dict[str, list[dict]] = {}
    for rnd in rounds:
        ids = json.loads((stores / rnd / "ids.json").read_text())
        inv = {v: k for k, v in ids.items()}
        db = sqlite3.connect(stores / rnd / "m.db")
        index = GlossIndex(db.execute("SELECT id, content FROM memories WHERE namespace = 'r' AND status = 'active'"))
        db.close()
        tmp = Path(tempfile.mkdtemp())
        shutil.copy(stores / rnd / "m.db", tmp / "m.db")  # a copy: opening a store may write to it
        store = SQLiteStore(tmp / "m.db")

        rows[rnd] = []
        for line in open(out / f"main_{rnd}.jsonl", encoding="utf-8"):
            q = json.loads(line)
            q["script"] = bias_group(q["query"])
            hits = index.search(q["query"], 2) if q["script"] == "en" else translated(store, q["query"])
            q["g1"] = inv.get(hits[0][0]) if hits else None
            q["ratio"] = (hits[0][1] / hits[1][1] if len(hits) > 1 else float("inf")) if hits else 0.0
            rows[rnd].append(q)
        store.close()

    def read(q: dict, t: float) -> tuple[bool, bool]:
        top = q["returned"]
        if q["g1"] and q["g1"] not in top and q["ratio"] >= t and t != float("inf"):
            top = top[:4] + [q["g1"]]
        hit = bool(set(q["relevant"]) & set(top))
        stale = bool(q.get("stale_current")) or (q["g1"] in top and q["g1"] in set(q.get("stale") or []) - set(q["relevant"]))
        return hit, stale

    def tally(picks: dict[str, tuple[float, float]]) -> dict:
        hit, n, stale = Counter(), Counter(), 0
        for rnd, (t_en, t_zh) in picks.items():
            for q in rows[rnd]:
                h, s = read(q, t_en if q["script"] == "en" else t_zh)
                hit[q["cat"]] += h
                n[q["cat"]] += 1
                stale += s
        return {**{c: [hit[c], n[c], round(hit[c] / n[c], 4)] for c in CATS if n[c]}, "stale_current": stale}

    def best(rs: list[str], script: str) -> float:
        return max(GRID, key=lambda t: (sum(read(q, t)[0] for r in rs for q in rows[r] if q["script"] == script), t))

    off = float("inf")
    folds = {r: (best([x for x in rounds if x != r], "en"), best([x for x in rounds if x != r], "zh")) for r in rounds}
    print(json.dumps({"rounds": rounds, "folds": {r: [str(t) for t in p] for r, p in folds.items()},
                      "main": tally({r: (off, off) for r in rounds}),
                      "held_out_en_only": tally({r: (p[0], off) for r, p in folds.items()}),
                      "held_out_zh_only": tally({r: (off, p[1]) for r, p in folds.items()}),
                      "held_out": tally(folds),
                      "each_t_en": {str(t): tally({r: (t, off) for r in rounds}) for t in GRID},
                      "each_t_zh": {str(t): tally({r: (off, t) for r in rounds}) for t in GRID}}, indent=1))


if __name__ == "__main__":
    main()
