"""Leave-one-round-out over the amount families of `write.conversions` (hygiene round 12), from two funnel runs.

    PYTHONPATH=src python bench/hygiene_conversions_loro.py MAIN.json BRANCH.json

Both files are `bench/hygiene_funnel.py --out` reports (every pair's outcome in `decided`; the branch's also names
the amount families rewritten in each pair). Every pair whose outcome moved is attributed to its families; for each
held-out round a family is kept when, over the other rounds pooled, it merges more restatements and costs at most
0.5 points of distinct kept and 0.5 points of wrong deprecations; the held-out round gets main's outcome plus the
moves of the families kept. Pairs across scripts are left as main had them (the shipped code does not rewrite them).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hindsight.text.script import script_of

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("distinct:kept", "distinct", "restatement:merged", "restatement", "change:change", "change", "wrong",
        "nonchange")


def rows_of(rnd: str) -> list[dict[str, Any]]:
    base = ROOT / "bench/data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene/set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def score(pairs: list[dict[str, Any]]) -> Counter[str]:
    c: Counter[str] = Counter()
    for p in pairs:
        c[p["label"]] += 1
        c[p["label"] + ":" + p["actual"]] += 1
        if p["label"] != "change":
            c["nonchange"] += 1
            c["wrong"] += p["actual"] == "change"
    return c


def rates(c: Counter[str]) -> dict[str, float]:
    return {"distinct": c["distinct:kept"] / c["distinct"], "restatements": c["restatement:merged"] / c["restatement"],
            "changes": c["change:change"] / c["change"], "wrong": c["wrong"] / c["nonchange"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("main", type=Path)
    parser.add_argument("branch", type=Path)
    args = parser.parse_args()
    main_rep, branch_rep = json.loads(args.main.read_text()), json.loads(args.branch.read_text())
    rounds = [r for r in main_rep if r != "pooled_funnel" and r in branch_rep]
    delta: dict[str, dict[str, Counter[str]]] = {}
    for rnd in rounds:
        moved: dict[str, Counter[str]] = defaultdict(Counter)
        for row, pm, pb in zip(rows_of(rnd), main_rep[rnd]["decided"], branch_rep[rnd]["decided"], strict=True):
            if pm["actual"] == pb["actual"] or script_of(row["existing"]) != script_of(row["new"]):
                continue
            family = "+".join(pb.get("converted") or []) or "none"
            before, after = score([pm]), score([pb])
            for key in set(before) | set(after):
                moved[family][key] += after[key] - before[key]
        delta[rnd] = moved
    base = {rnd: score(main_rep[rnd]["decided"]) for rnd in rounds}
    families = sorted({f for moved in delta.values() for f in moved})

    def chosen(family: str, train: list[str]) -> bool:
        total: Counter[str] = Counter()
        moved: Counter[str] = Counter()
        for rnd in train:
            total += base[rnd]
            moved.update(delta[rnd].get(family, {}))
        return family == "none" or (moved["restatement:merged"] > 0 and -moved["distinct:kept"] / total["distinct"] <= 0.005
                                    and moved["wrong"] / total["nonchange"] <= 0.005)

    pooled_main: Counter[str] = Counter()
    pooled_held: Counter[str] = Counter()
    pooled_own: Counter[str] = Counter()
    print("| held-out round | families kept | distinct kept | restatements merged | changes retire old | wrong deprecations "
          "| others untouched (all families) |")
    for rnd in rounds:
        kept = [f for f in families if chosen(f, [r for r in rounds if r != rnd])]
        held, own = Counter(base[rnd]), Counter(base[rnd])
        for family, moved in delta[rnd].items():
            own.update(moved)
            if family in kept:
                held.update(moved)
        pooled_main += base[rnd]
        pooled_held += held
        pooled_own += own
        before, after = rates(base[rnd]), rates(held)
        cells = [f"{before[k]:.3f}" + (f" -> {after[k]:.3f}" if abs(before[k] - after[k]) > 1e-9 else "") for k in before]
        print(f"| {rnd} | {', '.join(f for f in kept if f != 'none') or '-'} | {' | '.join(cells)} | "
              f"{main_rep[rnd]['others_untouched']} -> {branch_rep[rnd]['others_untouched']} |")
    for name, pooled in (("held out", pooled_held), ("own split", pooled_own)):
        print(f"pooled {name}:", {k: f"{pooled_main[k]} -> {pooled[k]}" for k in KEYS},
              {k: f"{v:.4f} -> {rates(pooled)[k]:.4f}" for k, v in rates(pooled_main).items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
