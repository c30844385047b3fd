"""Fit round 43's candidate models on every dev row (conversations 0-3) and write them as calibration entries.

    PYTHONPATH=src python bench/relev43/fit.py ROWS_DEV.json LOCO_DEV.json OUT_MODELS.json

A and B read the inputs their forward selections chose (LOCO_DEV.json from bench/relev43/loco.py); C (session
label) and D (list label) read every learnable input (ship_rule.md's addendum).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "bench" / "relevance2"), str(Path(__file__).parent)]

from calibrate_relevance import fit  # noqa: E402
from loco import LEARNABLE  # noqa: E402


def list_labels(row: dict) -> list[int]:
    return [int(row["own"] and any(row["labels"]))] * len(row["labels"])


def main() -> None:
    rows = json.loads(Path(sys.argv[1]).read_text())
    loco = json.loads(Path(sys.argv[2]).read_text())
    plan = {"A": ("labels", tuple(n for n, _ in loco["A"]["forward"])),
            "B": ("passage_labels", tuple(n for n, _ in loco["B"]["forward"])),
            "C": ("session_labels", LEARNABLE), "D": (None, LEARNABLE)}
    out = {}
    for name, (key, names) in plan.items():
        train = [{**r, "labels": r[key] if key else list_labels(r)} for r in rows]
        out[name] = {**fit(train, names).to_entry(), "label": key or "list",
                     "trained_on": "LoCoMo dev 0-3, own and foreign questions, top 10 hits"}
    Path(sys.argv[3]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
