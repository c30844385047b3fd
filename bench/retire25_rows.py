"""The released hygiene rows the attribute veto of retire round 25 (issue 10) can move, and their replay through
the engine.

    PYTHONPATH=src:bench python bench/retire25_rows.py select ROWS.json
    PYTHONPATH=src:bench python bench/retire25_rows.py replay ROWS.json off|on OUT.json
    PYTHONPATH=src:bench python bench/supersede24_rows.py compare OFF.json ON.json

A row is selected when `retire_veto.other_attribute` fires for one of its ordered pairs (every older / newer text
of `others`, `existing`, `new` in writing order; a superset of what the veto can move: it acts only on a change
verdict, and no other row can change). SETTING: off (`retire_veto.ATTRIBUTE_ON` False, main's write path) | on. The
replay is `pair_outcome.replay_rows`' (blind_eval.py hygiene's protocol, own namespace per row); `compare` (of
supersede24_rows.py) prints the confusion matrix of both settings and the rows that moved.
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.write import retire_veto


def select(path: str) -> None:
    sel = [[f, i] for f, i, seq in released_rows()
           if any(retire_veto.other_attribute(seq[a], seq[b]) for b in range(1, len(seq)) for a in range(b))]
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        from pair_outcome import replay_rows
        retire_veto.ATTRIBUTE_ON = sys.argv[3] == "on"
        replay_rows([(f, i) for f, i in json.load(open(sys.argv[2]))], sys.argv[4])
