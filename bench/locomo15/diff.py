"""Which questions moved between two per-question runs (`perq.py` outputs), and why (measurement only).

    python bench/locomo15/diff.py A.json B.json [CATEGORY]

Per question whose R@10 differs: the evidence turns each run ranks (place in the top 20, else 'first pass P' or
'-'), their status in each store, and which turns took the top-10 places in B that A did not have.
"""
import json
import sys
from collections import defaultdict

a_rows, b_rows = (json.load(open(p)) for p in sys.argv[1:3])
want = sys.argv[3] if len(sys.argv) > 3 else None


def r10(row):
    return len(set(row["evidence"]) & set(row["top"][:10])) / len(set(row["evidence"]))


def place(row, e):
    if e in row["top"]:
        return str(row["top"].index(e) + 1)
    if e in row["first"]:
        return f"fp{row['first'].index(e) + 1}"
    return "-"


by_cat = defaultdict(lambda: [0.0, 0.0, 0])
moved = []
for a, b in zip(a_rows, b_rows):
    assert a["q"] == b["q"]
    ra, rb = r10(a), r10(b)
    by_cat[a["cat"]][0] += ra
    by_cat[a["cat"]][1] += rb
    by_cat[a["cat"]][2] += 1
    if ra != rb and (want is None or a["cat"] == want):
        moved.append((rb - ra, a, b))
for cat, (sa, sb, n) in sorted(by_cat.items()):
    print(f"{cat:12s} n={n:4d} A {sa / n:.3f} B {sb / n:.3f} diff {(sb - sa) / n:+.4f} (questions' worth {sb - sa:+.2f})")
print()
for d, a, b in sorted(moved, key=lambda x: x[0]):
    print(f"{d:+.2f} conv {a['conv']} [{a['cat']}] {a['q']}")
    for e in a["evidence"]:
        print(f"    {e}: A {place(a, e):>6s} ({a['status'].get(e)})  B {place(b, e):>6s} ({b['status'].get(e)})")
    print("    B's top 10 not in A's:", [x for x in b["top"][:10] if x not in a["top"][:10]],
          " A's not in B's:", [x for x in a["top"][:10] if x not in b["top"][:10]])
