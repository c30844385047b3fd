"""Evidence of windowed questions written outside the padded time filter, and whether its own text tells of the
window (recall9; measurement only).

    PYTHONPATH=../../src:. python told_where.py COL 0 1 2 3      (from this folder)
"""
import sys

from lists import load

from hindsight.retrieval.event_time import told_time

qs = load(sys.argv[1], [int(x) for x in sys.argv[2:]], own=False)
n = out = told = 0
for q in qs:
    lo, hi = q["scope"]
    if lo is None and hi is None:
        continue
    st = q["store"]
    for e in set(q["evidence"]):
        i = st["idx"].get(e)
        if i is None:
            continue
        n += 1
        t = st["time"][i]
        if (lo is None or t >= lo) and (hi is None or t <= hi):
            continue
        out += 1

        class Rec:  # what told_time reads
            content, reference_time = st["content"][i], t
        f, to = told_time(Rec)
        ok = f is not None and (hi is None or f <= hi) and (lo is None or (to or f) >= lo)
        told += ok
        print(q["cat"], q["q"][:70], "| filter", lo and lo.date(), hi and hi.date(), "| written", t.date(),
              "| tells", f and f.date(), to and to.date(), "IN" if ok else "")
print("evidence turns of windowed questions", n, "outside the padded filter", out, "telling of it", told)
