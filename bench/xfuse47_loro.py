"""Leave-one-round-out choice of the `translated` channel's two fusion weights (issue 10, round 47).

    PYTHONPATH=src:bench python bench/xfuse47_loro.py OUT_DIR OUT.json r27 ... r40 [--apart r41]

OUT_DIR holds `xling32_eval.py` runs (XLING_DEEP=0), one per (reverse_translated_weight, translated_weight) pair,
named VARIANT_ROUND.jsonl (`RUNS`). The two weights act on disjoint questions (an English question reads only the
first, a Chinese one only the second: `crosslingual.bias_group`), so the grid point (rev, tr) reads each English
question from the run with that rev and each Chinese one from the run with that tr. Each fold picks the point with
the most hits@5 over the five categories on the other rounds (ties: main's point, then the smaller weights); the
held-out reading of a round is its fold's point (bench/results/xfuse47/ship_rule.md).
"""

import json
import sys
from functools import reduce
from pathlib import Path

from hindsight.retrieval.crosslingual import bias_group

#: variant -> (reverse_translated_weight, translated_weight) of its run
RUNS = {"a": (0.0, 0.2), "main": (0.2, 0.4), "b": (0.4, 0.8), "c": (0.8, 1.2)}
MAIN = RUNS["main"]
CATS = ("en_paraphrase", "zh_paraphrase", "en_to_zh", "zh_to_en", "superseded")


def load(out: Path, rnd: str) -> dict[str, list[dict]]:
    return {v: [json.loads(line) for line in (out / f"{v}_{rnd}.jsonl").open(encoding="utf-8")] for v in RUNS}


def point_rows(runs: dict[str, list[dict]], point: tuple[float, float]) -> list[dict]:
    """Each question's row at the grid point: from the run carrying its script's weight."""
    by_rev = {w[0]: v for v, w in RUNS.items()}
    by_tr = {w[1]: v for v, w in RUNS.items()}
    lines = runs["main"]
    return [runs[by_tr[point[1]] if bias_group(q["query"]) == "zh" else by_rev[point[0]]][i]
            for i, q in enumerate(lines)]


def score(rows: list[dict]) -> dict:
    out: dict = {c: 0 for c in CATS}
    out.update({f"n_{c}": 0 for c in CATS})
    out.update(stale_current=0, stale_current_flag=0, false_flags=0)
    flagged = set()
    for r in rows:
        out[r["cat"]] += int(r["hit"])
        out[f"n_{r['cat']}"] += 1
        out["stale_current"] += int(bool(r.get("stale_current")))
        out["stale_current_flag"] += int(bool(r.get("stale_current_flag")))
        flagged |= {(r["round"], m) for m in r["false_flags"]}
    out["false_flags"] = len(flagged)
    out["hits"] = sum(out[c] for c in CATS)
    return out


def add(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}


def grid() -> list[tuple[float, float]]:
    revs = sorted({w[0] for w in RUNS.values()})
    trs = sorted({w[1] for w in RUNS.values()})
    return [(r, t) for r in revs for t in trs]


def choose(per_round: dict[str, dict], held: str) -> tuple[float, float]:
    """The point with the most hits over the rounds but `held`; ties: main's, then the smaller weights."""
    def total(p: tuple[float, float]) -> int:
        return sum(per_round[r][p]["hits"] for r in per_round if r != held)
    return max(grid(), key=lambda p: (total(p), p == MAIN, -p[0], -p[1]))


def main() -> None:
    out, dest = Path(sys.argv[1]), Path(sys.argv[2])
    args = sys.argv[3:]
    apart = args[args.index("--apart") + 1:] if "--apart" in args else []
    rounds = args[: args.index("--apart")] if "--apart" in args else args
    per_round = {}
    for rnd in rounds + apart:
        runs = load(out, rnd)
        per_round[rnd] = {p: score(point_rows(runs, p)) for p in grid()}
    dev = {r: per_round[r] for r in rounds}
    folds = {r: choose(dev, r) for r in rounds}
    held: dict = {}
    base: dict = {}
    for r in rounds:
        held = add(held, dev[r][folds[r]])
        base = add(base, dev[r][MAIN])
    pooled = {str(p): {k: v for k, v in sorted(
        reduce(add, (dev[r][p] for r in rounds), {}).items())} for p in grid()}
    report = {"folds": {r: list(p) for r, p in folds.items()}, "main": dict(sorted(base.items())),
              "held_out": dict(sorted(held.items())), "in_sample_pooled": pooled,
              "apart": {r: {"main": per_round[r][MAIN], "chosen_all": per_round[r][choose(dev, "")],
                            "chosen_point": list(choose(dev, ""))} for r in apart}}
    dest.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({"folds": report["folds"], "main": report["main"], "held_out": report["held_out"]}, indent=1))


if __name__ == "__main__":
    main()
