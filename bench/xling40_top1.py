"""Round 40: how often the glossed channel's first hit is a relevant memory, by the question's script and category,
against main's top 5 (the rows of `xling32_eval.py`).

    PYTHONPATH=src:bench python bench/xling40_top1.py STORES OUT_DIR r27 ... r37 > top1.json

Key: script / category / first hit relevant or not / main hit or miss / the first hit already in main's top 5 or not.
"""

import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from xling40_gloss import GlossIndex

from hindsight.retrieval.crosslingual import bias_group


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    tally: Counter = Counter()
    for rnd in sys.argv[3:]:
        ids = json.loads((stores / rnd / "ids.json").read_text())
        inv = {v: k for k, v in ids.items()}
        db = sqlite3.connect(stores / rnd / "m.db")
        index = GlossIndex(db.execute("SELECT id, content FROM memories WHERE namespace = 'r' AND status = 'active'"))
        db.close()
        for line in open(out / f"main_{rnd}.jsonl", encoding="utf-8"):
            q = json.loads(line)
            hits = index.search(q["query"], 1)
            if not hits:
                tally[f"{bias_group(q['query'])} / {q['cat']} / no glossed hit"] += 1
                continue
            first = inv.get(hits[0][0])
            tally[" / ".join((bias_group(q["query"]), q["cat"], "first relevant" if first in q["relevant"] else
                              "first other", "main hit" if q["hit"] else "main miss",
                              "in main's top 5" if first in q["returned"] else "not in main's top 5"))] += 1
    print(json.dumps(dict(sorted(tally.items())), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
