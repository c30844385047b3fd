"""Markdown tables of `recall35_fit.py`'s result (issue 10, round 35): pooled, and per round for one variant
in sample and held out against the dump.

    python bench/recall35_table.py FIT.json [VARIANT]
"""

import json
import sys

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")
res = json.load(open(sys.argv[1], encoding="utf-8"))
var = sys.argv[2] if len(sys.argv) > 2 else "G30"
p = res["pooled"]
print("| variant | " + " | ".join(CATS) + " | stale as current (offline) |")
print("|---|" + "---|" * (len(CATS) + 1))
for name, t in p.items():
    cells = [f"{t[c]} / {t['n_' + c]} ({t[c] / t['n_' + c]:.3f})" for c in CATS]
    print(f"| {name} | " + " | ".join(cells) + f" | {t['stale_current']} |")
print()
print("| round | " + " | ".join(f"{c}: dump / {var} in / out" for c in CATS) + " | stale: shipped offline / in / out |")
print("|---|" + "---|" * (len(CATS) + 1))
for rnd in res["rounds"]:
    row = res["per_round"][rnd]
    if f"{var}_out" not in row:
        continue
    cells = [f"{row['dump'][c]} / {row[var + '_in'][c]} / {row[var + '_out'][c]} of {row['dump']['n'].get(c, 0)}"
             for c in CATS]
    print(f"| {rnd} | " + " | ".join(cells) + f" | {row['shipped_offline']['stale_current']} / "
          f"{row[var + '_in']['stale_current']} / {row[var + '_out']['stale_current']} |")
print()
print(f"| {var} held out vs the dump | gained | lost |")
print("|---|---|---|")
for c in CATS:
    qs = [q for q in res["questions"].values() if q["cat"] == c and f"{var}_out" in q]
    gained = sum(q[f"{var}_out"] and not q["dump"] for q in qs)
    lost = sum(q["dump"] and not q[f"{var}_out"] for q in qs)
    print(f"| {c} | {gained} | {lost} |")
