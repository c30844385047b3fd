"""The released hygiene rows an ending said of a thing the old text names can move (round 16 of issue 10:
`evidence.ended_here`), and their replay through the engine under each anchoring mode.

    PYTHONPATH=src:bench python bench/currency16_rows.py select ROWS.json            # rows where it fires on a pair
    PYTHONPATH=src:bench python bench/currency16_rows.py replay ROWS.json MODE OUT.json   # MODE: off | noun | name

A row's pairs are every (older, newer) of `others`, `existing`, `new` in writing order; `ended_here` (noun mode,
the widest) firing on one of them is the selection. The replay is `hygiene_rows.py`'s (blind_eval.py hygiene's
protocol, own namespace per row) with `evidence.ENDING_ANCHOR` set to MODE; "off" is main's reading.
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.write import evidence


def select(path: str) -> None:
    evidence.ENDING_ANCHOR = "noun"
    sel = [[f, i] for f, i, seq in released_rows()
           if any(evidence.ended_here(seq[a], seq[b]) for b in range(1, len(seq)) for a in range(b))]
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))


def replay(rows_path: str, mode: str, out_path: str) -> None:
    from pair_outcome import replay_rows

    evidence.ENDING_ANCHOR = mode
    replay_rows([(f, i) for f, i in json.load(open(rows_path))], out_path)


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        replay(sys.argv[2], sys.argv[3], sys.argv[4])
