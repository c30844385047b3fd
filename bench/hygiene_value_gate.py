"""Hygiene round 22: the canonical value reading as positive evidence for a merge, and the slot-difference reading.

    PYTHONPATH=src:bench python bench/hygiene_value_gate.py table ROWS.json [ROWS2.json ...] --out TABLE.json
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py loro TABLE.json --out REPORT.json [--score p_merge|cos|q_merge]
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py veto TABLE.json
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py pairs --out PAIRS.json   # rows the gate can reach
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py compare TABLE.json MAIN.json BRANCH.json --out ENGINE.json
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py cost TABLE.json   # gate_reason per judged pair, CPU

ROWS are `bench/hygiene_stack.py run` outputs (every pair the judge reads while a row's new memory is written through
`MemoryEngine`, with main's outcomes). `table` reads each judged pair (cosine >= the judge's floor) as the judge does
(`conversions.written_alike`) and keeps what the gate reads: the canonical value match (`write.value_canon`), the
slot difference (`write.phrase_swap`), the pair model's p(merge), the cosine, and whether main's judge kept it.
`loro`: for each held-out round, the lowest threshold on the score (0.99 down) at which the gate adds no wrong outcome
on the other rounds (a distinct, supplement or change pair merged, an other touched: `hygiene_stack_fit.outcomes`),
applied to the held-out round (a moved pair takes the merge, every other pair main's engine outcome); pooled
confusion before -> after. `veto`: what the slot-difference reading would do to the pairs main merges. `pairs`: every row of the released
rounds where the gate opens on some two of its texts (others, existing, new, in the order they are stored), whatever
p(merge): the rows the gate can move, for `hygiene_funnel.py --pairs` (every other row is judged as on main).
`compare`: main's and the branch's `hygiene_funnel.py --pairs` runs over those rows, each row's outcome and others
side by side, on top of main's engine outcomes of every other row (TABLE's): the pooled confusion before -> after.
docs/benchmarks.md "Hygiene, round 22".
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from hygiene_funnel import ROUNDS
from hygiene_stack_fit import judged_once, outcomes, rates

from hindsight.write.conversions import written_alike
from hindsight.write.gate_model import other_relative
from hindsight.write.judge import CUE_FLOOR
from hindsight.write.pair_model import MERGE, PairModel
from hindsight.write.pair_readings import reading_features
from hindsight.write.phrase_swap import one_phrase_apart
from hindsight.write.value_canon import value_match
from hindsight.write.value_gate import gate_reason

GRID = np.round(np.arange(0.99, -0.005, -0.01), 2)


def table(paths: list[Path], out: Path, loro_dir: Path | None = None) -> None:
    """With `loro_dir` (scripts/train_hygiene_pairs.py --readings --loro-dir): each pair's `q_merge`, p(merge) of the
    pair model refitted on the readings without the pair's round (hygiene round 24)."""
    report: dict[str, Any] = {}
    for p in paths:
        report.update(json.loads(p.read_text(encoding="utf-8")))
    folds: dict[str, PairModel | None] = {}
    rows: list[dict[str, Any]] = []
    for rnd, e in judged_once(report, "p", lambda e: e["cos"] >= CUE_FLOOR):
        o, n = written_alike(e["old"], e["new"])
        m = value_match(o, n)
        rows.append({"round": rnd, "i": e["i"], "kind": e["kind"], "j": e["j"], "label": e["label"],
                     "old": e["old"], "new": e["new"], "final": e["final"][0], "rules": e["rules"][0],
                     "reason": e["rules"][1][:100], "p_merge": e["p"][MERGE], "cos": e["cos"],
                     "values": [m.paired, m.old_left, m.new_left], "swap": one_phrase_apart(o, n),
                     "gate": gate_reason(o, n)})
        if loro_dir is not None:
            if rnd not in folds:
                folds[rnd] = PairModel.load(loro_dir / f"model_without_{rnd}.npz")
            fold = folds[rnd]
            if fold is None or not fold.readings:
                raise SystemExit(f"{rnd}: no pair model with the readings in {loro_dir}")
            x = np.concatenate([np.asarray(e["x"]), reading_features(o, n)])  # x: pair_features as the run read them
            rows[-1]["q_merge"] = float(fold.probabilities(x)[0, MERGE])
    decided = {rnd: {"decided": report[rnd]["decided"]} for rnd in ROUNDS if rnd in report}
    out.write_text(json.dumps({"rows": rows, "report": decided}, ensure_ascii=False) + "\n", encoding="utf-8")
    c = Counter((r["label"] if r["kind"] == "existing" else "other", r["gate"] is None) for r in rows
                if r["final"] in ("supplement", "unrelated"))
    print(len(rows), "judged pairs;", "kept by main, gate open:",
          {k[0]: v for k, v in sorted(c.items()) if k[1]})


#: Round 24: the gate model's p(merge) sits near 1 on every open pair; its thresholds are read on a finer grid.
FINE = np.round(np.arange(0.9995, 0.8999, -0.0005), 4)


def _moves(rows: list[dict[str, Any]], rounds: set[str], score: str, t: float,
           base_p: float = 1.01) -> dict[tuple[str, int, str, int], str]:
    """The open pairs main kept that merge at `t` on `score` (or, with `base_p`, at the scalar p(merge) `base_p`:
    round 22's shipped gate, which rows of an older main did not have yet)."""
    return {(r["round"], r["i"], r["kind"], r["j"]): "merged" for r in rows
            if r["round"] in rounds and r["final"] in ("supplement", "unrelated") and r["rules"] != "override"
            and r["gate"] is None and (r["p_merge"] >= base_p or (r[score] >= t and not (
                base_p <= 1 and other_relative(r["old"], r["new"]))))}


def loro(path: Path, out: Path, score: str, base_p: float = 1.01) -> None:
    """With `base_p` (round 24): before = the shipped gate (scalar p(merge) >= base_p), after = that or `score` >= t,
    t chosen on the finer grid, no wrong outcome added on the training rounds beyond the shipped gate's."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows, report = data["rows"], data["report"]
    rounds = [r for r in ROUNDS if r in report]
    result: dict[str, Any] = {"score": score, "base_p": base_p}
    before, after = Counter[str](), Counter[str]()
    moved_all: list[str] = []
    grid = FINE if base_p <= 1 else GRID
    for held in rounds:
        train = [r for r in rounds if r != held]
        t = 1.01
        floor = outcomes(report, train, _moves(rows, set(train), score, 1.01, base_p))["harm"]
        for g in grid:
            if outcomes(report, train, _moves(rows, set(train), score, float(g), base_p))["harm"] > floor:
                break
            t = float(g)
        moved = _moves(rows, {held}, score, t, base_p)
        b = outcomes(report, [held], _moves(rows, {held}, score, 1.01, base_p))
        a = outcomes(report, [held], moved)
        before.update(b)
        after.update(a)
        moved_all += [f"{k[0]}:{k[1]}:{k[2]}:{k[3]}" for k in moved]
        result[held] = {"t": t, "moved": len(moved), "main": rates(b), "gate": rates(a)}
        print(held, t, len(moved), json.dumps({k: v for k, v in rates(a).items() if k != "confusion"}), flush=True)
    t_all = 1.01
    floor = outcomes(report, rounds, _moves(rows, set(rounds), score, 1.01, base_p))["harm"]
    for g in grid:
        if outcomes(report, rounds, _moves(rows, set(rounds), score, float(g), base_p))["harm"] > floor:
            break
        t_all = float(g)
    result["pooled"] = {"main": rates(before), "gate": rates(after)}
    result["moved"] = moved_all
    result["replay"] = sorted({":".join(k.split(":")[:2]) for k in moved_all})
    result["all"] = {"t": t_all, "in_sample": rates(outcomes(report, rounds, _moves(rows, set(rounds), score, t_all,
                                                                                     base_p)))}
    print(json.dumps(result["pooled"], indent=1), "\nall rounds:", t_all)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def veto(path: Path) -> None:
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    c: Counter[str] = Counter()
    for r in rows:
        if r["final"] == "duplicate" and r["swap"] is not None:
            label = r["label"] if r["kind"] == "existing" else "other"
            c[label] += 1
            print(label, r["round"], r["i"], r["swap"], "|", r["old"][:70], "||", r["new"][:70])
    print("main's merges one noun phrase apart:", dict(c))


def pairs(out: Path) -> None:
    from hygiene_stack import _set_rows
    found: list[str] = []
    for rnd in ROUNDS:
        for i, row in enumerate(_set_rows(rnd)):
            texts = [*row.get("others", []), row["existing"], row["new"]]
            if any(gate_reason(*written_alike(texts[x], texts[y])) is None
                   for y in range(1, len(texts)) for x in range(y)):
                found.append(f"{rnd}:{i}")
    out.write_text(json.dumps(found) + "\n", encoding="utf-8")
    print(len(found), "rows the gate can reach")


def compare(table_path: Path, main_path: Path, branch_path: Path, out: Path) -> None:
    base = json.loads(table_path.read_text(encoding="utf-8"))["report"]
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in (main_path, branch_path)]
    before, after = Counter[str](), Counter[str]()
    moved: list[dict[str, Any]] = []
    per_round: dict[str, Any] = {}
    for rnd in ROUNDS:
        if rnd not in base:
            continue
        replayed = [{d["pair"]: d for d in run.get(rnd, {}).get("decided", [])} for run in runs]
        b_r, a_r = Counter[str](), Counter[str]()
        for d in base[rnd]["decided"]:
            m, b = replayed[0].get(d["pair"], d), replayed[1].get(d["pair"], d)
            for c, x in ((b_r, m), (a_r, b)):
                c[f"{x['label']}->{x['actual']}"] += 1
                c["others"] += len(x["others_ok"])
                c["others_ok"] += sum(x["others_ok"])
            if (m["actual"], list(m["others_ok"])) != (b["actual"], list(b["others_ok"])):
                moved.append({"pair": d["pair"], "label": d["label"], "main": m["actual"], "branch": b["actual"],
                              "others_main": m["others_ok"], "others_branch": b["others_ok"]})
        before.update(b_r)
        after.update(a_r)
        per_round[rnd] = {"main": rates(b_r), "branch": rates(a_r)}
    result = {"pooled": {"main": rates(before), "branch": rates(after)}, "moved": moved, "rounds": per_round}
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for m in moved:
        print(m["pair"], m["label"], m["main"], "->", m["branch"], "others", m["others_main"], "->", m["others_branch"])
    print(json.dumps({k: {x: y for x, y in v.items() if x != "confusion"} for k, v in result["pooled"].items()}))
    print(json.dumps({k: v["confusion"] for k, v in result["pooled"].items()}))


def cost(table_path: Path, rounds: tuple[str, ...] = ("r11", "r13", "r21"), n: int = 1500) -> None:
    import statistics
    import time

    import hindsight.write.quantity_forms as quantity_forms
    from hindsight.write import phrase_swap, value_canon, value_gate
    rows = [r for r in json.loads(table_path.read_text(encoding="utf-8"))["rows"] if r["round"] in rounds][:n]
    pairs = [written_alike(r["old"], r["new"]) for r in rows]
    for o, n_ in pairs[:50]:
        gate_reason(o, n_)  # imports and tables loaded once (jieba, cn2an, text2num)
    times = []
    for o, n_ in pairs:
        for f in (value_gate.gate_reason, value_canon.value_match, value_canon._read, phrase_swap.one_phrase_apart,
                  quantity_forms.mentions):
            f.cache_clear()
        t = time.process_time()
        gate_reason(o, n_)
        times.append((time.process_time() - t) * 1000)
    times.sort()
    print(f"{len(times)} judged pairs: gate_reason median {statistics.median(times):.3f} ms, "
          f"p90 {times[int(0.9 * len(times))]:.3f}, p99 {times[int(0.99 * len(times))]:.3f} (CPU, caches cleared)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["table", "loro", "veto", "pairs", "compare", "cost"])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--score", default="p_merge", choices=["p_merge", "cos", "q_merge"])
    ap.add_argument("--base-p", type=float, default=1.01, help="loro: the shipped gate's scalar p(merge) stays on "
                    "(before and after; round 24 reads --score q_merge beside it)")
    ap.add_argument("--loro-dir", type=Path, help="table: add q_merge, the refitted pair model's p(merge) without "
                    "the pair's round (model_without_<round>.npz; hygiene round 24)")
    a = ap.parse_args()
    if a.cmd == "table":
        table(a.paths, a.out, a.loro_dir)
    elif a.cmd == "cost":
        cost(a.paths[0])
    elif a.cmd == "compare":
        compare(a.paths[0], a.paths[1], a.paths[2], a.out)
    elif a.cmd == "pairs":
        pairs(a.out)
    elif a.cmd == "loro":
        loro(a.paths[0], a.out, a.score, a.base_p)
    else:
        veto(a.paths[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
