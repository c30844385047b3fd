"""Hygiene round 22: the canonical value reading as positive evidence for a merge, and the slot-difference reading.

    PYTHONPATH=src:bench python bench/hygiene_value_gate.py table ROWS.json [ROWS2.json ...] --out TABLE.json
    PYTHONPATH=src:bench python bench/hygiene_value_gate.py loro TABLE.json --out REPORT.json [--score p_merge|cos]
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
from hindsight.write.judge import CUE_FLOOR
from hindsight.write.pair_model import MERGE
from hindsight.write.phrase_swap import one_phrase_apart
from hindsight.write.value_canon import value_match
from hindsight.write.value_gate import gate_reason

GRID = np.round(np.arange(0.99, -0.005, -0.01), 2)


def table(paths: list[Path], out: Path) -> None:
    report: dict[str, Any] = {}
    for p in paths:
        report.update(json.loads(p.read_text(encoding="utf-8")))
    rows: list[dict[str, Any]] = []
    for rnd, e in judged_once(report, "p", lambda e: e["cos"] >= CUE_FLOOR):
        o, n = written_alike(e["old"], e["new"])
        m = value_match(o, n)
        rows.append({"round": rnd, "i": e["i"], "kind": e["kind"], "j": e["j"], "label": e["label"],
                     "old": e["old"], "new": e["new"], "final": e["final"][0], "rules": e["rules"][0],
                     "reason": e["rules"][1][:100], "p_merge": e["p"][MERGE], "cos": e["cos"],
                     "values": [m.paired, m.old_left, m.new_left], "swap": one_phrase_apart(o, n),
                     "gate": gate_reason(o, n)})
    decided = {rnd: {"decided": report[rnd]["decided"]} for rnd in ROUNDS if rnd in report}
    out.write_text(json.dumps({"rows": rows, "report": decided}, ensure_ascii=False) + "\n", encoding="utf-8")
    c = Counter((r["label"] if r["kind"] == "existing" else "other", r["gate"] is None) for r in rows
                if r["final"] in ("supplement", "unrelated"))
    print(len(rows), "judged pairs;", "kept by main, gate open:",
          {k[0]: v for k, v in sorted(c.items()) if k[1]})


def _moves(rows: list[dict[str, Any]], rounds: set[str], score: str, t: float) -> dict[tuple[str, int, str, int], str]:
    return {(r["round"], r["i"], r["kind"], r["j"]): "merged" for r in rows
            if r["round"] in rounds and r["final"] in ("supplement", "unrelated") and r["rules"] != "override"
            and r["gate"] is None and r[score] >= t}


def loro(path: Path, out: Path, score: str) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows, report = data["rows"], data["report"]
    rounds = [r for r in ROUNDS if r in report]
    result: dict[str, Any] = {"score": score}
    before, after = Counter[str](), Counter[str]()
    moved_all: list[str] = []
    for held in rounds:
        train = [r for r in rounds if r != held]
        t = 1.01
        for g in GRID:
            if outcomes(report, train, _moves(rows, set(train), score, float(g)))["harm"] > 0:
                break
            t = float(g)
        moved = _moves(rows, {held}, score, t)
        b, a = outcomes(report, [held], {}), outcomes(report, [held], moved)
        before.update(b)
        after.update(a)
        moved_all += [f"{k[0]}:{k[1]}:{k[2]}:{k[3]}" for k in moved]
        result[held] = {"t": t, "moved": len(moved), "main": rates(b), "gate": rates(a)}
        print(held, t, len(moved), json.dumps({k: v for k, v in rates(a).items() if k != "confusion"}), flush=True)
    t_all = 1.01
    for g in GRID:
        if outcomes(report, rounds, _moves(rows, set(rounds), score, float(g)))["harm"] > 0:
            break
        t_all = float(g)
    result["pooled"] = {"main": rates(before), "gate": rates(after)}
    result["moved"] = moved_all
    result["replay"] = sorted({":".join(k.split(":")[:2]) for k in moved_all})
    result["all"] = {"t": t_all, "in_sample": rates(outcomes(report, rounds, _moves(rows, set(rounds), score, t_all)))}
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
    ap.add_argument("--score", default="p_merge", choices=["p_merge", "cos"])
    a = ap.parse_args()
    if a.cmd == "table":
        table(a.paths, a.out)
    elif a.cmd == "cost":
        cost(a.paths[0])
    elif a.cmd == "compare":
        compare(a.paths[0], a.paths[1], a.paths[2], a.out)
    elif a.cmd == "pairs":
        pairs(a.out)
    elif a.cmd == "loro":
        loro(a.paths[0], a.out, a.score)
    else:
        veto(a.paths[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
