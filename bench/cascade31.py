"""Hygiene round 31d (issue 10, branch cascade31): the rows where a retire veto can hold the write's one supersede.

    PYTHONPATH=src:bench python bench/cascade31.py rows OUT.json     # rows where `retire_veto.veto` fires on a pair
    (compare: bench/hygothers31.py compare MAIN.json BRANCH.json OUT.json)

A row is reached when the veto as shipped (target_apart off) fires on an (other, new) pair and the row has a further
text (existing or another other) that the new note could retire instead: only there can the cascade move an outcome.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hygiene_funnel import ROOT, ROUNDS

from hindsight.write.retire_veto import veto


def rows(out: Path) -> None:
    hit: list[str] = []
    for rnd in ROUNDS:
        base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
        for i, line in enumerate((base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            r = json.loads(line)
            olds = [*(r.get("others") or []), r["existing"]]
            if len(olds) > 1 and any(veto(o, r["new"]) for o in olds):
                hit.append(f"{rnd}:{i}")
    out.write_text(json.dumps(hit, indent=1))
    print(len(hit), "rows reached")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "rows":
        sys.exit(__doc__)
    rows(Path(sys.argv[2]))
