import json
import statistics
import sys
from collections import Counter, defaultdict

d = json.load(open(sys.argv[1]))
def R(q, key, k=10): return sum(1 for e in q["evidence"] if (q[key].get(e) or 99999) <= k) / len(q["evidence"])
by = defaultdict(list)
for q in d:
    by[q["cat"]].append(q)
    by["all"].append(q)
print("ms p50", statistics.median(q["ms"] for q in d))
for cat, qs in by.items():
    print(f"{cat:12s} n={len(qs)} final R@10 {statistics.fmean(R(q,'final') for q in qs):.3f} first R@10 {statistics.fmean(R(q,'first') for q in qs):.3f} R@50final {statistics.fmean(R(q,'final',50) for q in qs):.3f}")
    # evidence-level: where are missed (final>10)
    c = Counter()
    for q in qs:
        for e in q["evidence"]:
            f = q["final"].get(e)
            if f and f <= 10:
                continue
            p = q["pool"].get(e)
            fr = q["first"].get(e)
            ca = q["cos_all"].get(e)
            dn = q["channels"].get("dense", {}).get(e)
            kw = q["channels"].get("keyword", {}).get(e)
            if f and f <= 20:
                c["final 11-20"] += 1
            elif f:
                c["final 21-50"] += 1
            elif p:
                c["in pool, final>50?"] += 1
            elif fr:
                c["first pass only (>50)"] += 1
            else:
                c["not in first pass"] += 1
            c["miss total"] += 1
            if not fr:
                c["notfp: cos_all<=100"] += (ca or 9999) <= 100
                c["notfp: cos_all<=200"] += (ca or 9999) <= 200
            if kw and not dn:
                c["kw only"] += 1
            if dn and not kw:
                c["dense only"] += 1
            if dn and kw:
                c["both"] += 1
            if not dn and not kw and fr:
                c["other channel"] += 1
    print("   ", dict(c))
