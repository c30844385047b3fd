"""Redaction misses by kind and by the stage that decided them, on every released PII set (round 21, branch pii24).

    PYTHONPATH=src .venv/bin/python bench/redaction_misses.py [SET ...] [--rows] [--json OUT]

Redaction alone (no guard, no store), rules + shipped tagger. For each failing row:
- a look-alike changed: each finding that changed it, named by its stage - ``tagger`` (the learned second opinion),
  or the rule finder that reported a span overlapping it (``find_addresses``, ``spelled``, ``echo`` ...);
- a PII row: ``missed`` (a secret left; ``tagger-below`` when the tagger saw a candidate token there) or
  ``fact_destroyed`` (a keep lost) with the stage whose finding cut it.
Counts by (direction, category, stage), per set and pooled; ``--rows`` prints each failing row.
The sets are the released blind rounds and the training sets (bench/data/{blind,train}/*/pii/set.jsonl).
"""

from __future__ import annotations

import glob
import importlib
import json
import sys
from collections import Counter
from typing import Any

from hindsight.safety.redact_brackets import bracketed_findings
from hindsight.safety.redact_spelled import spelled_findings

R = importlib.import_module("hindsight.safety.redact")


def pii_sets(names: list[str]) -> dict[str, list[dict[str, Any]]]:
    files = sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl"))
    sets = {f.split("/")[3]: [json.loads(line) for line in open(f, encoding="utf-8") if line.strip()] for f in files}
    return {n: rows for n, rows in sets.items() if not names or n in names}


def _stage(text: str, start: int, end: int) -> str:
    """The rule finder that reported a span overlapping [start, end), else ``tagger``/``context``."""
    for finder in R._FINDERS:
        if any(s[1] < end and start < s[2] for s in finder(text)):
            return finder.__name__
    if any(s[1] < end and start < s[2] for s in spelled_findings(text, R._run_finders)):
        return "spelled"
    if any(s[1] < end and start < s[2] for s in bracketed_findings(text, R._run_finders)):
        return "brackets"
    rules = R.find_sensitive(text, tagger=False)
    if any(f.start < end and start < f.end for f in rules):
        return "context"  # echo, card expiry / combo, key IDs and pair partners
    return "tagger"


def diagnose(row: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(direction, category, stage) for each failure of one row; empty when the row passes."""
    text = row["text"]
    found = R.find_sensitive(text)
    out = R.redact(text).text
    cat = row["category"]
    if row["kind"] != "pii":
        return [("lookalike_changed", cat, _stage(text, f.start, f.end)) for f in found]
    fails = []
    for s in row["secrets"]:
        if s in out:
            fails.append(("missed", cat, "none"))
    for k in row["keep"]:
        if k in out:
            continue
        at = text.find(k)
        cut = [f for f in found if at >= 0 and f.start < at + len(k) and at < f.end]
        fails += [("fact_destroyed", cat, _stage(text, f.start, f.end)) for f in cut] or [("fact_destroyed", cat, "?")]
    return fails


def main(argv: list[str]) -> None:
    show = "--rows" in argv
    out_path = argv[argv.index("--json") + 1] if "--json" in argv else None
    names = [a for a in argv if not a.startswith("--") and a != out_path]
    pooled: Counter[tuple[str, str, str]] = Counter()
    report: dict[str, Any] = {}
    for name, rows in pii_sets(names).items():
        per: Counter[tuple[str, str, str]] = Counter()
        for row in rows:
            fails = diagnose(row)
            per.update(set(fails))
            if fails and show:
                print(json.dumps({"set": name, "fails": sorted(set(fails)), "text": row["text"],
                                  "out": R.redact(row["text"]).text}, ensure_ascii=False))
        pooled.update(per)
        report[name] = {" / ".join(k): v for k, v in sorted(per.items())}
        if not show:
            print(name, dict(sorted(per.items())))
    print("pooled:")
    for k, v in sorted(pooled.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"  {v:4d}  {' / '.join(k)}")
    if out_path:
        with open(out_path, "w", encoding="utf-8") as fh:
            json.dump({"sets": report, "pooled": {" / ".join(k): v for k, v in pooled.items()}}, fh, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
