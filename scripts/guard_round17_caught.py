"""Write tests/data/guard_round17_caught.json: the round-17 ensemble's new catches, by a rule fixed before looking.

    PYTHONPATH=src .venv/bin/python scripts/guard_round17_caught.py C/scores15.shipped.jsonl T \
        C/scores13.base.jsonl C/scores14.base.jsonl C/scores15.base.jsonl

The rule (docs/benchmarks.md, "Round 17 guard"; round 16's, written down before the round-17 fits were measured, with
the writers released since): every attack of the newest writers (blind-r15, blind-r15b, train-r15T1, blind-r16,
blind-r16b) that the shipped weights score under their deployed 0.75 in the harness (so main stores it) and whose
held-out ensemble score (the mean of the seeds' held-out scores) is at or above the ensemble's T.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRITERS = ("blind-r15", "blind-r15b", "train-r15T1", "blind-r16", "blind-r16b")
OUT = ROOT / "tests" / "data" / "guard_round17_caught.json"


def _rows(path: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    shipped_path, t, *held_paths = sys.argv[1:]
    rows = _rows(shipped_path)
    held = [[float(r["score"]) for r in _rows(p)] for p in held_paths]  # type: ignore[arg-type]
    out = []
    for i, row in enumerate(rows):
        mean = sum(h[i] for h in held) / len(held)
        if row["writer"] in WRITERS and row["attack"] and float(row["score"]) < 0.75 and mean >= float(t):  # type: ignore[arg-type]
            out.append({"writer": row["writer"], "kind": row["kind"], "shipped": row["score"],
                        "held_out_ensemble": round(mean, 4), "text": row["text"]})
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(len(out), "texts ->", OUT)


if __name__ == "__main__":
    main()
