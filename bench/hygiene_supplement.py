"""Hygiene round 18: when the rules' "shares the subject, adds or changes" keeps a pair the pair model calls a merge
(or a change), who should win? Rows, the leave-one-round-out choice, and the pairs to replay.

    PYTHONPATH=src:bench python bench/hygiene_supplement.py dump --out ROWS.json --cache VEC.npz
    PYTHONPATH=src:bench python bench/hygiene_supplement.py loro ROWS.json FUNNEL_MAIN.json [--out REPORT.json]
    PYTHONPATH=src:bench python bench/hygiene_supplement.py pairs ROWS.json --merge-p P [--change-p P] --out PAIRS.json

`dump` judges every pair of the released hygiene rounds the write path would judge - (existing, new) and each
(other, new) - with the cosines the write path computes (`hygiene_same_fact._cosines`) and keeps, per pair, main's
verdict (`judge.classify`), the rules' (`judge.classify_rules`), the pair model's probabilities and the merge
blocker (`evidence.merge_blocker`, as `judge.supplement_yields` reads it). `loro` takes main's engine outcome of every
pair from a `bench/hygiene_funnel.py` run and, for each held-out round, chooses the lowest p(merge) (and separately
p(change)) from which a pair kept by "adds or changes" yields to the model, on the other rounds, under the
budget stated before the run (`BUDGET`: no distinct, supplement or change pair and no other touched, restatements
retired for the change threshold); then applies it to the held-out round. `pairs` lists the 'round:index' whose
verdict the chosen thresholds move: replay them with `hygiene_funnel.py --pairs` on the branch, then
`hygiene_value_forms.py --combine` main's full run with the branch's.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from hygiene_same_fact import ROUNDS, _cosines, _rows_of, judged_pairs

from hindsight.write import judge
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import merge_blocker
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_model import CHANGE, KEEP, MERGE
from hindsight.write.thresholds import HygieneThresholds

#: Rounds the shipped scalar pair model was fitted on (r1-r8T1, docs/benchmarks.md "Hygiene, round 11c"): its
#: probabilities there are in-sample, so thresholds are chosen on the other rounds only.
MODEL_SEEN = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1")
#: Added wrong outcomes allowed on the training rounds (set before the run): none of any kind.
BUDGET = 0
SHARES = "shares the subject, adds or changes"
#: The merge blockers (`judge.blocker_kind`) measured as able to yield; '' is none.
KINDS = ("", "words of each side missing from the other", "one side negates the other",
         "one slot filled differently", "several slots filled differently", "a name on one side only", "amounts differ",
         "numbers differ", "another person", "another subject", "adds a clause", "adds detail",
         "one slot of the same sentence filled differently")


def dump(out: Path, cache: Path | None) -> None:
    encode, cosines, save = _cosines(cache)
    t = HygieneThresholds.default()
    assert t.pair_model is not None
    rows: list[dict[str, Any]] = []
    for rnd in ROUNDS:
        pairs = judged_pairs(rnd)
        encode(sorted({x for p in pairs for x in (p[3], p[4])}))
        for i, kind, j, old, new, r in pairs:
            cos, qcos = cosines(old, new)
            row: dict[str, Any] = {"round": rnd, "i": i, "kind": kind, "j": j, "label": r["label"], "lang": r["lang"],
                                   "cos": round(cos, 4), "qcos": round(qcos, 4)}
            if cos >= judge.CUE_FLOOR:
                o, n = written_alike(old, new)
                rules = judge.classify_rules(o, n, cos, t, None, qcos)
                final = judge.classify(old, new, cos, t, None, qcos)
                p = t.pair_model.probabilities(pair_features(o, n, cos, qcos))[0]
                row.update(rules=[rules.label, rules.reason[:160]], final=[final.label, final.reason[:200]],
                           p=[round(float(p[k]), 4) for k in (KEEP, MERGE, CHANGE)],
                           blocker=merge_blocker(analyse(o, n), None, o, n))
            rows.append(row)
        print(rnd, len(pairs), flush=True)
    save()
    out.write_text(json.dumps(rows, ensure_ascii=False) + "\n", encoding="utf-8")


def candidate(r: dict[str, Any]) -> bool:
    """A pair main keeps on the rules' "adds or changes" alone (the model not sure enough to overrule)."""
    return ("final" in r and r["final"][0] in ("supplement", "unrelated") and r["rules"][0] == "supplement"
            and r["rules"][1].startswith(SHARES) and r["final"][1].startswith(SHARES))


def moves(r: dict[str, Any], merge_p: dict[str, float], change_p: float) -> str | None:
    """What the branch makes of a row main keeps: 'merged', 'change' or None (as main). `merge_p`: the p(merge)
    from which the model wins, by the pair's merge blocker (`judge.blocker_kind`; '' = none)."""
    if not candidate(r):
        return None
    if r["p"][2] >= change_p:
        return "change"
    if r["p"][1] >= merge_p.get(judge.blocker_kind(r["blocker"]), 1.01):
        return "merged"
    return None


def _main(funnel: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(rnd, int(d["pair"].split(":")[1])): d for rnd, e in funnel.items() if isinstance(e, dict) and "decided" in e
            for d in e["decided"]}


def tally(rows: list[dict[str, Any]], main: dict[tuple[str, int], dict[str, Any]], merge_p: dict[str, float],
          change_p: float) -> Counter[str]:
    """Main's counts and what the branch adds, read offline: a moved existing pair main kept becomes the move's
    outcome; a moved other pair (still active on main) is touched."""
    c: Counter[str] = Counter()
    for r in rows:
        d = main[(r["round"], r["i"])]
        got = moves(r, merge_p, change_p)
        if r["kind"] == "existing":
            c[f"n_{r['label']}"] += 1
            c[f"{r['label']}_{d['actual']}"] += 1
            if got and d["actual"] == "kept":
                c[f"{r['label']}_kept"] -= 1
                c[f"{r['label']}_{got}"] += 1
                c[f"add_{r['label']}_{got}"] += 1
        else:
            ok = d["others_ok"][r["j"]] if r["j"] < len(d["others_ok"]) else True
            c["n_others"] += 1
            c["others_ok"] += ok
            if got and ok:
                c["others_ok"] -= 1
                c[f"add_others_{got}"] += 1
    return c


def harmful(c: Counter[str], kind: str) -> int:
    """Added wrong outcomes of one move ('merged' or 'change'): any distinct, supplement, change (for a merge) or
    restatement (for a change) pair moved, any other touched."""
    wrong = [f"add_{lab}_{kind}" for lab in ("distinct", "supplement")] + [f"add_others_{kind}"]
    wrong.append("add_change_merged" if kind == "merged" else "add_restatement_change")
    return sum(c[k] for k in wrong)


def choose(rows: list[dict[str, Any]], main: dict[tuple[str, int], dict[str, Any]], kinds: list[str],
           uniform: bool = False, change: bool = True) -> tuple[dict[str, float], float]:
    """The lowest p(change) (unless not `change`), then per blocker kind (`uniform`: one for all `kinds`) the lowest
    p(merge) (with that change threshold), within `BUDGET` on `rows`; a kind whose threshold merges no restatement
    there stays shut."""
    change_p = 1.01
    for t in np.round(np.arange(0.99, 0.49, -0.01), 2) if change else ():
        if harmful(tally(rows, main, {}, float(t)), "change") > BUDGET:
            break
        change_p = float(t)
    if uniform:
        best = 1.01
        for t in np.round(np.arange(0.99, 0.49, -0.01), 2):
            if harmful(tally(rows, main, dict.fromkeys(kinds, float(t)), change_p), "merged") > BUDGET:
                break
            best = float(t)
        return dict.fromkeys(kinds, best), change_p
    merge_p: dict[str, float] = {}
    for kind in kinds:
        own = [r for r in rows if candidate(r) and judge.blocker_kind(r["blocker"]) == kind]
        best = 1.01
        for t in np.round(np.arange(0.99, 0.49, -0.01), 2):
            if harmful(tally(own, main, {kind: float(t)}, change_p), "merged") > BUDGET:
                break
            best = float(t)
        if tally(own, main, {kind: best}, change_p)["add_restatement_merged"]:
            merge_p[kind] = best
    return merge_p, change_p


def rates(c: Counter[str]) -> dict[str, Any]:
    def r(a: str, n: str) -> float | None:
        return round(c[a] / c[n], 4) if c[n] else None
    nonchange = c["n_restatement"] + c["n_distinct"] + c["n_supplement"]
    wrong = c["restatement_change"] + c["distinct_change"] + c["supplement_change"]
    return {"restatements": r("restatement_merged", "n_restatement"), "distinct": r("distinct_kept", "n_distinct"),
            "changes": r("change_change", "n_change"), "wrong": round(wrong / nonchange, 4) if nonchange else None,
            "others": r("others_ok", "n_others"), "added": {k[4:]: v for k, v in sorted(c.items()) if k.startswith("add_") and v}}


def loro(rows_path: Path, funnel_path: Path, out: Path | None, kinds: list[str], uniform: bool, change: bool) -> None:
    rows = json.loads(rows_path.read_text(encoding="utf-8"))
    main = _main(json.loads(funnel_path.read_text(encoding="utf-8")))
    held_rounds = [x for x in ROUNDS if any(r["round"] == x for r in rows)]
    report: dict[str, Any] = {"budget": BUDGET, "kinds": kinds, "uniform": uniform, "change": change}
    pooled: dict[str, Counter[str]] = {"main": Counter(), "branch": Counter(), "main_unseen": Counter(),
                                       "branch_unseen": Counter()}
    for held in held_rounds:
        train = [r for r in rows if r["round"] != held and r["round"] not in MODEL_SEEN]
        merge_p, change_p = choose(train, main, kinds, uniform, change)
        test = [r for r in rows if r["round"] == held]
        before, after = tally(test, main, {}, 1.01), tally(test, main, merge_p, change_p)
        pooled["main"].update(before)
        pooled["branch"].update(after)
        if held not in MODEL_SEEN:
            pooled["main_unseen"].update(before)
            pooled["branch_unseen"].update(after)
        report[held] = {"merge_p": merge_p, "change_p": change_p, "main": rates(before), "branch": rates(after)}
        print(held, json.dumps(report[held], ensure_ascii=False), flush=True)
    report["all"] = dict(zip(("merge_p", "change_p"), choose([r for r in rows if r["round"] not in MODEL_SEEN], main,
                                                              kinds, uniform, change)))
    report["pooled"] = {k: rates(v) for k, v in pooled.items()}
    for k, v in report["pooled"].items():
        print(k, json.dumps(v, ensure_ascii=False))
    print("all rounds:", report["all"])
    if out:
        out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def pairs(rows_path: Path, folds_path: Path, out: Path) -> None:
    """The pairs whose verdict their held-out fold's thresholds move (`loro`'s report), printed with their texts."""
    rows = json.loads(rows_path.read_text(encoding="utf-8"))
    folds = json.loads(folds_path.read_text(encoding="utf-8"))
    moved: set[str] = set()
    for r in rows:
        got = moves(r, folds[r["round"]]["merge_p"], folds[r["round"]]["change_p"])
        if got:
            moved.add(f"{r['round']}:{r['i']}")
            src = _rows_of(r["round"])[r["i"]]
            old = src["existing"] if r["kind"] == "existing" else src["others"][r["j"]]
            print(f"{r['round']}:{r['i']} {r['kind']} {r['label']} -> {got} p={r['p']} [{r['blocker']}] | {old} || "
                  f"{src['new']}")
    out.write_text(json.dumps(sorted(moved)) + "\n", encoding="utf-8")
    print(len(moved), "pairs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--cache", type=Path)
    lo = sub.add_parser("loro")
    lo.add_argument("rows", type=Path)
    lo.add_argument("funnel", type=Path)
    lo.add_argument("--out", type=Path)
    lo.add_argument("--kinds", default=",".join(KINDS), help="the merge blockers a confident model may pass")
    lo.add_argument("--uniform", action="store_true", help="one p(merge) for every kind")
    lo.add_argument("--no-change", action="store_true", help="the model never reads a change over the rules' keep")
    pa = sub.add_parser("pairs")
    pa.add_argument("rows", type=Path)
    pa.add_argument("folds", type=Path, help="loro's report")
    pa.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.cache)
    elif args.cmd == "loro":
        loro(args.rows, args.funnel, args.out, args.kinds.split(","), args.uniform, not args.no_change)
    else:
        pairs(args.rows, args.folds, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
