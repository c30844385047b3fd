"""`rerank23_fit.py` over `xling32_sim.py --cands` rows with another pool size, per round and category (issue 10,
round 32).

    PYTHONPATH=src:bench python bench/xling32_fit.py POOL DIR main tr,all [--write DIR] [--all FILE] [--C 0.1]
    PYTHONPATH=src:bench python bench/xling32_fit.py POOL DIR --table SET [C] > table.json

POOL: how many of each question's fused candidates the learned order reads (20 ships). The first form is
rerank23_fit's own; `--table` writes round -> {"dump", "shipped", "held_out"} -> category -> hits (each round
re-ordered by a model of SET's columns fitted on the other rounds), for `xling32_loro.py`.
"""

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import rerank23_fit as fit


def table(folder: Path, name: str, c: float) -> dict:
    data: dict[str, list[dict]] = {}
    for p in sorted(folder.glob("main_r*.jsonl")):
        data[p.stem[len("main_"):]] = [json.loads(line) for line in open(p, encoding="utf-8")]
        for q in data[p.stem[len("main_"):]]:
            q["m"] = fit.matrix(q) if q["cands"] else np.zeros((0, len(fit.COLUMNS)))
    shipped = json.loads(fit.xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [fit.COLUMNS.index(n) for n in shipped["features"]]
    names = fit.sets()[name]
    cols = [fit.COLUMNS.index(n) for n in names]
    out = {}
    for rnd in data:
        others = [r for r in data if r != rnd]
        model = fit.fit([q for r in others for q in data[r] if q["cands"]], cols, names, others, c)
        row = {"dump": Counter(), "shipped": Counter(), "held_out": Counter()}
        for q in data[rnd]:
            row["dump"][q["cat"]] += q["hit"]
            row["shipped"][q["cat"]] += fit.offline_hit(q, shipped, ship_cols, False)
            row["held_out"][q["cat"]] += fit.offline_hit(q, model, cols)
        out[rnd] = {k: dict(v) for k, v in row.items()}
    return out


if __name__ == "__main__":
    fit.POOL = int(sys.argv.pop(1))
    if sys.argv[2] == "--table":
        print(json.dumps(table(Path(sys.argv[1]), sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 0.1)))
    else:
        fit.main()
