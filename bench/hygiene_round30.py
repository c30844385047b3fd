"""Hygiene round 30 (issue 10): which released hygiene rows the round's cues can move, and main against the branch.

    PYTHONPATH=src:bench python bench/hygiene_round30.py rows OUT.json              # rows a new cue's words occur in
    PYTHONPATH=SRC:bench python bench/hygiene_round28.py sig ROWS.json OUT.json     # run once with main's src, once the branch's
    python bench/hygiene_round28.py diff MAIN_SIG.json BRANCH_SIG.json OUT.json      # the rows whose readings differ
    python bench/hygiene_round30.py compare MAIN_REPLAY.json BRANCH_REPLAY.json OUT.json

`rows`: a row where no text holds a word of the round's cues (`end_cues.CALLED_OFF_EN` / `CALLED_OFF_ZH`: "is off",
"cut from", 停了, 别...了; `state_change._MOVED_EN`'s "moves to", "is moving to", "upped ... to") reads as on
main by construction; the others are read by round 28's `sig` on main and on the branch, and the rows whose readings
differ are replayed through the engine (`hygiene_funnel.py --pairs`) on both. `compare` prints the moved rows, the
cells, and the leave-one-round-out of the round's rule, fixed before the replay (docs/benchmarks.md "Hygiene, round
30"): a fold ships the cues if, on the other sets, changes or restatements rise, no distinct or supplement pair is
newly merged or deprecated, wrong deprecations (restatement / distinct / supplement -> change) do not rise, changes do
not fall and others untouched do not fall.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOST = ("merged", "change", "merged_elsewhere")
#: the words of the round's cues, wider than the cues (a superset of the rows they can move)
CUE_WORDS = re.compile(r"\boff\b|shelved|\bcut from\b|\bmoves to\b|\bmoving to\b|\bupped\b|停了|别.{1,6}了", re.I)


def rows(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    found = [f"{rnd}:{i}" for rnd, i, r in _rows() if any(CUE_WORDS.search(t) for t in _texts(r))]
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found))


def passes(m: Counter[str], b: Counter[str]) -> bool:
    """The round's rule on one fold's training sets (main's cells `m`, the branch's `b`)."""
    gained = b["change->change"] > m["change->change"] or b["restatement->merged"] > m["restatement->merged"]
    newly_lost = any(b[f"{lab}->{a}"] > m[f"{lab}->{a}"] for lab in ("distinct", "supplement") for a in LOST)
    wrong = sum(b[f"{lab}->change"] - m[f"{lab}->change"] for lab in ("restatement", "distinct", "supplement"))
    return (gained and not newly_lost and wrong <= 0 and b["change->change"] >= m["change->change"]
            and b["restatement->merged"] >= m["restatement->merged"] and b["others_ok"] >= m["others_ok"])


def compare(main_path: str, branch_path: str, out: str) -> None:
    from hygiene_round28 import compare as compare28

    compare28(main_path, branch_path, out, passes)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"rows": rows, "compare": compare}[sys.argv[1]](*sys.argv[2:])
