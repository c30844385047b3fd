"""Hygiene round 31d (issue 10): which released hygiene rows the plan-called-off / plan-moved cues can move (plans31).

    PYTHONPATH=src:bench python bench/hygiene_plans31.py rows OUT.json              # rows a text of which holds a new cue
    PYTHONPATH=SRC:bench python bench/hygiene_round28.py sig ROWS.json OUT.json     # once with main's src, once the branch's
    python bench/hygiene_round28.py diff MAIN_SIG.json BRANCH_SIG.json OUT.json      # the rows whose readings differ

A row none of whose texts holds a cue added in round 31d reads as on main by construction.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The cues of round 31d's first draft (a superset of what the branch keeps: shelved / axed are read only by
#: `state_change.completed`, 推到 and 砍掉了 not at all), so the 85 rows (51 of them read differently) cover every draft.
NEW_CUES = re.compile(r"\b(?:moved (?:up|forward|out) to|brought forward to|shelved|axed)\b"
                      r"|(?<![一])推到|挪到|提前到|不做了|不搞了|不办了|搁置|砍掉了|撤了")


def rows(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    found = [f"{rnd}:{i}" for rnd, i, r in _rows() if any(NEW_CUES.search(t.lower()) for t in _texts(r))]
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"rows": rows}[sys.argv[1]](*sys.argv[2:])
