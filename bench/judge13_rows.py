"""Judge, round 13: the hygiene rows of the 15 released rounds where some pair (existing/new, an other/new, the others
among themselves) has a cue-only change reading (`evidence.weak_anchor` and `change_evidence`): the only rows the
rule can move. Writes their [set.jsonl, line] list for bench/hygiene_rows.py.

    PYTHONPATH=src python bench/judge13_rows.py rows.json
"""
import json
import sys
from pathlib import Path

from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import change_evidence, weak_anchor

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13")
rows: list[list[object]] = []
pairs = 0
for rnd in ROUNDS:
    base = ROOT / "bench/data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    f = base / "hygiene" / "set.jsonl"
    for i, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        r = json.loads(line)
        seq = list(r.get("others") or []) + [r["existing"], r["new"]]
        hit = 0
        for j in range(1, len(seq)):
            for k in range(j):
                old, new = written_alike(seq[k], seq[j])
                a = analyse(old, new)
                hit += bool(weak_anchor(a) and change_evidence(old, new, a))
        pairs += hit
        if hit:
            rows.append([str(f), i])
json.dump(rows, open(sys.argv[1], "w"))
print(pairs, "pairs in", len(rows), "rows")
