"""Redaction round 28: what the branch changes on every non-PII text (guard, hygiene, retrieval) of the released sets.

    PYTHONPATH=<main src> .venv/bin/python bench/redaction26_nonpii.py MAIN.json r26 r26b    # main's output, r26 held out
    PYTHONPATH=src .venv/bin/python bench/redaction28_nonpii.py MAIN.json OUT.json

Every round-28 reading acts on a value a finder found (the extent bound shortens it, the list reader adds passwords
after a found one, the postcode reading extends a found address) or takes a finding away (a shipment's number, a
unit's mailbox, a source after a semicolon), so only texts main redacted something in can change: those are redacted
again. Prints and dumps every text whose output differs, with whether it has fewer redactions or lost text around them.
"""
import json
import sys

from hindsight.safety.redact import redact


def main() -> None:
    before = json.load(open(sys.argv[1], encoding="utf-8"))
    triggered = [t for t, out in before.items() if "[REDACTED:" in out]
    diffs = []
    for text in triggered:
        after = redact(text).text
        if after != before[text]:
            diffs.append({"text": text, "main": before[text], "branch": after,
                          "fewer": after.count("[REDACTED:") < before[text].count("[REDACTED:"),
                          "more": after.count("[REDACTED:") > before[text].count("[REDACTED:")})
    json.dump({"texts": len(before), "triggered": len(triggered), "differ": diffs}, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
    print(len(before), "texts,", len(triggered), "triggered,", len(diffs), "differ,", sum(d["fewer"] for d in diffs), "with fewer redactions,",
          sum(d["more"] for d in diffs), "with more")
    for d in diffs:
        tag = "FEWER" if d["fewer"] else "MORE" if d["more"] else "moved"
        print("==", tag, "\n  M:", d["main"].replace("\n", " / ")[:400], "\n  B:", d["branch"].replace("\n", " / ")[:400])


if __name__ == "__main__":
    main()
