"""Hygiene round 30b (issue 10): which memory a change retires - the rows and write logs the change-sentence rank
(`change_scope.scope_terms` in `supersede.retarget`) can move.

    PYTHONPATH=src:bench python bench/hygiene_round30b.py select ROWS.json    # hygiene rows it can reorder
    PYTHONPATH=src:bench python bench/hygiene_round30b.py replay ROWS.json off|on OUT.json
    PYTHONPATH=src:bench python bench/supersede24_rows.py compare OFF.json ON.json
    PYTHONPATH=src:bench python bench/hygiene_round30b.py events STORE_ROOT OUT.json  # retirements of written stores

A hygiene row is selected when its new text has sentences that say a change and sentences that say none
(`change_scope.change_sentences`) and two of its older texts (`others`, `existing`) share a different number of
terms with the change sentences: a superset of the rows the rank can move (it orders change verdicts only).
`events` reads `supersede24_stores.py` write logs (`retire24_veto.events`): each retirement, correct / kept (a memory
no later one replaces) / other (a replaced memory retired by the wrong new one), with the rule that decided.
"""
import json
import sys
from collections import Counter
from pathlib import Path

from currency14_rows import released_rows

from hindsight.write import supersede
from hindsight.write.change_scope import change_sentences, scope_terms


def select(path: str) -> None:
    sel = []
    for f, i, seq in released_rows():
        new, older = seq[-1], seq[:-1]
        scope = change_sentences(new)
        if len(older) > 1 and scope and len({scope_terms(o, scope) for o in older}) > 1:
            sel.append([f, i])
    json.dump(sel, open(path, "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))


def events(root: str, out: str) -> None:
    from retire24_veto import events as read
    rows = read(Path(root))
    json.dump(rows, open(out, "w"), ensure_ascii=False, indent=1)
    print(Counter((e["round"], e["kind"]) for e in rows))


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    elif sys.argv[1] == "events":
        events(sys.argv[2], sys.argv[3])
    else:
        from pair_outcome import replay_rows
        supersede.SCOPE_RANK = sys.argv[3] == "on"
        replay_rows([(f, i) for f, i in json.load(open(sys.argv[2]))], sys.argv[4])
