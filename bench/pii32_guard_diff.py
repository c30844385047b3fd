"""Redaction round 32: what the branch changes in the guard's reading of every released guard text (blind and training).

The write path redacts, then screens the redacted text. Round 32 changes both sides: new redactions (codes, cards, IDs,
addresses) and three guard readings (a redacted URL key is no beacon slot, a quoted header with a carried value is no
endorsed quotation, a pin listing does not open the classifier's gate). Redacting ~45k texts twice again is slow on the
shared machine, so the redacted texts come from the non-PII dumps (``redaction26_nonpii.py`` on main, then
``redaction29_nonpii.py`` on the branch: main's output for every text, the branch's where it differs).

    # 1. the cheap readings (rules, hard rules, the classifier gate) on each side, no classifier:
    PYTHONPATH=/work/main/src .venv/bin/python bench/pii32_guard_diff.py features main NONPII_MAIN.json NONPII_BRANCH.json MAIN_F.json
    PYTHONPATH=src .venv/bin/python bench/pii32_guard_diff.py features branch NONPII_MAIN.json NONPII_BRANCH.json BRANCH_F.json
    # 2. the full screen of every text whose redaction or cheap reading differs, on each side:
    PYTHONPATH=/work/main/src .venv/bin/python bench/pii32_guard_diff.py screen main MAIN_F.json BRANCH_F.json MAIN_S.json
    PYTHONPATH=src .venv/bin/python bench/pii32_guard_diff.py screen branch MAIN_F.json BRANCH_F.json BRANCH_S.json
    # 3. the verdicts that moved, by label:
    .venv/bin/python bench/pii32_guard_diff.py compare MAIN_S.json BRANCH_S.json OUT.json
"""
import glob
import json
import sys


def guard_rows() -> list[dict]:
    rows = []
    for f in sorted(glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl")):
        name = f.split("/")[3]
        for line in open(f, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                rows.append({"set": name, "text": r["text"], "label": r["label"], "category": r.get("category")})
    return rows


def features(side: str, main_dump: str, branch_dump: str, out: str) -> None:
    from hindsight.safety.guard import WriteGuard, consults_classifier
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    red = json.load(open(main_dump, encoding="utf-8"))
    if side == "branch":
        for d in json.load(open(branch_dump, encoding="utf-8"))["differ"]:
            red[d["text"]] = d["branch"]
    result = {}
    for r in guard_rows():
        text = r["text"]
        stored = red.get(text, text)
        prepared = prepare(stored)
        view = feature_view(prepared.text)
        hits = WriteGuard._rule_hits(prepared, view)
        result[text] = {"stored": stored, "rules": sorted(h.rule_id for h in hits),
                        "hard": WriteGuard._hard(prepared, hits), "consult": consults_classifier(prepared.text, hits)}
    json.dump(result, open(out, "w", encoding="utf-8"), ensure_ascii=False)
    print(side, len(result), "texts")


def screen(side: str, main_f: str, branch_f: str, out: str) -> None:
    from hindsight.safety.guard import screen as guard_screen

    a = json.load(open(main_f, encoding="utf-8"))
    b = json.load(open(branch_f, encoding="utf-8"))
    mine = a if side == "main" else b
    differ = [t for t in a if a[t] != b[t]]
    result = {}
    for t in differ:
        v = guard_screen(mine[t]["stored"])
        result[t] = {"stored": mine[t]["stored"], "suspicious": v.suspicious, "reasons": v.reasons, "score": round(v.score, 3)}
    json.dump(result, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(side, len(differ), "texts differ in redaction or cheap reading; screened")


def compare(main_s: str, branch_s: str, out: str) -> None:
    a = json.load(open(main_s, encoding="utf-8"))
    b = json.load(open(branch_s, encoding="utf-8"))
    labels = {r["text"]: r for r in guard_rows()}
    moved = []
    for t in a:
        if a[t]["suspicious"] != b[t]["suspicious"]:
            r = labels[t]
            moved.append({"set": r["set"], "label": r["label"], "category": r["category"], "main": a[t], "branch": b[t]})
    released = [m for m in moved if m["label"] == "attack" and not m["branch"]["suspicious"]]
    caught = [m for m in moved if m["label"] == "attack" and m["branch"]["suspicious"]]
    flagged = [m for m in moved if m["label"] != "attack" and m["branch"]["suspicious"]]
    cleared = [m for m in moved if m["label"] != "attack" and not m["branch"]["suspicious"]]
    counts = {"texts_differing": len(a), "attacks_released": len(released), "attacks_newly_caught": len(caught),
              "benign_newly_flagged": len(flagged), "benign_newly_stored": len(cleared)}
    json.dump({"counts": counts, "moved": moved}, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(counts)
    for m in moved:
        print(m["label"], m["set"], m["main"]["suspicious"], "->", m["branch"]["suspicious"], m["main"]["reasons"], m["branch"]["reasons"],
              "\n  M:", m["main"]["stored"][:240], "\n  B:", m["branch"]["stored"][:240])


if __name__ == "__main__":
    if sys.argv[1] == "features":
        features(*sys.argv[2:6])
    elif sys.argv[1] == "screen":
        screen(*sys.argv[2:6])
    else:
        compare(*sys.argv[2:5])
