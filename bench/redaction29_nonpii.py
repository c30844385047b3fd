"""Redaction round 29: what the branch changes on every non-PII text (guard, hygiene, retrieval) of the released sets.

    PYTHONPATH=<main src> .venv/bin/python bench/redaction26_nonpii.py MAIN.json r27 r27b    # main's output, r27 held out
    PYTHONPATH=src .venv/bin/python bench/redaction29_nonpii.py MAIN.json OUT.json

Round 29 both takes findings away (a record's number named by its label, a host after a key label) and adds them (an
ID after its label whatever its checksum, an account number of any grouping, a nested record's generic key), so every
text is redacted again, not only those main redacted something in (round 28's script). Prints and dumps every text
whose output differs, with whether it has fewer or more redactions.
"""
import json
import sys

from hindsight.safety.redact import redact


def main() -> None:
    before = json.load(open(sys.argv[1], encoding="utf-8"))
    diffs = []
    for text, was in before.items():
        after = redact(text).text
        if after != was:
            diffs.append({"text": text, "main": was, "branch": after,
                          "fewer": after.count("[REDACTED:") < was.count("[REDACTED:"),
                          "more": after.count("[REDACTED:") > was.count("[REDACTED:")})
    triggered = sum("[REDACTED:" in out for out in before.values())
    json.dump({"texts": len(before), "triggered": triggered, "differ": diffs}, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
    print(len(before), "texts,", triggered, "triggered on main,", len(diffs), "differ,", sum(d["fewer"] for d in diffs),
          "with fewer redactions,", sum(d["more"] for d in diffs), "with more")
    for d in diffs:
        tag = "FEWER" if d["fewer"] else "MORE" if d["more"] else "moved"
        print("==", tag, "\n  M:", d["main"].replace("\n", " / ")[:400], "\n  B:", d["branch"].replace("\n", " / ")[:400])


if __name__ == "__main__":
    main()
