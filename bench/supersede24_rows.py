"""The released hygiene rows the note tier of supersede round 24 (issue 10) can move, and their replay through the
engine.

    PYTHONPATH=src:bench python bench/supersede24_rows.py select ROWS.json
    PYTHONPATH=src:bench python bench/supersede24_rows.py replay ROWS.json off|note OUT.json
    PYTHONPATH=src:bench python bench/supersede24_rows.py compare OFF.json NOTE.json

A row is selected when the note tier's text checks pass for one of its pairs (every older / newer text of `others`,
`existing`, `new` in writing order: a note form the older lacks, shared anchors, no `ADDITIVE`, no other owner); no
cosine or nearest-neighbour check (a superset of what the tier can move: no other row can change). SETTING: off (`slot_change.NOTE_TIER` False, main's write path) | note (on). The replay is
`pair_outcome.replay_rows`' (blind_eval.py hygiene's protocol, own namespace per row). `compare` prints the
confusion matrix of both settings and the rows that moved.
"""
import json
import sys
from collections import Counter

from currency14_rows import released_rows

from hindsight.retrieval.currency import ADDITIVE, anchors, other_owners
from hindsight.retrieval.note_change import states_note_change
from hindsight.write import slot_change


def _may_move(old: str, new: str) -> bool:
    """The note tier's text checks (`slot_change._noted`): a note form the older text lacks, no `ADDITIVE` wording,
    `SLOT_ANCHORS` shared anchors, no other owner; cosine and nearest neighbours are left to the replay."""
    return (states_note_change(old, new) and not ADDITIVE.search(new)
            and len(anchors(old, new)) >= slot_change.SLOT_ANCHORS and not other_owners(old, new))


def select(path: str) -> None:
    sel = [[f, i] for f, i, seq in released_rows()
           if any(_may_move(seq[a], seq[b]) for b in range(1, len(seq)) for a in range(b))]
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))


def compare(off_path: str, on_path: str) -> None:
    off, on = json.load(open(off_path)), json.load(open(on_path))
    for name, res in (("off", off), ("note", on)):
        conf = Counter(f"{v['label']}->{v['verdict']}" for v in res.values())
        others = [x for v in res.values() for x in v["others_ok"]]
        print(name, dict(sorted(conf.items())), "others untouched", sum(others), "of", len(others))
    for k in sorted(off):
        if off[k]["verdict"] != on[k]["verdict"] or off[k]["others_ok"] != on[k]["others_ok"]:
            print(k, off[k]["label"], off[k]["verdict"], "->", on[k]["verdict"], off[k]["others_ok"], on[k]["others_ok"])


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        from pair_outcome import replay_rows
        slot_change.NOTE_TIER = sys.argv[3] == "note"
        replay_rows([(f, i) for f, i in json.load(open(sys.argv[2]))], sys.argv[4])
