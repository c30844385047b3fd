"""Redaction round 26: redaction alone (rules + shipped tagger) on every released PII set but r24 (the held-out writer).

    PYTHONPATH=<src> .venv/bin/python bench/redaction26_alone.py OUT.json

Dumps each row's output and whether it passes (secrets gone, keep words kept); prints per set and pooled. Since round
27 the loop is ``redaction27_alone.run`` (there with the held-out round as an argument).
"""
import json
import sys

from redaction27_alone import run, tally

out = run({"r24"})
json.dump(out, open(sys.argv[1], "w"), ensure_ascii=False)
tp = tl = np_ = nl = 0
for name, res in out.items():
    a, b, c, d = tally(res)
    tp, np_, tl, nl = tp + a, np_ + b, tl + c, nl + d
    print(name, f"{a}/{b}", f"{c}/{d}")
print("pooled", f"{tp}/{np_} {tp/np_:.4f}", f"{tl}/{nl} {tl/nl:.4f}")
