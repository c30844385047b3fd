"""Write-side causes of a LoCoMo recall drop: which evidence turns an ingest left out of search, by category.

    .venv/bin/python bench/locomo_drift.py STORES [STORES ...] [--split test] [--out FILE]

STORES: a folder of `bench/locomo.py --stores` files (SQLite, one per conversation). For each folder: the turns not
active (quarantined / deprecated / ...) with their reasons, and per category the questions one of whose evidence
turns is among them and the recall@k those turns cap (the share of evidence out of search, whatever the ranking).
A drop that these counts explain is write-side; one they do not is read-side (ranking).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from locomo import CATEGORIES, DATA, SPLITS, questions


def inactive_turns(db: Path) -> dict[str, tuple[str, str]]:
    """dia_id -> (status, reason) of every stored turn that is not active."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT metadata, status, status_reason FROM memories WHERE status != 'active'").fetchall()
    return {json.loads(meta).get("dia_id", ""): (status, reason) for meta, status, reason in rows}


def folder_report(folder: Path, samples: list[dict[str, Any]], numbers: range) -> dict[str, Any]:
    lost: dict[str, list[float]] = defaultdict(list)
    touched: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    per_conversation: dict[str, int] = {}
    for number in numbers:
        sample = samples[number]
        found = sorted(folder.glob(f"{sample['sample_id']}-*.db"))
        if not found:
            raise SystemExit(f"{folder}: no store for {sample['sample_id']}")
        out = inactive_turns(found[0])
        per_conversation[sample["sample_id"]] = len(out)
        statuses.update(status for status, _ in out.values())
        for q in questions(sample):
            cat = CATEGORIES[q["category"]]
            share = len(set(q["evidence"]) & set(out)) / len(set(q["evidence"]))
            for key in ("all", cat):
                lost[key].append(share)
                touched[key] += share > 0
    return {"inactive_turns": dict(statuses), "per_conversation": per_conversation,
            "questions_touched": dict(touched),
            "recall_out_of_search": {k: round(sum(v) / len(v), 4) for k, v in lost.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stores", nargs="+", type=Path)
    parser.add_argument("--split", choices=sorted(SPLITS), default="test")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    samples = json.loads(DATA.read_text())
    result = {str(folder): folder_report(folder, samples, SPLITS[args.split]) for folder in args.stores}
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"split": args.split, **result}, indent=1))


if __name__ == "__main__":
    main()
