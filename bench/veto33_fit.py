"""veto33 (issue 10): supwrite32's retire pick read as a VETO of the rules' retirement, under the rule declared first
(bench/results/veto33_rule.md): leave-one-round-out over the released retrieval stores' write logs, and the hygiene
sets r26 - r31 read by each round's fold model.

    PYTHONPATH=src:bench python bench/veto33_fit.py loro OUT.json --hyg HYGDIR LOGROOT...
    PYTHONPATH=src:bench python bench/veto33_fit.py export B WEIGHTS.json --hyg HYGDIR LOGROOT... [--without R]
    PYTHONPATH=src:bench python bench/veto33_fit.py curve OUT.json --hyg HYGDIR LOGROOT...    # post hoc
    PYTHONPATH=src:bench python bench/veto33_fit.py causes OUT.json LOGROOT...                # the wrong retirements

A retirement the rules made (the log's `supersedes`) stands unless the retired memory is eligible
(`supwrite32_pick.eligible`) and its score is under the point t; a merge is never touched. Variants:
A - supwrite32's pick model (every eligible judged candidate of the training stores, label: this write `replaces` it);
B - a model of the rules' retirements only, from the training stores and the training hygiene sets (a hygiene
retirement is right when the write is `new`, the retired memory `existing` and the row a change).
t per fold: the training rounds' out-of-fold scores (five groups of rounds), cost 1 x wrong retirement + 3 x missed
right one (stores; B's hygiene sets too), grid 0.05 - 0.95; ties go to the lower point (fewer vetoes).
"""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import supwrite32_pick as rp
from currency19_read import set_dir
from sklearn.linear_model import LogisticRegression
from supwrite32_fit import C, cached_round
from supwrite32_hyg_read import _records

from hindsight.write.conflict import Verdict

COST_WRONG, COST_MISSED = 1.0, 3.0
GRID = [round(x, 3) for x in np.arange(0.05, 0.951, 0.025)]


def load_hygiene(path: Path) -> list[dict]:
    """A hygiene set's captured writes (`supwrite32_hygiene.py`) with each judged candidate's readings."""
    rows = [json.loads(x) for x in open(set_dir(path.stem) / "hygiene/set.jsonl", encoding="utf-8") if x.strip()]
    out = []
    for entry in json.loads(path.read_text()):
        row = rows[entry["i"]]
        recs = _records(row)
        writes = []
        for w in entry["writes"]:
            new = recs.get(w["role"])
            mine = set(w["supersedes"])
            cands = []
            for j in w["judged"] if new is not None else []:
                old = recs.get(j["old"])
                if old is None:
                    continue
                x = rp.features(old, new, j["sim"], Verdict(j["label"], j["reason"]), old.id in mine,
                                bool(mine) and old.id not in mine)
                right = w["role"] == "new" and old.id == "existing" and entry["label"] == "change"
                cands.append((old.id, x, right, old.id in mine, rp.eligible(old, new)))
            writes.append((w["role"], cands, mine, w["duplicate_of"]))
        out.append({"i": entry["i"], "label": entry["label"], "outcome": entry["outcome"],
                    "others_ok": entry["others_ok"], "writes": writes})
    return out


def _fit(x: np.ndarray, y: np.ndarray) -> rp.Model:
    mean, scale = x.mean(0), x.std(0)
    scale[scale < 1e-6] = 1.0
    lr = LogisticRegression(C=C, max_iter=2000).fit((x - mean) / scale, y)
    return rp.Model(tuple(lr.coef_[0]), float(lr.intercept_[0]), tuple(mean), tuple(scale), 0.5)


def fit(variant: str, stores: dict, hyg: dict, names: list[str]) -> rp.Model:
    xs, ys = [], []
    for r in names:
        for _, cands, _, dup in stores[r]["writes"]:
            if dup:
                continue
            for _, x, y, mine, ok in cands:
                if ok and (variant == "A" or mine):
                    xs.append(x)
                    ys.append(y)
        if variant == "B":
            for row in hyg.get(r, []):
                for _, cands, _, dup in row["writes"]:
                    for _, x, right, mine, ok in cands if not dup else []:
                        if ok and mine:
                            xs.append(x)
                            ys.append(right)
    return _fit(np.array(xs, dtype=float), np.array(ys, dtype=int))


def _kept(cands: list, retired: set[str], dup: object, model: rp.Model | None, t: float | None) -> set[str]:
    """The rules' retirements of one write that stand under the veto (all of them: no model, or a merge)."""
    if model is None or t is None or dup:
        return set(retired)
    score = {cid: model.score(x) for cid, x, _, mine, ok in cands if ok and mine}
    return {m for m in retired if not (m in score and score[m] < t)}


def store_replay(rnd: dict, model: rp.Model | None, t: float | None) -> dict:
    gone: set[str] = set()
    for _, cands, retired, dup in rnd["writes"]:
        gone |= _kept(cands, retired, dup, model, t)
    ok, wrong = len(gone & rnd["replaced"]), len(gone - rnd["replaced"])
    return {"replaced_retired": ok, "replaced": len(rnd["replaced"]), "kept_retired": wrong,
            "cost": COST_WRONG * wrong + COST_MISSED * (len(rnd["replaced"]) - ok)}


def hyg_replay(rows: list[dict], model: rp.Model | None, t: float | None) -> dict:
    """Main's (model None) or the veto's confusion of one hygiene set, others untouched, and the rows moved."""
    conf: Counter = Counter()
    others = [0, 0]
    moved = []
    wrong = missed = 0
    for row in rows:
        retired_main: set[str] = set()
        retired: set[str] = set()
        for _, cands, mine, dup in row["writes"]:
            retired_main |= mine
            retired |= _kept(cands, mine, dup, model, t)
        outcome = row["outcome"]
        if outcome not in ("merged", "merged_elsewhere"):
            outcome = "change" if "existing" in retired else "kept"
        ok = [(o or f"other{k}" in retired_main) and f"other{k}" not in retired for k, o in enumerate(row["others_ok"])]
        conf[f"{row['label']}->{outcome}"] += 1
        others[0] += sum(ok)
        others[1] += len(ok)
        wrong += sum(not o for o in ok) + (row["label"] != "change" and outcome == "change")
        missed += row["label"] == "change" and outcome != "change"
        if outcome != row["outcome"] or ok != row["others_ok"]:
            moved.append({"i": row["i"], "label": row["label"], "main": row["outcome"], "veto": outcome,
                          "others_main": row["others_ok"], "others_veto": ok})
    return {"confusion": dict(sorted(conf.items())), "others_untouched": others, "moved": moved,
            "cost": COST_WRONG * wrong + COST_MISSED * missed}


def choose_t(variant: str, stores: dict, hyg: dict, names: list[str]) -> float:
    """The point on `names`' out-of-fold scores (five groups of rounds), by the declared cost."""
    groups = [names[i::5] for i in range(5) if names[i::5]]
    costs = np.zeros(len(GRID))
    for g in groups:
        model = fit(variant, stores, hyg, [n for n in names if n not in g])
        for n in g:
            for k, t in enumerate(GRID):
                costs[k] += store_replay(stores[n], model, t)["cost"]
                if variant == "B" and n in hyg:
                    costs[k] += hyg_replay(hyg[n], model, t)["cost"]
    return GRID[int(np.argmin(costs))]  # the first minimum: the lower point on a tie


def load_all(args: list[str]) -> tuple[dict, dict, list[str]]:
    hyg_dir = None
    if "--hyg" in args:
        k = args.index("--hyg")
        hyg_dir, args = Path(args[k + 1]), args[:k] + args[k + 2:]
    logs = {}
    for root in args:
        for f in sorted(Path(root).glob("*/write_log.json")):
            logs[f.parent.name] = f
    stores = {r: cached_round(r, f) for r, f in sorted(logs.items())}
    hyg = {f.stem: load_hygiene(f) for f in sorted(hyg_dir.glob("*.json"))} if hyg_dir else {}
    return stores, hyg, sorted(stores)


def export(variant: str, out: str, args: list[str]) -> None:
    without = None
    if "--without" in args:
        k = args.index("--without")
        without, args = args[k + 1], args[:k] + args[k + 2:]
    stores, hyg, names = load_all(args)
    names = [n for n in names if n != without]
    hyg = {k: v for k, v in hyg.items() if k != without}
    model = fit(variant, stores, hyg, names)
    t = choose_t(variant, stores, hyg, names)
    Path(out).write_text(json.dumps({"features": list(rp.FEATURES), "weights": list(model.weights),
                                     "bias": model.bias, "mean": list(model.mean), "scale": list(model.scale),
                                     "threshold": t, "variant": variant, "rounds": names, "hygiene": sorted(hyg),
                                     "C": C, "cost": [COST_WRONG, COST_MISSED]}, indent=1) + "\n")


def loro(out: str, args: list[str]) -> None:
    stores, hyg, names = load_all(args)
    print("rounds", names, "hygiene", sorted(hyg), file=sys.stderr, flush=True)
    res: dict = {"rounds": names, "hygiene_sets": sorted(hyg)}
    for variant in ("A", "B"):
        full = fit(variant, stores, hyg, names)
        per: dict = {}
        pooled: dict = defaultdict(lambda: defaultdict(int))
        hyg_out: dict = {}
        for h in names:
            train = [n for n in names if n != h]
            train_hyg = {k: v for k, v in hyg.items() if k != h}
            t = choose_t(variant, stores, train_hyg, train)
            model = fit(variant, stores, train_hyg, train)
            cells = {"main": store_replay(stores[h], None, None), "held_out": store_replay(stores[h], model, t),
                     "in_sample": store_replay(stores[h], full, t)}
            per[h] = {"t": t, **cells}
            for k, v in cells.items():
                for m in ("replaced_retired", "replaced", "kept_retired"):
                    pooled[k][m] += v[m]
            if h in hyg:
                hyg_out[h] = {"t": t, "main": hyg_replay(hyg[h], None, None), "held_out": hyg_replay(hyg[h], model, t),
                              "in_sample": hyg_replay(hyg[h], full, t)}
            print(variant, h, t, cells["main"], cells["held_out"], file=sys.stderr, flush=True)
        res[variant] = {"rounds": per, "pooled": {k: dict(v) for k, v in pooled.items()}, "hygiene": hyg_out,
                        "full_point": choose_t(variant, stores, hyg, names)}
        Path(out).write_text(json.dumps(res, indent=1) + "\n")


POINTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def curve(out: str, args: list[str]) -> None:
    """Post hoc (after the rule's run, not a ship decision): each variant's fold models at fixed points, pooled held
    out - wrong retirements removed against right ones lost, and the hygiene sets' confusion."""
    stores, hyg, names = load_all(args)
    res: dict = {}
    for variant in ("A", "B"):
        table: dict = {str(t): {"replaced_retired": 0, "kept_retired": 0, "hygiene": Counter(), "others": 0}
                       for t in [0.0, *POINTS]}
        for h in names:
            model = fit(variant, stores, {k: v for k, v in hyg.items() if k != h}, [n for n in names if n != h])
            for t in [0.0, *POINTS]:
                cell = table[str(t)]
                got = store_replay(stores[h], model, t)
                cell["replaced_retired"] += got["replaced_retired"]
                cell["kept_retired"] += got["kept_retired"]
                if h in hyg:
                    rep = hyg_replay(hyg[h], model, t)
                    cell["hygiene"].update(rep["confusion"])
                    cell["others"] += rep["others_untouched"][0]
            print(variant, h, file=sys.stderr, flush=True)
        res[variant] = {t: dict(v, hygiene=dict(sorted(v["hygiene"].items()))) for t, v in table.items()}
        Path(out).write_text(json.dumps(res, indent=1) + "\n")


def causes(out: str, args: list[str]) -> None:
    """The rules' wrong retirements (a kept memory retired) by what the write replaces: nothing at all, a memory among
    its judged candidates (the pick's error), or one outside them."""
    from blind_store import rows
    stores, _, names = load_all(args)
    count: Counter = Counter()
    by_round: dict = {}
    for r in names:
        mems = {m["id"]: m for m in rows(set_dir(r) / "retrieval/memories.jsonl")}
        here: Counter = Counter()
        for wid, cands, retired, _ in stores[r]["writes"]:
            replaces = mems[wid].get("replaces")
            for _m in retired - stores[r]["replaced"]:
                if any(y for _, _, y, _, _ in cands):
                    here["the replaced memory is a judged candidate (the pick)"] += 1
                elif replaces:
                    here["the write replaces a memory outside its candidates"] += 1
                else:
                    here["the write replaces nothing"] += 1
        by_round[r] = dict(here)
        count.update(here)
    Path(out).write_text(json.dumps({"pooled": dict(count), "rounds": by_round}, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "causes":
        causes(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "loro":
        loro(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "curve":
        curve(sys.argv[2], sys.argv[3:])
    else:
        export(sys.argv[2], sys.argv[3], sys.argv[4:])
