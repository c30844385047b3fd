"""Hygiene round 19: positive evidence for the value merge blockers ("amounts differ", "numbers differ"): lifted when
both sides state the same values once `value_forms` reads them (`write.value_read`). Rows, the leave-one-round-out
choice, and the pairs to replay.

    PYTHONPATH=src:bench python bench/hygiene_value_blockers.py rows ROWS.json FUNNEL_MAIN.json --out MOVES.json
    PYTHONPATH=src:bench python bench/hygiene_value_blockers.py loro MOVES.json [--out REPORT.json] [--pairs PAIRS.json]

`rows` takes `hygiene_supplement.py dump`'s rows (every judged pair with main's verdict and merge blocker) and
re-judges, with each setting of `value_read.LIFTS`, the pairs blocked by "amounts differ" or "numbers differ"
(`judge.classify` as `dump` calls it), keeping main's engine outcome of the pair from a `hygiene_funnel.py` run.
`loro` chooses, for each held-out round, the setting with the most restatements merged on the other rounds and no
added wrong outcome there (a distinct, supplement or change pair merged or retired, a restatement retired, an other
touched), applies it to the held-out round, and lists every pair a lift reaches ('round:index', `--pairs`) to replay
through the engine with `hygiene_funnel.py --pairs` (the branch's code, `LIFTS` as shipped).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from hygiene_same_fact import ROUNDS, judged_pairs
from hygiene_supplement import _main

from hindsight.write import judge, value_read
from hindsight.write.conversions import written_alike
from hindsight.write.thresholds import HygieneThresholds

BLOCKERS = ("amounts differ", "numbers differ")
SETTINGS: dict[str, frozenset[str]] = {"none": frozenset(), "amounts": frozenset({"amounts"}),
                                       "numbers": frozenset({"numbers"}), "both": frozenset({"amounts", "numbers"})}
OUTCOME = {"duplicate": "merged", "override": "change"}


def rows(rows_file: Path, funnel: Path, out: Path) -> None:
    main = _main(json.loads(funnel.read_text(encoding="utf-8")))
    dumped = {(r["round"], r["i"], r["kind"], r["j"]): r for r in json.loads(rows_file.read_text(encoding="utf-8"))}
    t = HygieneThresholds.default()
    moved: list[dict[str, Any]] = []
    for rnd in ROUNDS:
        for i, kind, j, old, new, _r in judged_pairs(rnd):
            row = dumped[(rnd, i, kind, j)]
            if judge.blocker_kind(row.get("blocker")) not in BLOCKERS:
                continue
            d = main[(rnd, i)]
            if kind == "existing":
                main_outcome = d["actual"]
            else:
                main_outcome = "kept" if (d["others_ok"][j] if j < len(d["others_ok"]) else True) else "touched"
            value_read.LIFTS = SETTINGS["both"]
            o, n = written_alike(old, new)  # as `judge.classify` reads them
            if not (value_read.amounts_read_alike(o, n) or value_read.numbers_read_alike(o, n)):
                continue  # no setting lifts the blocker: every verdict is main's
            got = {}
            for name, lifts in SETTINGS.items():
                value_read.LIFTS = lifts
                value_read.amounts_read_alike.cache_clear()
                value_read.numbers_read_alike.cache_clear()
                got[name] = judge.classify(old, new, row["cos"], t, None, row["qcos"]).label
            moved.append({"round": rnd, "i": i, "kind": kind, "j": j, "label": row["label"] if kind == "existing"
                          else "other", "blocker": row["blocker"], "main": main_outcome, "verdicts": got,
                          "old": old, "new": new})
        print(rnd, flush=True)
    out.write_text(json.dumps(moved, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def moves(r: dict[str, Any], setting: str) -> str | None:
    """The outcome a setting gives a pair main kept ('merged' / 'change'), or None (as main)."""
    if r["main"] != "kept" or r["verdicts"][setting] == r["verdicts"]["none"]:
        return None
    return OUTCOME.get(r["verdicts"][setting])


def tally(rs: list[dict[str, Any]], setting: str) -> Counter[str]:
    c: Counter[str] = Counter()
    for r in rs:
        got = moves(r, setting)
        if got:
            c[f"{r['label']}_{got}"] += 1
    return c


def wrong(c: Counter[str]) -> int:
    return sum(n for k, n in c.items() if k != "restatement_merged")


def loro(moves_file: Path, out: Path | None, pairs: Path | None) -> None:
    rs = json.loads(moves_file.read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    pooled: Counter[str] = Counter()
    moved: list[str] = []
    for rnd in ROUNDS:
        train = [r for r in rs if r["round"] != rnd]
        ok = [(tally(train, s)["restatement_merged"], -n, s) for n, s in enumerate(SETTINGS) if not wrong(tally(train, s))]
        setting = max(ok)[2] if ok else "none"  # a tie goes to the setting that lifts less (listed first)
        held = tally([r for r in rs if r["round"] == rnd], setting)
        pooled.update(held)
        moved += [f"{rnd}:{r['i']}" for r in rs if r["round"] == rnd and moves(r, setting)]
        report[rnd] = {"setting": setting, "train": dict(tally(train, setting)), "held_out": dict(held)}
        print(rnd, setting, dict(held))
    report["pooled"] = dict(pooled)
    report["every_setting"] = {s: dict(tally(rs, s)) for s in SETTINGS}
    print("pooled", dict(pooled))
    print("every setting, all rounds:", report["every_setting"])
    if out:
        out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if pairs:  # every pair a lift reaches (moved offline or not): the engine may read it otherwise
        pairs.write_text(json.dumps(sorted({f"{r['round']}:{r['i']}" for r in rs})) + "\n", encoding="utf-8")
    print("moved offline:", sorted(set(moved)))


def rows_loro_parser(doc: str | None, funnel_optional: bool = False) -> tuple[argparse.ArgumentParser, Any]:
    """The `rows` / `loro` command line these replays share (also `hygiene_quantity_forms.py`)."""
    ap = argparse.ArgumentParser(description=doc)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rows")
    r.add_argument("rows_file", type=Path)
    r.add_argument("funnel", type=Path, nargs="?" if funnel_optional else None)
    r.add_argument("--out", type=Path, required=True)
    lo = sub.add_parser("loro")
    lo.add_argument("moves_file", type=Path)
    lo.add_argument("--out", type=Path)
    lo.add_argument("--pairs", type=Path)
    return ap, sub


def _cli() -> None:
    ap, _ = rows_loro_parser(__doc__)
    a = ap.parse_args()
    if a.cmd == "rows":
        rows(a.rows_file, a.funnel, a.out)
    else:
        loro(a.moves_file, a.out, a.pairs)


if __name__ == "__main__":
    _cli()
