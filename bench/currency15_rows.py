"""The released hygiene rows whose texts hold an ending form (round 15: `endings.ending`: "passed away", "sold the
car", 退掉了, 注销了, 关停 ...) in any text after the first of the row (`others`, `existing`, `new` in writing order):
the only rows the ending family can move (`end_cues.end_cue` and `supersede.explicit_change` read a later text).

    PYTHONPATH=src:bench python bench/currency15_rows.py rows.json      # then: bench/hygiene_rows.py rows.json OUT.json, main and branch
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.write.endings import ending

if __name__ == "__main__":
    sel = [[f, i] for f, i, seq in released_rows() if any(ending(t) for t in seq[1:])]
    json.dump(sel, open(sys.argv[1], "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))
