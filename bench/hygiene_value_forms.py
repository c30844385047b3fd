"""Which released hygiene pairs the value forms (`write.value_forms`, hygiene round 17) can move.

    PYTHONPATH=src:bench python bench/hygiene_value_forms.py --out /tmp/x/flips.json --pairs /tmp/x/pairs.json
    PYTHONPATH=src:bench python bench/hygiene_value_forms.py --lost MAIN.json            # where restatements stop
    PYTHONPATH=src:bench python bench/hygiene_value_forms.py --combine MAIN.json BRANCH.json --out /tmp/x/engine.json
    PYTHONPATH=src:bench python bench/hygiene_value_forms.py --cost            # the agreement + guarded score, ms a pair

The forms are read only by `same_fact.agreement`, the gate of the two same-fact scores. For every pair of every
released round - (existing, new) and each (other, new) - the gates and the agreement are read twice, without the
forms (main's reading) and with them; a row whose gate state or agreement differs may change its verdict. Those
rows' pairs ('round:index') go to `--pairs` for `bench/hygiene_funnel.py --pairs`, which replays them through the
engine; every other pair keeps its verdict (nothing else reads the forms).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import hygiene_same_fact
from hygiene_funnel import ROUNDS

import hindsight.write.same_fact as same_fact
from hindsight.text.script import script_of
from hindsight.write.conversions import written_alike

ROOT = Path(__file__).resolve().parent.parent


def _rows(rnd: str) -> list[dict[str, Any]]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    text = (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8")
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def _state(old: str, new: str) -> tuple[bool, bool, tuple[int, int, int]]:
    o, n = written_alike(old, new)
    g = same_fact.agreement(o, n)
    return same_fact.gate(o, n), same_fact.guarded_gate(o, n), (g.matched, g.unmatched, g.codes)


def _main_reading() -> None:
    """The agreement as main reads it: no value forms, no span clashes."""
    same_fact.read_values = lambda text: text  # type: ignore[assignment]
    same_fact.span_clashes = lambda old, new: 0  # type: ignore[assignment]
    same_fact.agreement.cache_clear()


def states(with_forms: bool) -> dict[tuple[str, int, int], tuple[bool, bool, tuple[int, int, int]]]:
    """(round, row, -1 for the existing memory or the other's index) -> (gate, guarded gate, agreement)."""
    reader, clashes = same_fact.read_values, same_fact.span_clashes
    if not with_forms:
        _main_reading()
    same_fact.agreement.cache_clear()
    out = {}
    try:
        for rnd in ROUNDS:
            for i, r in enumerate(_rows(rnd)):
                for k, old in [(-1, r["existing"]), *enumerate(r.get("others") or [])]:
                    out[(rnd, i, k)] = _state(old, r["new"])
    finally:
        same_fact.read_values, same_fact.span_clashes = reader, clashes  # type: ignore[assignment]
        same_fact.agreement.cache_clear()
    return out


def _decided(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    f = json.loads(path.read_text(encoding="utf-8"))
    return {rnd: {d["pair"]: d for d in e["decided"]} for rnd, e in f.items() if isinstance(e, dict) and "decided" in e}


def _evidence(old: str, new: str) -> str:
    """What the pair's values say (main's reading): agree, one side or none, unmatched, across scripts."""
    o, n = written_alike(old, new)
    if script_of(o) != script_of(n):
        return "across scripts"
    g = same_fact.agreement(o, n)
    return "values agree" if g.agrees else "a value left over" if g.unmatched else "no value on one side or both"


def lost(main_path: Path) -> None:
    """Every restatement main does not merge, by the stage that decided it and what its values say."""
    _main_reading()
    by: Counter[tuple[str, str]] = Counter()
    langs: Counter[tuple[str, str]] = Counter()
    total = merged = 0
    for rnd, ds in _decided(main_path).items():
        rows = _rows(rnd)
        for key, d in ds.items():
            if d["label"] != "restatement":
                continue
            total += 1
            if d["actual"] == "merged":
                merged += 1
                continue
            r = rows[int(key.split(":")[1])]
            stage = "retired (change)" if d["actual"] == "change" else d["decider"]
            by[(stage, _evidence(r["existing"], r["new"]))] += 1
            langs[(stage, r["lang"])] += 1
    print(f"restatements {total}, merged {merged}, not merged {total - merged}")
    stages = Counter[str]()
    for (stage, _), n in by.items():
        stages[stage] += n
    for stage, n in stages.most_common():
        ev = {e: c for (s, e), c in by.items() if s == stage}
        ln = {lang: c for (s, lang), c in langs.items() if s == stage}
        print(f"{n:5d}  {stage}  {json.dumps(ln)}  {json.dumps(ev)}")


def rates(ds: list[dict[str, Any]]) -> dict[str, Any]:
    """The rates `bench/blind_eval.py hygiene` reports, their counts and the confusion matrix of a list of pairs."""
    conf = Counter(f"{d['label']}->{d['actual']}" for d in ds)
    n = Counter(d["label"] for d in ds)
    others = [ok for d in ds for ok in d["others_ok"]]
    share = lambda k, lab: round(conf[f"{lab}->{k}"] / n[lab], 4) if n[lab] else None  # noqa: E731
    nonchange = n["restatement"] + n["distinct"] + n["supplement"]
    wrong = conf["restatement->change"] + conf["distinct->change"] + conf["supplement->change"]
    return {"restatements_merged": share("merged", "restatement"), "distinct_kept_apart": share("kept", "distinct"),
            "changes_deprecate_old": share("change", "change"),
            "wrong_deprecations": round(wrong / nonchange, 4) if nonchange else None,
            "others_untouched": round(sum(others) / len(others), 4) if others else None,
            "counts": {"restatement merged": conf["restatement->merged"], "restatements": n["restatement"],
                       "distinct kept": conf["distinct->kept"], "distinct": n["distinct"],
                       "changes retired": conf["change->change"], "changes": n["change"], "wrong": wrong,
                       "others ok": sum(others), "others": len(others)},
            "confusion": dict(sorted(conf.items()))}


def cost(rounds: tuple[str, ...] = ("r11", "r13")) -> None:
    """CPU time of the guarded score's gate and score a judged pair, main's reading first, then the forms'. Cold:
    every cache of the lexical analysis and of the readings cleared; warm: the judge has analysed the pair."""
    import numpy as np

    import hindsight.write.value_forms as value_forms
    score = same_fact.shipped_guarded()
    assert score is not None
    pairs = [written_alike(r["existing"], r["new"]) for rnd in rounds for r in _rows(rnd)]
    reading = same_fact.read_values, same_fact.span_clashes
    for label in ("main", "forms"):
        if label == "main":
            _main_reading()
        else:
            same_fact.read_values, same_fact.span_clashes = reading  # type: ignore[assignment]
        out = hygiene_same_fact.time_pairs(score, pairs, value_forms.read_values)
        for mode, xs in out.items():
            a = np.array(xs)
            print(f"{label} {mode}: {len(a)} pairs, median {np.median(a):.3f} ms, p99 {np.percentile(a, 99):.3f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--lost", type=Path, help="a bench/hygiene_funnel.py result: where its restatements stop")
    parser.add_argument("--combine", type=Path, nargs=2, metavar=("MAIN", "BRANCH"))
    parser.add_argument("--cost", action="store_true")
    args = parser.parse_args()
    if args.cost:
        cost()
        return 0
    if args.lost:
        lost(args.lost)
        return 0
    if args.combine:
        hygiene_same_fact.combine(*args.combine, args.out, rates=rates)
        return 0
    if not (args.out and args.pairs):
        parser.error("--out and --pairs")
    before, after = states(False), states(True)
    moved: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for key, was in before.items():
        now = after[key]
        if was == now or not (now[0] or now[1] or was[0] or was[1]):
            continue  # the same reading, or no gate open either way: the scores are not asked
        rnd, i, k = key
        r = _rows(rnd)[i]
        old = r["existing"] if k < 0 else r["others"][k]
        opened = ("gate" if now[0] else "guarded" if now[1] else "-")
        closed = ("gate" if was[0] else "guarded" if was[1] else "-")
        counts[f"{'existing' if k < 0 else 'other'} {r['label'] if k < 0 else 'other'}: {closed} -> {opened}"] += 1
        moved.append({"pair": f"{rnd}:{i}", "other": k, "label": r["label"], "lang": r["lang"], "old": old,
                      "new": r["new"], "before": list(was), "after": list(now)})
    pairs = sorted({m["pair"] for m in moved})
    args.pairs.write_text(json.dumps(pairs) + "\n", encoding="utf-8")
    args.out.write_text(json.dumps({"counts": dict(counts.most_common()), "rows": moved}, ensure_ascii=False,
                                   indent=1) + "\n", encoding="utf-8")
    print(json.dumps(dict(counts.most_common()), indent=1), len(pairs), "pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
