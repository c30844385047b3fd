"""Where the relevant memory of each missed query sat (issue 10, round 8), over `bench/xling_diag.py` rows.

    python bench/xling_miss.py diag_r1.jsonl diag_r2.jsonl ... [--list]

Per category: queries, hit@5, and the misses by where the best-placed relevant memory was: fused rank 1-5 but
lost after fusion (second pass, re-ranker, currency), fused 6-20 (inside the re-ranker's pool), fused > 20, in
no channel (not in the dense pool, keyword, cross-lingual or gloss lists), or not active (retired or
quarantined on write). With --list, one line per miss with its rank in each channel.
"""
import json
import sys
from collections import Counter, defaultdict

COLS = ("n", "hit@5", "fused 1-5, lost after", "fused 6-20", "fused > 20", "in no channel", "deprecated",
        "quarantined")
CATS = ("zh_paraphrase", "en_paraphrase", "zh_to_en", "en_to_zh", "superseded")
table: dict[str, Counter] = defaultdict(Counter)
for path in (p for p in sys.argv[1:] if not p.startswith("--")):
    for line in open(path, encoding="utf-8"):
        q = json.loads(line)
        row = table[q["cat"]]
        row["n"] += 1
        if q["hit"]:
            row["hit@5"] += 1
            continue
        best = min(q["rel"], key=lambda w: w["fused"] or 10**6)
        if best["status"] != "active":
            where = best["status"]
        elif best["fused"] is None:
            where = "in no channel"
        else:
            where = "fused 1-5, lost after" if best["fused"] <= 5 else "fused 6-20" if best["fused"] <= 20 else "fused > 20"
        row[where] += 1
        if "--list" in sys.argv:
            print(path, q["cat"], where, best["ch"], "fused", best["fused"], "|", q["query"][:60], "|",
                  (best["text"] or "")[:60])
print("| category | " + " | ".join(COLS) + " |")
print("|---" * (len(COLS) + 1) + "|")
for cat in CATS:
    print(f"| {cat} | " + " | ".join(str(table[cat][c]) for c in COLS) + " |")
