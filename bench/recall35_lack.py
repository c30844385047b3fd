"""What the reachable misses look like to the learned order (issue 10, round 35): for each question the dump missed
whose relevant memory is in the fused top 6 - 30, where the answer's raw cosine, keyword rank and word overlap sit
against the five candidates the dump ranked first (`xling32_sim.py --cands 30` rows; columns of `xling_rerank`).

    PYTHONPATH=src:bench python bench/recall35_lack.py DIR [DIR ...] > lack.json
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from hindsight.retrieval.xling_rerank import FEATURES, features_of

COL = {n: k for k, n in enumerate(FEATURES)}
out: dict = defaultdict(Counter)
examples: dict = defaultdict(list)
for folder in sys.argv[1:]:
    for p in sorted(Path(folder).glob("main_r*.jsonl")):
        for line in open(p, encoding="utf-8"):
            q = json.loads(line)
            if q["hit"] or not q["cands"]:
                continue
            ids = [c["id"] for c in q["cands"]]
            places = [ids.index(x) for x in q["relevant"] if x in ids]
            if not places or min(places) < 5:
                continue
            k = min(places)
            rows = [features_of(q["text"], q["group"], c, j) for j, c in enumerate(q["cands"], start=1)]
            ans, head = rows[k], rows[:5]
            row = out[q["cat"]]
            row["reachable"] += 1
            below = sum(h[COL["cos"]] > ans[COL["cos"]] for h in head)
            row[f"cos_below_{below}_of_head"] += 1
            row["answer_keyword_hit"] += ans[COL["keyword_rrank"]] > 0
            row["answer_word_overlap>0"] += (ans[COL["words_same"]] + ans[COL["han_chars"]] + ans[COL["gloss_shared"]]
                                             + ans[COL["tokens"]]) > 0
            row["answer_same_script"] += ans[COL["same_script"]] == 1.0
            if len(examples[q["cat"]]) < 6:
                examples[q["cat"]].append({"round": q["round"], "line": q["line"], "query": q["text"], "place": k + 1,
                                           "answer": q["cands"][k]["text"][:120],
                                           "first": q["cands"][0]["text"][:120],
                                           "answer_cos": round(ans[COL["cos"]], 3),
                                           "head_cos": [round(h[COL["cos"]], 3) for h in head]})
print(json.dumps({"counts": {k: dict(sorted(v.items())) for k, v in out.items()}, "examples": examples},
                 ensure_ascii=False, indent=1))
