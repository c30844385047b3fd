"""The released hygiene rows round 18 of currency (issue 10) can move, and their replay through the engine.

    PYTHONPATH=src:bench python bench/currency18_rows.py select ROWS.json
    PYTHONPATH=src:bench python bench/currency18_rows.py replay ROWS.json SETTING OUT.json

SETTING: off (main's reading) | state | swap | contrast | all. The three readings: a state given up or taken up
again read as an ending (`endings.STATE_CHANGES`), a value swapped at the end of one statement (`slot_change.SWAP_TIER`),
a contrast retiring only a candidate that holds the value it sets aside (`supersede.CONTRAST_HELD`). A row is selected
when one of them can read one of its pairs (every older / newer text of `others`, `existing`, `new` in writing order):
the first two fire on the pair, the third on a newer text with a contrast and a value it sets aside. No cosine or
nearest-neighbour check: a superset. The replay is `hygiene_rows.py`'s (blind_eval.py hygiene's protocol, own
namespace per row).
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.write import endings, slot_change, supersede

SETTINGS = {"off": (), "state": ("state",), "swap": ("swap",), "contrast": ("contrast",),
            "all": ("state", "swap", "contrast")}


def setting(name: str) -> None:
    on = SETTINGS[name]
    endings.STATE_CHANGES = "state" in on
    slot_change.SWAP_TIER = "swap" in on
    supersede.CONTRAST_HELD = "contrast" in on


def new_ending(old: str, new: str) -> bool:
    setting("off")
    before = endings.ends_anew(old, new)
    setting("all")
    return bool(endings.ends_anew(old, new)) and not before


def select(path: str) -> None:
    setting("all")
    sel, why = [], Counter()
    for f, i, seq in released_rows():
        reads = set()
        for b in range(1, len(seq)):
            if supersede.contrasted(seq[b]) and supersede.departed_terms(seq[b]):
                reads.add("contrast")
            for a in range(b):
                if slot_change._swapped_value(seq[a], seq[b]):
                    reads.add("swap")
                if new_ending(seq[a], seq[b]):
                    reads.add("state")
        if reads:
            sel.append([f, i, sorted(reads)])
            why.update(reads)
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(why), dict(Counter(f.split("/")[-3] for f, _, _ in sel)))


def replay(rows_path: str, name: str, out_path: str) -> None:
    from pair_outcome import replay_rows

    setting(name)
    replay_rows([(f, i) for f, i, _ in json.load(open(rows_path))], out_path)


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        replay(sys.argv[2], sys.argv[3], sys.argv[4])
