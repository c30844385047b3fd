"""The released hygiene rows the number tier can move (round 14): any pair of a row, in writing order (`others`,
`existing`, `new`), in one script, whose newer text states a change the older one does not (`currency.states_new_change`
or `slot_change.new_change_form`), without `ADDITIVE` wording, sharing two anchors, with a number of one kind in place
of the older text's (`renumber.number_replaced`). Cosine and mutual nearest are not checked (a superset).

    python bench/currency14_rows.py rows.json      # then: bench/hygiene_rows.py rows.json OUT.json, main and branch
"""
import glob
import json
import sys
from collections import Counter

from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.write import slot_change
from hindsight.write.renumber import number_replaced


def reads(old: str, new: str) -> bool:
    return (bias_group(old) == bias_group(new)
            and (currency.states_new_change(old, new) or slot_change.new_change_form(old, new))
            and not currency.ADDITIVE.search(new) and len(currency.anchors(old, new)) >= slot_change.NUMBER_ANCHORS
            and bool(number_replaced(old, new)))


def released_rows():
    """Each released hygiene row (blind and train copies): its file, line index and texts in writing order."""
    files = sorted(glob.glob("bench/data/blind/*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl"))
    for f in files:
        for i, line in enumerate(open(f, encoding="utf-8")):
            if not line.strip():
                continue
            r = json.loads(line)
            yield f, i, [o if isinstance(o, str) else o.get("content", "") for o in r.get("others") or []] + [r["existing"], r["new"]]


if __name__ == "__main__":
    sel = [[f, i] for f, i, seq in released_rows()
           if any(reads(seq[a], seq[b]) for b in range(len(seq)) for a in range(b))]
    json.dump(sel, open(sys.argv[1], "w"))
    print(len(sel), dict(Counter(f.split("/")[-3] for f, _ in sel)))
