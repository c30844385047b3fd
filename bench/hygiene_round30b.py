"""Hygiene round 30b (issue 10): the released rows the change-scope veto (`write/change_scope.py`) can move, and the
wrong retirements of the released retrieval stores it reads.

    PYTHONPATH=src:bench python bench/hygiene_round30b.py select ROWS.json    # rows where it fires on an ordered pair
    PYTHONPATH=src:bench python bench/hygiene_round30b.py replay ROWS.json off|on OUT.json
    PYTHONPATH=src:bench python bench/supersede24_rows.py compare OFF.json ON.json
    PYTHONPATH=src:bench python bench/hygiene_round30b.py events STORE_ROOT OUT.json  # kept retirements, by kind

A row is selected when `change_scope.off_attribute` fires for one of its ordered pairs (every older / newer text of
`others`, `existing`, `new` in writing order): a superset of what it can move (it acts only on a change verdict).
`events` reads `supersede24_stores.py` write logs (`retire24_veto.events`) and says, for each retirement, whether
the change-scope veto or round 25's veto would fire on it.
"""
import json
import sys
from collections import Counter
from pathlib import Path

from currency14_rows import released_rows

from hindsight.write import change_scope, retire_veto


def select(path: str) -> None:
    sel, labels = [], Counter()
    for f, i, seq in released_rows():
        fired = [(a, b) for b in range(1, len(seq)) for a in range(b) if change_scope.off_attribute(seq[a], seq[b])]
        if fired:
            label = json.loads(open(f, encoding="utf-8").read().splitlines()[i])["label"]
            n = len(seq)
            labels[(label, "existing->new" if (n - 2, n - 1) in fired else "other pair")] += 1
            sel.append([f, i])
    json.dump(sel, open(path, "w"))
    print(len(sel), {" ".join(k): v for k, v in sorted(labels.items())}, dict(Counter(f.split("/")[-3] for f, _ in sel)))


def events(root: str, out: str) -> None:
    from retire24_veto import events as read
    rows = read(Path(root))
    for e in rows:
        e["scope_veto"] = change_scope.off_attribute(e["old_text"], e["new_text"])[:80]
        e["r25_veto"] = retire_veto.veto(e["old_text"], e["new_text"])[:80]
    json.dump(rows, open(out, "w"), ensure_ascii=False, indent=1)
    print(Counter((e["round"], e["kind"], bool(e["scope_veto"])) for e in rows))


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(sys.argv[2])
    elif sys.argv[1] == "events":
        events(sys.argv[2], sys.argv[3])
    else:
        from pair_outcome import replay_rows
        change_scope.ON = sys.argv[3] == "on"
        replay_rows([(f, i) for f, i in json.load(open(sys.argv[2]))], sys.argv[4])
