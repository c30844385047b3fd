"""hit@5 per category of `bench/xling_dump.py` rows (the ids the search returned): before / after tables.

    python bench/xling_score.py before_r5.jsonl after_r5.jsonl ...
"""
import json
import sys
from collections import defaultdict

CATS = ("zh_paraphrase", "en_paraphrase", "zh_to_en", "en_to_zh", "superseded")
print("file | " + " | ".join(CATS) + " | all")
for path in sys.argv[1:]:
    hit = defaultdict(list)
    for line in open(path, encoding="utf-8"):
        q = json.loads(line)
        ok = bool(set(q["returned"][:5]) & set(q["relevant"]))
        hit[q["cat"]].append(ok)
        hit["all"].append(ok)
    print(path, "|", " | ".join(f"{sum(v)}/{len(v)} = {sum(v) / len(v):.3f}" if (v := hit[c]) else "-"
                                for c in (*CATS, "all")))
