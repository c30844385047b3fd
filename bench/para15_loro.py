"""Leave-one-round-out over `bench/para15_keyword_coverage.py` rows: each held-out round gets the variant with the
most hits (all categories) on the other rounds, ties to `base`; prints the choices and the pooled held-out hits.

    python bench/para15_loro.py rows_r2.jsonl rows_r4.jsonl ...
"""

import collections
import json
import sys

c = collections.Counter()
cc = collections.Counter()
for f in sys.argv[1:]:
    for line in open(f):
        q = json.loads(line)
        c[q["r"], q["v"]] += q["hit"]
        cc[q["r"], q["v"], q["cat"]] += q["hit"]
rs = sorted({k[0] for k in c}, key=int)
vs = sorted({k[1] for k in c}, key=lambda v: (v != "base", v))
out = collections.Counter()
for r in rs:
    tot = {v: sum(c[x, v] for x in rs if x != r) for v in vs}
    best = max(vs, key=lambda v: (tot[v], v == "base"))
    print("held out", r, "chosen", best, {v: tot[v] for v in vs})
    for cat in ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded"):
        out[cat, "chosen"] += cc[r, best, cat]
        out[cat, "base"] += cc[r, "base", cat]
print({k: v for k, v in out.items()})
