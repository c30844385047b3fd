"""Redaction round 27: what the branch changes on every non-PII text (guard, hygiene, retrieval) of the released sets.

    PYTHONPATH=<main src> .venv/bin/python bench/redaction26_nonpii.py MAIN.json r25 r25b    # main's output, r25 held out
    PYTHONPATH=src .venv/bin/python bench/redaction27_nonpii.py MAIN.json OUT.json

Only texts the branch could change are redacted again: one main redacted something in (the round's public readings and
the prose password's end only take findings away) or one the round's role readings fire on (``find_bound_values``,
``find_role_values``: the only sources of new findings). Prints and dumps every text whose output differs.
"""
import json
import sys

from hindsight.safety.redact import redact
from hindsight.safety.redact_bound import find_bound_values
from hindsight.safety.redact_roles import find_role_values


def main() -> None:
    before = json.load(open(sys.argv[1], encoding="utf-8"))
    triggered = [t for t, out in before.items() if "[REDACTED:" in out or find_bound_values(t) or find_role_values(t)]
    diffs = []
    for text in triggered:
        after = redact(text).text
        if after != before[text]:
            diffs.append({"text": text, "main": before[text], "branch": after,
                          "fewer": after.count("[REDACTED:") < before[text].count("[REDACTED:")})
    json.dump({"texts": len(before), "triggered": len(triggered), "differ": diffs}, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
    print(len(before), "texts,", len(triggered), "triggered,", len(diffs), "differ,", sum(d["fewer"] for d in diffs), "with fewer redactions")
    for d in diffs:
        print("==", "FEWER" if d["fewer"] else "more/moved", "\n  M:", d["main"].replace("\n", " / ")[:400], "\n  B:", d["branch"].replace("\n", " / ")[:400])


if __name__ == "__main__":
    main()
