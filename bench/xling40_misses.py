"""Round 40: every paraphrase / cross-lingual miss with where its answer is - each channel's rank, the fused rank, the
final deep rank, quarantined / retired - and its rank in the write-side gloss channel (`gloss_index`).

    PYTHONPATH=src:bench python bench/xling40_misses.py STORES OUT_DIR r35 r36 ... > misses.json

Reads `xling32_eval.py`'s main rows (XLING_DEEP=1: OUT_DIR/main_ROUND.jsonl) and `recall34_causes.cause`; the
glossed rank is the answer's place in `GlossIndex.search` over the round's stored memories (active ones only).
"""

import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from recall34_causes import CATS, cause
from xling40_gloss import GlossIndex


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    rows, tally = [], Counter()
    for rnd in sys.argv[3:]:
        ids = json.loads((stores / rnd / "ids.json").read_text())
        db = sqlite3.connect(stores / rnd / "m.db")
        index = GlossIndex(db.execute("SELECT id, content FROM memories WHERE namespace = 'r' AND status = 'active'"))
        db.close()
        for line in open(out / f"main_{rnd}.jsonl", encoding="utf-8"):
            row = json.loads(line)
            if row["cat"] not in CATS or row["hit"] or "where" not in row:
                continue
            kind, info = cause(row)
            glossed = [mid for mid, _ in index.search(row["query"], 200)]
            grank = min((glossed.index(ids[s]) + 1 for s in row["relevant"] if ids.get(s) in glossed), default=None)
            tally[(row["cat"], kind)] += 1
            tally[(row["cat"], "glossed<=10")] += bool(grank and grank <= 10)
            rows.append({"round": rnd, "line": row["line"], "cat": row["cat"], "query": row["query"], "cause": kind,
                         "glossed_rank": grank, **info})
    summary: dict = {}
    for (cat, kind), n in sorted(tally.items()):
        summary.setdefault(cat, {})[kind] = n
    print(json.dumps({"summary": summary, "misses": rows}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
