"""Leave-one-round-out over `bench/para16_misses.py` runs of several variants (issue 10, round 16).

    python bench/para16_loro.py DIR main,en2,en4     # reads DIR/VARIANT_rN.jsonl; the first variant is main

For each held-out round the variant with the most hits (all categories) on the other rounds is chosen, ties to the
earlier-listed; prints per round and category main -> chosen (held out) and each variant's own-sample totals.
"""

import collections
import glob
import json
import sys

folder, names = sys.argv[1], sys.argv[2].split(",")
hits: dict = collections.defaultdict(lambda: collections.Counter())  # (variant, round) -> category -> hits
size: dict = collections.defaultdict(lambda: collections.Counter())
for v in names:
    for f in glob.glob(f"{folder}/{v}_r*.jsonl"):
        r = f.rsplit("_r", 1)[1].split(".")[0]
        for line in open(f, encoding="utf-8"):
            q = json.loads(line)
            if q["kind"] == "q":
                hits[(v, r)][q["category"]] += q["hit"]
                size[(v, r)][q["category"]] += 1
rounds = sorted({r for v, r in hits if v == names[0]}, key=int)
rounds = [r for r in rounds if all((v, r) in hits for v in names)]
cats = sorted({c for v, r in hits for c in size[(v, r)]})
print("own sample (all rounds):")
for v in names:
    print(f"  {v}: " + ", ".join(f"{c} {sum(hits[(v, r)][c] for r in rounds)}" for c in cats)
          + f", all {sum(sum(hits[(v, r)].values()) for r in rounds)}")
held = collections.Counter()
base = collections.Counter()
print("\n| held out | chosen | " + " | ".join(cats) + " |\n" + "|---" * (len(cats) + 2) + "|")
for r in rounds:
    score = {v: sum(sum(hits[(v, o)].values()) for o in rounds if o != r) for v in names}
    best = max(names, key=lambda v: (score[v], -names.index(v)))
    held.update(hits[(best, r)])
    base.update(hits[(names[0], r)])
    print(f"| r{r} | {best} | " + " | ".join(f"{hits[(names[0], r)][c]} -> {hits[(best, r)][c]} / {size[(names[0], r)][c]}"
                                             for c in cats) + " |")
print("| pooled | | " + " | ".join(f"{base[c]} -> {held[c]}" for c in cats) + " |")
