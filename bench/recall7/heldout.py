"""The per-speaker split (p = 2 places each, every turn of the topic search) by conversation, and on the
questions that name two speakers (recall7; measurement only).

    python bench/recall7/heldout.py COL CONVS...
"""
import sys

from fuse import CONVS, data, fmt, table, v_each

for c in CONVS:
    qs = [q for q in data if q["conv"] == c]
    print(f"conv {c} ({len(qs)} questions): shipped {fmt(table(lambda q: q['base'], qs))} | "
          f"per speaker {fmt(table(lambda q: v_each(q, (2, 50)), qs))}")
two = [q for q in data if len(set(q["names"]) & set(q["store"]["speaker"])) >= 2]
print(f"two named speakers ({len(two)}): shipped {fmt(table(lambda q: q['base'], two))} | "
      f"per speaker {fmt(table(lambda q: v_each(q, (2, 50)), two))}", file=sys.stdout)
