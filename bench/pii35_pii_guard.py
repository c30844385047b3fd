"""Redaction round 35: the guard's verdict (``screen``) on both redacted forms of every PII row whose redacted output
differs between main and the branch (the ``moved`` and ``changed`` rows of a ``pii32_alone_diff.py`` dump).

    PYTHONPATH=src .venv/bin/python bench/pii35_pii_guard.py DIFF.json OUT.json

The guard's code is the same on both sides (round 35 changes redaction only), so one process screens both forms.
"""
import json
import sys

from hindsight.safety.guard import screen


def main() -> None:
    diff = json.load(open(sys.argv[1], encoding="utf-8"))
    rows = []
    for r in diff["moved"] + diff["changed"]:
        a, b = screen(r["main"]), screen(r["branch"])
        rows.append({"set": r["set"], "kind": r["kind"], "main": r["main"], "branch": r["branch"],
                     "guard_main": [a.suspicious, a.reasons], "guard_branch": [b.suspicious, b.reasons]})
        print(r["set"], r["kind"], a.suspicious, "->", b.suspicious, a.reasons, b.reasons)
    flips = sum(x["guard_main"][0] != x["guard_branch"][0] for x in rows)
    json.dump({"rows": rows, "verdicts_changed": flips}, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(len(rows), "rows,", flips, "verdicts changed")


if __name__ == "__main__":
    main()
