"""How far any re-order of the fused pool's top can move hit@5 (issue 10, round 35): per category, questions missed
by the dump whose relevant memory is in the top 10 / 20 / 30 fused candidates (`xling32_sim.py --cands 30` rows),
and questions with no candidates (a parsed filter or a single-script pool: the learned step does not run).

    python bench/recall35_ceiling.py DIR [DIR ...] > ceiling.json
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

out: dict = defaultdict(Counter)
for folder in sys.argv[1:]:
    for p in sorted(Path(folder).glob("main_r*.jsonl")):
        for line in open(p, encoding="utf-8"):
            q = json.loads(line)
            row = out[q["cat"]]
            row["questions"] += 1
            row["hits"] += q["hit"]
            if not q["cands"]:
                row["no_pool"] += 1
                row["no_pool_missed"] += not q["hit"]
                continue
            if q["hit"]:
                continue
            ids = [c["id"] for c in q["cands"]]
            place = min((ids.index(x) + 1 for x in q["relevant"] if x in ids), default=None)
            row["missed"] += 1
            key = ("in_top5_of_fused" if place <= 5 else "fused_6_10" if place <= 10 else "fused_11_20" if place <= 20
                   else "fused_21_30") if place else "not_in_30"
            row[key] += 1
print(json.dumps({k: dict(v) for k, v in out.items()}, indent=1))
