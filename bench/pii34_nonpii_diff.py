"""Redaction round 34: which non-PII texts of the released sets change their redacted form (two side-by-side dumps).

    PYTHONPATH=<main src> .venv/bin/python bench/redaction26_nonpii.py MAIN.json none
    PYTHONPATH=src .venv/bin/python bench/redaction26_nonpii.py BRANCH.json none
    PYTHONPATH=src .venv/bin/python bench/pii34_nonpii_diff.py MAIN.json BRANCH.json OUT.json

Prints and dumps every text whose output differs (fewer / more redactions), and how many of them are released GUARD
texts (blind and training guard sets), with the guard's verdict (``screen``) on both redacted forms of those.
"""
import glob
import json
import sys


def guard_texts() -> set[str]:
    out = set()
    for f in glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl"):
        for line in open(f, encoding="utf-8"):
            if line.strip():
                out.add(json.loads(line)["text"])
    return out


def main() -> None:
    from hindsight.safety.guard import screen

    before = json.load(open(sys.argv[1], encoding="utf-8"))
    after = json.load(open(sys.argv[2], encoding="utf-8"))
    guard = guard_texts()
    diffs = []
    for text, was in before.items():
        now = after[text]
        if now == was:
            continue
        d = {"text": text, "main": was, "branch": now, "guard_text": text in guard,
             "fewer": now.count("[REDACTED:") < was.count("[REDACTED:"), "more": now.count("[REDACTED:") > was.count("[REDACTED:")}
        if d["guard_text"]:
            a, b = screen(was), screen(now)
            d["guard"] = {"main": [a.suspicious, a.reasons], "branch": [b.suspicious, b.reasons]}
        diffs.append(d)
    triggered = sum("[REDACTED:" in out for out in before.values())
    counts = {"texts": len(before), "triggered_on_main": triggered, "differ": len(diffs),
              "guard_texts": sum(t in guard for t in before), "guard_texts_differ": sum(d["guard_text"] for d in diffs),
              "fewer": sum(d["fewer"] for d in diffs), "more": sum(d["more"] for d in diffs)}
    json.dump({"counts": counts, "differ": diffs}, open(sys.argv[3], "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(counts)
    for d in diffs:
        print("GUARD" if d["guard_text"] else "     ", "fewer" if d["fewer"] else "more" if d["more"] else "same", d.get("guard", ""))
        print("  M:", d["main"][:300])
        print("  B:", d["branch"][:300])


if __name__ == "__main__":
    main()
