"""Hygiene round 20: one quantity in two written forms (`write/quantity_forms.py`). Rows, the leave-one-round-out
choice of reading families, and the pairs to replay.

    PYTHONPATH=src:bench python bench/hygiene_quantity_forms.py rows ROWS.json FUNNEL_MAIN.json --out MOVES.json
    PYTHONPATH=src:bench python bench/hygiene_quantity_forms.py loro MOVES.json [--out REPORT.json] [--pairs PAIRS.json]
    PYTHONPATH=src:bench python bench/hygiene_quantity_forms.py cost

`rows` takes `hygiene_supplement.py dump`'s rows (every pair the write path judges, with main's verdict, dumped on
main's code) and, for every pair whose new text `align_forms` rewrites with all families on, re-judges it
(`judge.classify` as `dump` calls it) with no family, each family alone and all of them, keeping main's engine
outcome of the pair from a `hygiene_funnel.py` run. `loro` chooses, for each held-out round, the families that on the
other rounds merge at least one more restatement and add no wrong outcome (a distinct, supplement or change pair
merged or retired, a restatement retired, a merged restatement kept, an other touched), re-reads the held-out round
with that set, and lists every pair a reading reaches ('round:index', `--pairs`) to replay through the engine with
`hygiene_funnel.py --pairs`.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hygiene_same_fact import ROUNDS, judged_pairs
from hygiene_supplement import _main
from hygiene_value_blockers import rows_loro_parser

from hindsight.write import conversions, judge, quantity_forms, same_fact, value_read
from hindsight.write.thresholds import HygieneThresholds

ALL = quantity_forms.EVERY_FAMILY
OUTCOME = {"duplicate": "merged", "override": "change"}


def _use(families: frozenset[str]) -> None:
    quantity_forms.FAMILIES = families
    for cached in (quantity_forms.mentions, quantity_forms.align_forms, conversions.written_alike,
                   value_read.amounts_read_alike, value_read.numbers_read_alike, same_fact.agreement):
        cached.cache_clear()


def _name(families: frozenset[str]) -> str:
    return "+".join(sorted(families)) or "none"


def rows(rows_file: Path, funnel: Path, out: Path) -> None:
    main = _main(json.loads(funnel.read_text(encoding="utf-8"))) if funnel else {}
    dumped = {(r["round"], r["i"], r["kind"], r["j"]): r for r in json.loads(rows_file.read_text(encoding="utf-8"))}
    t = HygieneThresholds.default()
    settings = [frozenset(), *(frozenset({f}) for f in sorted(ALL)), ALL]
    moved: list[dict[str, Any]] = []
    for rnd in ROUNDS:
        for i, kind, j, old, new, _r in judged_pairs(rnd):
            row = dumped[(rnd, i, kind, j)]
            if "final" not in row:
                continue  # under the judge's floor: never judged
            _use(ALL)
            if quantity_forms.align_forms(old, new) == new:
                continue  # no reading reaches the pair: every verdict is main's
            if not main:  # main's verdict read as its outcome (no engine run given)
                main_outcome = OUTCOME.get(row["final"][0], "kept")
                main_outcome = main_outcome if kind == "existing" or main_outcome == "kept" else "touched"
            elif kind == "existing":
                main_outcome = main[(rnd, i)]["actual"]
            else:
                ok = main[(rnd, i)]["others_ok"]
                main_outcome = "kept" if (ok[j] if j < len(ok) else True) else "touched"
            got = {}
            for families in settings:
                _use(families)
                got[_name(families)] = judge.classify(old, new, row["cos"], t, None, row["qcos"]).label
            _use(ALL)
            moved.append({"round": rnd, "i": i, "kind": kind, "j": j, "label": row["label"] if kind == "existing"
                          else "other", "main": main_outcome, "main_verdict": row["final"][0], "verdicts": got,
                          "cos": row["cos"], "qcos": row["qcos"], "old": old, "new": new, "aligned": quantity_forms.align_forms(old, new)})
        print(rnd, len(moved), flush=True)
    out.write_text(json.dumps(moved, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def outcome(r: dict[str, Any], families: frozenset[str]) -> str | None:
    """The outcome a setting gives a pair whose verdict it moves ('merged' / 'change' / 'kept'), or None (as main)."""
    verdict = _verdict(r, families)
    if verdict == r["verdicts"]["none"]:
        return None
    got = OUTCOME.get(verdict, "kept")
    if r["kind"] == "other":
        return "touched" if got != "kept" else "kept"
    return got


def _verdict(r: dict[str, Any], families: frozenset[str]) -> str:
    return str(r["verdicts"][_name(families)])


def tally(rs: list[dict[str, Any]], families: frozenset[str]) -> Counter[str]:
    """What a setting adds over main's engine outcomes: '<label>_<from>-><to>' per moved pair."""
    c: Counter[str] = Counter()
    for r in rs:
        got = outcome(r, families)
        if got and got != r["main"]:
            c[f"{r['label']}_{r['main']}->{got}"] += 1
    return c


def gained(c: Counter[str]) -> int:
    return c["restatement_kept->merged"] + c["restatement_change->merged"]


def wrong(c: Counter[str]) -> int:
    return sum(n for k, n in c.items() if k not in ("restatement_kept->merged", "restatement_change->merged",
                                                     "change_kept->change", "change_merged->change"))


def loro(moves_file: Path, out: Path | None, pairs: Path | None) -> None:
    rs = json.loads(moves_file.read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    pooled: Counter[str] = Counter()
    moved: list[str] = []
    for rnd in ROUNDS:
        train = [r for r in rs if r["round"] != rnd]
        chosen = frozenset(f for f in ALL if gained(tally(train, frozenset({f}))) > 0
                           and not wrong(tally(train, frozenset({f}))))
        if rs and _name(chosen) not in rs[0]["verdicts"]:
            _rejudge(rs, chosen)
        held = tally([r for r in rs if r["round"] == rnd], chosen)
        pooled.update(held)
        moved += [f"{rnd}:{r['i']}" for r in rs if r["round"] == rnd and outcome(r, chosen)]
        report[rnd] = {"families": sorted(chosen), "train": dict(tally(train, chosen)), "held_out": dict(held)}
        print(rnd, _name(chosen), dict(held))
    report["pooled"] = dict(pooled)
    report["every_setting"] = {_name(frozenset({f})): dict(tally(rs, frozenset({f}))) for f in sorted(ALL)}
    report["every_setting"]["all"] = dict(tally(rs, ALL))
    print("pooled", dict(pooled))
    print("each family alone / all, all rounds:", report["every_setting"])
    if out:
        out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if pairs:  # every existing pair a reading reaches (moved offline or not): the engine may read it otherwise
        pairs.write_text(json.dumps(sorted({f"{r['round']}:{r['i']}" for r in rs})) + "\n", encoding="utf-8")
    print("moved offline:", sorted(set(moved)))


def _rejudge(rs: list[dict[str, Any]], families: frozenset[str]) -> None:
    """Verdicts of a set of families not judged by `rows` (the judge asked again, with the rows' cosines)."""
    t = HygieneThresholds.default()
    _use(families)
    for r in rs:
        r["verdicts"][_name(families)] = judge.classify(r["old"], r["new"], r["cos"], t, None, r["qcos"]).label
    _use(ALL)


def cost(rounds: tuple[str, ...] = ("r11", "r13")) -> None:
    """CPU time of `written_alike` per judged pair with and without `align_forms` (every cache cleared before each
    call: a write judges at most 5 neighbours, each a pair never seen before)."""
    pairs = [(old, new) for rnd in rounds for _i, _k, _j, old, new, _r in judged_pairs(rnd)]
    times: dict[str, list[float]] = {"main": [], "branch": []}
    for old, new in pairs * 2:  # the first pass warms the imports and the regexes
        for name, on in (("main", False), ("branch", True)):
            conversions.ALIGN_FORMS = on
            _use(quantity_forms.FAMILIES)
            start = time.process_time()
            conversions.written_alike(old, new)
            times[name].append((time.process_time() - start) * 1000)
    for name, ts in times.items():
        ts = sorted(ts[len(pairs):])
        print(f"{name}: {len(ts)} pairs, median {ts[len(ts) // 2]:.3f} ms, p99 {ts[int(len(ts) * 0.99)]:.3f} ms")


def _cli() -> None:
    ap, sub = rows_loro_parser(__doc__, funnel_optional=True)
    sub.add_parser("cost")
    a = ap.parse_args()
    if a.cmd == "cost":
        cost()
    elif a.cmd == "rows":
        rows(a.rows_file, a.funnel, a.out)
    else:
        loro(a.moves_file, a.out, a.pairs)


if __name__ == "__main__":
    _cli()
