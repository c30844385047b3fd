"""Hygiene round 31b (issue 10): which released hygiene rows the paired-state reading can move (branch hygstate31).

    PYTHONPATH=src:bench python bench/hygiene_state31.py rows OUT.json              # rows a text of which holds a side of a pair
    PYTHONPATH=SRC:bench python bench/hygiene_round28.py sig ROWS.json OUT.json     # once with main's src, once the branch's
    python bench/hygiene_round28.py diff MAIN_SIG.json BRANCH_SIG.json OUT.json      # the rows whose readings differ
    python bench/hygiene_round30.py compare MAIN_REPLAY.json BRANCH_REPLAY.json OUT.json

`rows`: a row where no text holds either side of a pair of `state_pairs.PAIRS` reads as on main by construction
(`state_change.reversed_state` needs one side in the old text and the other in the new); the others are read by
round 28's `sig` on main and on the branch, and the rows whose readings differ are replayed through the engine
(`hygiene_funnel.py --pairs`) on both; `compare` is round 30's (the rule of `bench/results/hygstate31_rule.md`).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rows(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    from hindsight.write.state_pairs import PAIRS

    found = [f"{rnd}:{i}" for rnd, i, r in _rows()
             if any(p.before.search(t.lower()) or p.after.search(t.lower()) for p in PAIRS for t in _texts(r))]
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"rows": rows}[sys.argv[1]](*sys.argv[2:])
