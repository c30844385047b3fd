import json
import sys
from collections import Counter
from datetime import timedelta

sys.path.insert(0, "bench")
from locomo import CATEGORIES, DATA, questions, turns

from hindsight.retrieval.query_parser import parse_query

samples = json.loads(DATA.read_text())
c = Counter()
for ci, s in enumerate(samples):
    items = turns(s)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    when = {i["metadata"]["dia_id"]: i["event_time"] for i in items}
    for q in questions(s):
        p = parse_query(q["question"], now)
        if p.time_from is None and p.time_to is None:
            continue
        split = "dev" if ci < 4 else "test"
        c[(split, "with window", p.time_is_hard)] += 1
        for e in q["evidence"]:
            t = when.get(e)
            if t is None:
                continue
            if p.time_from and t < p.time_from:
                c[(split, "before", p.time_is_hard)] += 1
                d = (p.time_from - t).days
            elif p.time_to and t >= p.time_to:
                c[(split, "after", p.time_is_hard)] += 1
                d = (t - p.time_to).days
                print(split, CATEGORIES[q["category"]], "AFTER", d, "days", q["question"], "|", p.time_expression, p.time_from, p.time_to)
            else:
                c[(split, "inside", p.time_is_hard)] += 1
                continue
            if "before" not in str(d):
                pass
for k, v in sorted(c.items(), key=str):
    print(k, v)
