"""Redaction round 32: the guard's verdict on every released PII set's redacted rows (held out: all but r30), main vs branch.

    PYTHONPATH=<main or branch src> .venv/bin/python bench/pii32_pii_guard.py features ALONE.json OUT.json
    PYTHONPATH=<main or branch src> .venv/bin/python bench/pii32_pii_guard.py screen MAIN_F.json BRANCH_F.json OUT.json
    .venv/bin/python bench/pii32_pii_guard.py compare MAIN_S.json BRANCH_S.json OUT.json

ALONE.json: a ``redaction27_alone.py`` dump (each row's redacted output on that side). As ``pii32_guard_diff.py``: the
cheap readings (rules, hard rules, the classifier gate) on each side, then a full screen of the rows where the redacted
text or a cheap reading differs; a PII row or look-alike quarantined is a failure end to end.
"""
import json
import sys


def features(alone: str, out: str) -> None:
    from hindsight.safety.guard import WriteGuard, consults_classifier
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    result = {}
    for name, rows in json.load(open(alone, encoding="utf-8")).items():
        for i, r in enumerate(rows):
            prepared = prepare(r["out"])
            view = feature_view(prepared.text)
            hits = WriteGuard._rule_hits(prepared, view)
            result[f"{name}:{i}"] = {"kind": r["kind"], "stored": r["out"], "rules": sorted(h.rule_id for h in hits),
                                     "hard": WriteGuard._hard(prepared, hits), "consult": consults_classifier(prepared.text, hits)}
    json.dump(result, open(out, "w", encoding="utf-8"), ensure_ascii=False)
    print(len(result), "rows")


def screen(main_f: str, branch_f: str, out: str, side: str) -> None:
    from hindsight.safety.guard import screen as guard_screen

    a = json.load(open(main_f, encoding="utf-8"))
    b = json.load(open(branch_f, encoding="utf-8"))
    mine = a if side == "main" else b
    result = {}
    for key in (k for k in a if a[k] != b[k]):
        v = guard_screen(mine[key]["stored"])
        result[key] = {"kind": mine[key]["kind"], "stored": mine[key]["stored"], "suspicious": v.suspicious, "reasons": v.reasons}
    json.dump(result, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(side, len(result), "rows differ; screened")


def compare(main_s: str, branch_s: str, out: str) -> None:
    a = json.load(open(main_s, encoding="utf-8"))
    b = json.load(open(branch_s, encoding="utf-8"))
    moved = [{"row": k, "kind": a[k]["kind"], "main": a[k], "branch": b[k]} for k in a if a[k]["suspicious"] != b[k]["suspicious"]]
    counts = {"rows_differing": len(a), "newly_quarantined": sum(m["branch"]["suspicious"] for m in moved),
              "newly_stored": sum(not m["branch"]["suspicious"] for m in moved)}
    json.dump({"counts": counts, "moved": moved}, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    print(counts)
    for m in moved:
        print(m["row"], m["kind"], m["main"]["reasons"], "->", m["branch"]["reasons"], m["branch"]["stored"][:200])


if __name__ == "__main__":
    if sys.argv[1] == "features":
        features(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "screen":
        screen(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
