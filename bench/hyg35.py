"""Hygiene round 35 (issue 10): the keep decision's change side at a stricter operating point, chosen held out.

    PYTHONPATH=src:bench python bench/hyg35.py choose FEAT.npz LORO.json OUT.json      # per-fold t_change (the rule)
    PYTHONPATH=src:bench python bench/hyg35.py curve FEAT.npz LORO.json OUT.json       # post hoc: one t for all folds
    PYTHONPATH=src:bench python bench/hyg35.py fold_dir SRC_DIR DST_DIR CHOSEN.json R,R  # fold models with t_change
    PYTHONPATH=src:bench python bench/hyg35.py fired ON.json PAIRS.json                 # rows the change side read
    PYTHONPATH=src:bench python bench/hyg35.py engine ON1.json,ON2.json OFF1.json,OFF2.json OUT.json

The rule (`bench/results/hyg35_rule.md`, declared first): a pair the rules and the judge keep becomes a change where
the keep decision's p(change) >= t_change; t_change(s) for a held-out set s is the grid point of least summed cost
(a change kept 1, a change merged 4, a wrong deprecation 50) over the other sets' held-out probabilities (LORO.json:
keepmerge33's leave-one-set-out run, each set scored by the model fitted without it). Merges stay keepmerge33's.
OUT.json has the shape of `hygdecide32.loro`'s output, so `hygdecide32.report` reads it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: The grid and costs of the rule: COST[true class][action], actions keep 0 / merge 1 / change 2.
GRID = (*(round(0.50 + 0.01 * k, 2) for k in range(40)), *(round(0.900 + 0.001 * k, 3) for k in range(100)), 1.01)
COST = ((0.0, 20.0, 50.0), (1.0, 0.0, 50.0), (1.0, 4.0, 0.0))
OFF = 1.01


def _rows(feature_file: str, loro_file: str) -> tuple[dict[str, int], dict[str, Any]]:
    from hygdecide32 import _load_features

    _X, y, meta, _sets = _load_features(feature_file)
    label = {m["key"]: int(c) for m, c in zip(meta, y)}
    return label, json.loads(Path(loro_file).read_text(encoding="utf-8"))


def _action(row: list[float], t_change: float) -> int:
    merge_act, _p_merge, p_change = row
    return 2 if p_change >= t_change else int(merge_act)


def cost_at(rows: list[tuple[int, list[float]]], t: float) -> float:
    return sum(COST[y][_action(r, t)] for y, r in rows)


def least_cost(rows: list[tuple[int, list[float]]]) -> tuple[float, float]:
    best = (OFF, cost_at(rows, OFF))
    for t in GRID:
        c = cost_at(rows, t)
        if c < best[1] - 1e-9:
            best = (t, c)
    return best


def choose(feature_file: str, loro_file: str, out: str) -> None:
    label, loro = _rows(feature_file, loro_file)
    by_set = {s: [(label[k], v) for k, v in fold["rows"].items()] for s, fold in loro.items()}
    found: dict[str, Any] = {}
    for s, fold in loro.items():
        others = [row for k, rows in by_set.items() if k != s for row in rows]
        t, c = least_cost(others)
        found[s] = {"t_merge": fold["t_merge"], "t_change": t, "inner_cost": c,
                    "rows": {k: [_action(v, t), v[1], v[2]] for k, v in fold["rows"].items()}}
        moved = sum(_action(v, t) == 2 for v in fold["rows"].values())
        print(s, t, c, {"change": moved}, flush=True)
    t_all, c_all = least_cost([row for rows in by_set.values() for row in rows])
    print("all", t_all, c_all)
    Path(out).write_text(json.dumps(found, indent=0), encoding="utf-8")
    Path(out).with_suffix(".point.json").write_text(json.dumps({"all": t_all, "cost": c_all,
                                                                 "folds": {s: f["t_change"] for s, f in found.items()}}),
                                                     encoding="utf-8")


def curve(feature_file: str, loro_file: str, out: str) -> None:
    """Post hoc: one t_change for every fold - changes gained and wrong deprecations added per threshold."""
    label, loro = _rows(feature_file, loro_file)
    rows = [(label[k], v) for fold in loro.values() for k, v in fold["rows"].items()]
    table = []
    for t in (0.80, 0.85, 0.90, 0.93, 0.95, 0.97, 0.98, 0.99, 0.993, 0.995, 0.997, 0.999):
        gained = sum(y == 2 and _action(v, t) == 2 for y, v in rows)
        wrong = sum(y != 2 and _action(v, t) == 2 for y, v in rows)
        lost_merge = sum(y == 1 and v[0] == 1 and _action(v, t) == 2 for y, v in rows)
        table.append({"t_change": t, "changes_gained": gained, "wrong_added": wrong, "restatement_merges_lost": lost_merge})
        print(table[-1])
    Path(out).write_text(json.dumps(table, indent=1), encoding="utf-8")


def fold_dir(src: str, dst: str, chosen: str, rounds: str) -> None:
    """Copies of keepmerge33's fold models (SRC/keep_without_<r>.npz, or keep_all.npz for 'all') with the rule's
    t_change of that fold (CHOSEN: `choose`'s .point.json), for `hygiene_funnel.py --keep-decision-dir`."""
    import dataclasses

    from hindsight.write.keep_decision import TreeEnsemble

    point = json.loads(Path(chosen).read_text(encoding="utf-8"))
    Path(dst).mkdir(parents=True, exist_ok=True)
    for rnd in rounds.split(","):
        name = "keep_all.npz" if rnd == "all" else f"keep_without_{rnd}.npz"
        ensemble = TreeEnsemble.load(Path(src) / name)
        if ensemble is None:
            raise SystemExit(f"{rnd}: no keep decision at {Path(src) / name}")
        t = point["folds"].get(rnd, point["all"])
        ensemble = dataclasses.replace(ensemble, t_change=t)
        ensemble.save(Path(dst) / name)
        print(rnd, ensemble.t_merge, t)


def fired(on_file: str, out: str) -> None:
    """The pairs of a `hygiene_funnel.py --keep-decision-changes` run where the decision read a change."""
    on = json.loads(Path(on_file).read_text(encoding="utf-8"))
    pairs = [x["pair"] for r, e in on.items() if not r.startswith("pooled") for x in e["decided"]
             if "override" in x["keep_decision"]]
    Path(out).write_text(json.dumps(pairs), encoding="utf-8")
    print(len(pairs), pairs)


def engine(on_files: str, off_files: str, out: str) -> None:
    """Switch on (every row) against off: a row where the decision read no change is judged alike (its merges are
    the same fold's), so off = on with the `fired` rows replaced by their replay without the change side."""
    from collections import Counter

    def load(files: str) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for f in filter(None, files.split(",")):
            found |= {k: v for k, v in json.loads(Path(f).read_text(encoding="utf-8")).items() if not k.startswith("pooled")}
        return found
    on, off = load(on_files), load(off_files)
    result: dict[str, Any] = {}
    pooled: dict[str, Counter[str]] = {"on": Counter(), "off": Counter()}
    others_pooled = {"on": [0, 0], "off": [0, 0]}
    moved = []
    for rnd, entry in on.items():
        replayed = {x["pair"]: x for x in off.get(rnd, {}).get("decided", [])}
        cells: dict[str, Counter[str]] = {"on": Counter(), "off": Counter()}
        others = {"on": [0, 0], "off": [0, 0]}
        for row in entry["decided"]:
            read = "override" in row["keep_decision"]
            if read and row["pair"] not in replayed:
                raise SystemExit(f"{row['pair']}: read as a change but not replayed off")
            other = replayed[row["pair"]] if read else row
            for arm, got in (("on", row), ("off", other)):
                cells[arm][f"{row['label']}->{got['actual']}"] += 1
                others[arm] = [others[arm][0] + sum(got["others_ok"]), others[arm][1] + len(got["others_ok"])]
            if (row["actual"], row["others_ok"]) != (other["actual"], other["others_ok"]):
                moved.append({"pair": row["pair"], "label": row["label"], "lang": row["lang"], "off": other["actual"],
                              "on": row["actual"], "others_off": other["others_ok"], "others_on": row["others_ok"]})
        result[rnd] = {arm: {"confusion": dict(sorted(cells[arm].items())), "others": others[arm]} for arm in cells}
        for arm in cells:
            pooled[arm] += cells[arm]
            others_pooled[arm] = [a + b for a, b in zip(others_pooled[arm], others[arm])]
        print(rnd, json.dumps(result[rnd]))
    result["pooled"] = {arm: {"confusion": dict(sorted(pooled[arm].items())), "others": others_pooled[arm]} for arm in pooled}
    result["moved"] = moved
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print("pooled", json.dumps(result["pooled"]))


if __name__ == "__main__":
    {"choose": choose, "curve": curve, "fold_dir": fold_dir, "fired": fired, "engine": engine}[sys.argv[1]](*sys.argv[2:])
