"""The dictionary lane's first hits, found by no other lane: how often the answer (issue 10, round 34; offline).

    PYTHONPATH=src:bench python bench/recall34_dict_lone.py DUMP_DIR r26 r27 ...   # xling32_dump.py's dumps

Counts, per question script and the lane's rank 1 - 3: (script, rank, lone / shared, relevant, question hit).
"""

import sys
from collections import Counter
from pathlib import Path

from xling32_sim import load

from hindsight.retrieval.crosslingual import bias_group

D = Path(sys.argv[1])
c = Counter()
for rnd in sys.argv[2:]:
    mems, qs, vec, qvs = load(D, rnd)
    for q in qs:
        sc = q["scored"]
        if "translated" not in sc or not sc["translated"]:
            continue
        zh = bias_group(q["text"] or q["query"]) == "zh"
        for k in (1, 2, 3):
            if len(sc["translated"]) < k:
                continue
            mid = sc["translated"][k - 1][0]
            others = [n for n in sc if n not in ("translated",) and mid in [m for m, _ in sc[n]]]
            rel = mid in q["relevant"]
            lone = not others
            c[(("zh" if zh else "en"), k, "lone" if lone else "shared", rel, q["hit"])] += 1
for k, v in sorted(c.items()):
    print(k, v)
