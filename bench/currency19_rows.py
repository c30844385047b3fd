"""The released hygiene rows round 19 of currency (issue 10) can move, and their replay through the engine.

    PYTHONPATH=src:bench python bench/currency19_rows.py select ROWS.json
    PYTHONPATH=src:bench python bench/currency19_rows.py replay ROWS.json SETTING OUT.json

SETTING: off (main's reading) | value (`slot_change.VALUE_TIER`: one slot given another value, `slot_value`) |
value1 (the same with one word of the older statement, values aside, allowed to go: `slot_value.FRAME_LOST` 1). A
row is selected when `slot_value.replaced_value` (at `FRAME_LOST` 1, a superset) reads one of its pairs (every older
/ newer text of `others`, `existing`, `new` in writing order); no cosine or nearest-neighbour check. The replay is
`pair_outcome.replay_rows`' (blind_eval.py hygiene's protocol, own namespace per row).
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.write import slot_change, slot_value

SETTINGS = {"off": (False, 0), "value": (True, 0), "value1": (True, 1)}


def setting(name: str) -> None:
    slot_change.VALUE_TIER, slot_value.FRAME_LOST = SETTINGS[name]
    slot_value.replaced_value.cache_clear()


def select(path: str) -> None:
    setting("value1")
    sel = []
    for f, i, seq in released_rows():
        if any(slot_value.replaced_value(seq[a], seq[b]) for b in range(1, len(seq)) for a in range(b)):
            sel.append([f, i])
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    else:  # replay ROWS.json SETTING OUT.json
        from pair_outcome import replay_rows
        setting(sys.argv[3])
        replay_rows([(f, i) for f, i in json.load(open(sys.argv[2]))], sys.argv[4])
