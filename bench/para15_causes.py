"""Causes table over `bench/para15_misses.py` rows (issue 10, round 15): one line per cause with each miss.

    python bench/para15_causes.py miss_r2.jsonl miss_r4.jsonl ...   # file names must contain miss_rN

Per miss: d = dense rank (by-script in a mixed pool), k = BM25 rank, f = first-pass fused place -> final place
(top 20), how many of the hits above it hold a BM25 vote / a cross-lingual or gloss vote, and the parsed filter.
"""

import collections
import json
import sys

tab = collections.defaultdict(list)
for f in sys.argv[1:]:
    r = f.split("miss_r")[1].split(".")[0]
    for line in open(f):
        q = json.loads(line)
        best = min(q["rel"], key=lambda w: w["ch"].get("fused") or 999)
        ch = best["ch"]
        d, k, fu = ch.get("dense"), ch.get("keyword"), ch.get("fused")
        kwled = sum(1 for a in q["ahead"] if a["ch"].get("keyword"))
        zh = sum(1 for a in q["ahead"] if a["ch"].get("crosslingual") or a["ch"].get("gloss"))
        if best["status"] != "active":
            c = f"answer {best['status']} on write"
        elif q["narrowed"] and best["outside_filter"] and not q["widened"]:
            c = "parsed filter excluded it"
        elif d is not None and d <= 10 and k is None and zh > kwled:
            c = "no shared word; dense 1-10; Chinese memories (cross-lingual/gloss votes) fill the top 5"
        elif d is not None and d <= 10 and k is None:
            c = "no shared word; dense 1-10; keyword-voted hits fill the top 5"
        elif d is None or d > 10:
            c = "embedder: dense > 10 or outside pool"
        else:
            c = "dense 1-10 with a BM25 vote; outranked after fusion/learned order"
        flt = ("time:" + str(q["time_expr"]) if q["time_hard"] else "") + (
            " type:" + ",".join(q["types"]) if q["type_hard"] else ""
        )
        if q["narrowed"]:
            flt += (" widened" if q["widened"] else " narrowed") + (
                " (answer outside)" if best["outside_filter"] else ""
            )
        tab[c].append(
            f"r{r}/{q['line']} (d{d}, k{k or '-'}, f{fu} -> {q['final'] or '>20'}; kw-led above {kwled}, zh above {zh}{'; ' + flt if flt else ''})"
        )
for c, v in sorted(tab.items(), key=lambda x: -len(x[1])):
    print(f"| {c} | {len(v)} | " + ", ".join(v) + " |")
