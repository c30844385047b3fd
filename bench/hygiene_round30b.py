"""Hygiene round 30b (issue 10): which memory a change retires - the rows and write logs the change-sentence rank
(`scope_terms` in `supersede.retarget`, shipped off) can move.

    PYTHONPATH=src:bench python bench/hygiene_round30b.py select ROWS.json    # hygiene rows it can reorder
    PYTHONPATH=src:bench python bench/hygiene_round30b.py events STORE_ROOT OUT.json  # retirements of written stores

The rank itself (`write/change_scope.py`, `supersede.SCOPE_RANK`) was removed in round 32 (shipped off); its sentence
reading is kept below for `select`. The replay with it switched on (`replay ROWS.json off|on OUT.json`, then
`supersede24_rows.py compare OFF.json ON.json`) needs a commit before round 32 (e.g. 70e5f75).

A hygiene row is selected when its new text has sentences that say a change and sentences that say none
(`change_sentences`) and two of its older texts (`others`, `existing`) share a different number of
terms with the change sentences: a superset of the rows the rank can move (it orders change verdicts only).
`events` reads `supersede24_stores.py` write logs (`retire24_veto.events`): each retirement, correct / kept (a memory
no later one replaces) / other (a replaced memory retired by the wrong new one), with the rule that decided.
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

from currency14_rows import released_rows

from hindsight.retrieval.slot_cues import CHANGE_CUE, anchors
from hindsight.write.supersede import explicit_change

#: a sentence ends at . ! ? before a space (not "3.2.2"; not after a title or an initial: "Dr. Whitfield", "J. Lee",
#: "e.g."), after a Chinese full stop, ！ ？, or at a line break; not at a semicolon ("The printer died; replaced it
#: with ..." is one statement). The end mark stays with its sentence: a question says no change (`says_change`).
_SENTENCE = re.compile(r"(?<!\b[A-Z]\.)(?<!\b(?:Dr|Mr|Ms|St|vs)\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
                       r"(?<!\betc\.)(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")


def says_change(sentence: str) -> bool:
    """A change word of `slot_cues.CHANGE_CUE` or of the hygiene lexicons (`explicit_change`) in a sentence that
    is not a question ("Badge stopped working at the east gate? Ring the desk": a condition, no change told)."""
    if sentence.rstrip().endswith(("?", "？")):
        return False
    return CHANGE_CUE.search(sentence) is not None or explicit_change(sentence)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def change_sentences(text: str) -> str:
    """The sentences of `text` that say a change, joined, when it also has sentences that say none; else ""."""
    parts = sentences(text)
    cued = [s for s in parts if says_change(s)]
    return " \n".join(cued) if cued and len(cued) < len(parts) else ""


def scope_terms(old: str, scope: str) -> int:
    """How many content terms `old` shares with `scope`, the change sentences of a new note (`change_sentences`;
    0 when it is "": the note is not split apart, and every candidate ties here)."""
    return len(anchors(old, scope)) if scope else 0


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
        sys.exit("replay needs a commit before round 32 (e.g. 70e5f75): the rank it switches was removed")
