"""Hygiene round 12b: leave-one-round-out over the released hygiene rounds for the name reader of the merge
blocker (`write/name_reading.py`).

    PYTHONPATH=src python bench/hygiene_names_loro.py MAIN.json BRANCH.json [FULL_MAIN.json]

MAIN.json / BRANCH.json: `bench/hygiene_funnel.py --pairs PAIRS` run with main's src and this branch's, over the
pairs whose merge blocker differs between the two anywhere (existing/new, others/new, others/existing, raw or
rewritten by `conversions`; pairs are independent, one namespace each, so every other pair is judged alike).
The rule has nothing fitted; for each held-out round it is kept when, over the other rounds pooled, it merges
more restatements, costs at most 0.5 points of distinct kept and of wrong deprecations, and leaves no more
others touched. The held-out round then gets the branch's or main's outcome. Counts are the change in pairs;
FULL_MAIN.json (a full main funnel run) adds the rates.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "r40", "r41")
KEYS = ("distinct", "restatement", "change", "wrong", "others")


def sizes(rnd: str) -> Counter[str]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    rows = [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    n: Counter[str] = Counter(r["label"] for r in rows)
    n["wrong"] = n["restatement"] + n["distinct"] + n["supplement"]
    n["others"] = sum(len(r.get("others") or []) for r in rows)
    return n


def good(report: dict[str, object]) -> dict[str, Counter[str]]:
    """Per round: distinct kept, restatements merged, changes retired, wrong deprecations, others untouched."""
    out: dict[str, Counter[str]] = {r: Counter() for r in ROUNDS}
    for rnd, entry in report.items():
        if rnd not in out or not isinstance(entry, dict):
            continue
        for d in entry["decided"]:
            c = out[rnd]
            c["distinct"] += d["label"] == "distinct" and d["actual"] == "kept"
            c["restatement"] += d["label"] == "restatement" and d["actual"] == "merged"
            c["change"] += d["label"] == "change" and d["actual"] == "change"
            c["wrong"] += d["label"] != "change" and d["actual"] == "change"
            c["others"] += sum(d["others_ok"])
    return out


def accept(delta: Counter[str], n: Counter[str]) -> bool:
    return (delta["restatement"] > 0 and -delta["distinct"] / n["distinct"] <= 0.005
            and delta["wrong"] / n["wrong"] <= 0.005 and delta["others"] >= 0)


def main() -> int:
    main_, branch = (json.loads(Path(p).read_text(encoding="utf-8")) for p in sys.argv[1:3])
    full = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8")) if len(sys.argv) > 3 else None
    a, b = good(main_), good(branch)
    n = {r: sizes(r) for r in ROUNDS}
    delta = {r: Counter({k: b[r][k] - a[r][k] for k in KEYS}) for r in ROUNDS}
    base = good(full) if full else None
    held, own, total = Counter[str](), Counter[str](), Counter[str]()
    print("round | kept on the other rounds | d distinct kept | d restatements merged | d changes retired | "
          "d wrong deprecations | d others untouched")
    for r in ROUNDS:
        others = [x for x in ROUNDS if x != r]
        keep = accept(sum((delta[x] for x in others), Counter()), sum((n[x] for x in others), Counter()))
        got = delta[r] if keep else Counter()
        held.update(got)
        own.update(delta[r])
        total.update(n[r])
        print(r, "|", "yes" if keep else "no", "|", " | ".join(f"{got[k]:+d}" for k in KEYS))
    print("pooled held out |", " | ".join(f"{held[k]:+d}" for k in KEYS))
    print("pooled own split |", " | ".join(f"{own[k]:+d}" for k in KEYS))
    print("denominators |", " | ".join(str(total[k]) for k in KEYS))
    if base:
        main_total = sum(base.values(), Counter())
        for name, d in (("held out", held), ("own split", own)):
            print(f"rates main -> {name}:", ", ".join(
                f"{k} {main_total[k] / total[k]:.4f} -> {(main_total[k] + d[k]) / total[k]:.4f}" for k in KEYS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
